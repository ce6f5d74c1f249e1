#include "web/views/depth_curves.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "web/draw/i18n.hpp"
#include "web/draw/loglog_curve.hpp"
#include "web/views/lr_curves.hpp"
#include "web/views/overlay.hpp"

namespace {

std::string custom_rule(double alpha, double gamma) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "custom (\u03b1=%g, \u03b3=%g)", alpha, gamma);
  return buf;
}

std::string page_rule(const ParametrizationSpec& p) {
  if (p.depth_rule == DepthRule::custom) return custom_rule(p.depth_alpha, p.depth_gamma);
  return depth_rule_name(p.depth_rule);
}

double number_in(const json::Value* object, const char* key, double otherwise) {
  const json::Value* v = object && object->is_object() ? object->find(key) : nullptr;
  return v && v->is_number() ? v->number : otherwise;
}

// An imported set's rule, from its spec as the document has it (absent fields read as the defaults).
std::string imported_rule(const json::Value& spec) {
  const json::Value* p = spec.find("parametrization");
  const json::Value* rule = p && p->is_object() ? p->find("depth_rule") : nullptr;
  const std::string name = rule && rule->is_string() ? rule->string : depth_rule_name(DepthRule::standard);
  if (name != depth_rule_name(DepthRule::custom)) return name;
  const ParametrizationSpec defaults;
  return custom_rule(number_in(p, "depth_alpha", defaults.depth_alpha),
                     number_in(p, "depth_gamma", defaults.depth_gamma));
}

DepthSource page_source(const Runner& runner, const std::string& loss) {
  DepthSource s;
  s.rule = page_rule(runner.spec().parametrization);
  for (const auto& m : runner.members()) {
    s.runs.push_back({m->width(), member_depth(runner.spec(), m->coords()), m->coords().lr, &m->recorded_steps(),
                      &m->series()});
  }
  if (runner.spec().sweep.lr.size() >= 2) s.fits = lr_curves(runner, loss);
  for (const LrCurve& f : s.fits) s.training.push_back(net_training(runner, f));
  return s;
}

DepthSource imported_source(const ImportedSet& set, int index, const std::string& loss) {
  DepthSource s;
  s.rule = imported_rule(set.spec);
  s.set = &set;
  s.set_index = index;
  for (const ImportedRun& r : set.runs) s.runs.push_back({r.width, r.depth, r.lr, &r.recorded_steps, &r.series});
  s.fits = imported_lr_fits(set, loss);
  return s;
}

// The curves of a source in its style: the page's as they are, along the page's colour ramp; an imported set's
// dashed with its marker under its name, along the imported ramp.
ImU32 source_color(const DepthSource& s, int index, int count) {
  return s.set ? imported_color(index, count) : curve_color(index, count);
}

PlotCurve styled(const DepthSource& s, const PlotCurve& c) {
  return s.set ? in_imported_style(c, *s.set, s.set_index) : c;
}

std::string net_label(const DepthSource& s, int width, double lr) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s n=%d lr=%g", s.rule.c_str(), width, lr);
  return buf;
}

// The value of `q` at `step` of a run, or NaN when the run did not record it there.
double value_at(const DepthRun& r, const DepthQuantity& q, int step) {
  const auto at = std::find(r.steps->begin(), r.steps->end(), step);
  const Series* s = depth_series(*r.series, q);
  const size_t i = size_t(at - r.steps->begin());
  return at != r.steps->end() && s && i < s->values.size() ? s->values[i] : NAN;
}

void quantity_curves(const DepthSource& s, const DepthQuantity& q, int step, std::vector<PlotCurve>& out) {
  std::map<std::pair<int, double>, std::vector<std::pair<int, double>>> by_net;  // (width, lr) → (depth, value)
  for (const DepthRun& r : s.runs) by_net[{r.width, r.lr}].emplace_back(r.depth, value_at(r, q, step));
  int i = 0;
  for (const auto& [net, points] : by_net) {
    PlotCurve c = geometric_mean_by_size(points);
    const std::string name = net_label(s, net.first, net.second);
    c.label = slope_label(name, c, translatable("depth"));
    c.key = name;  // the slope in the label changes with the step; the row that hides the curve does not
    c.color = source_color(s, i++, int(by_net.size()));
    out.push_back(styled(s, c));
  }
}

// η* of a fit, when it has one to draw (a depth, a finite loss at its grid minimum).
bool has_eta(const LrCurve& f) { return f.depth > 0 && f.grid_min >= 0 && std::isfinite(f.best_loss) && f.best_lr > 0; }

// η* of the source's i-th fit is known: it has one, and it will not move (its net's runs are done, or finished runs
// bracket it already).
bool eta_known(const DepthSource& s, size_t i) {
  return has_eta(s.fits[i]) && (s.fits[i].bracketed || i >= s.training.size() || !s.training[i]);
}

void eta_curves(const DepthSource& s, std::vector<PlotCurve>& out) {
  std::set<int> widths;
  for (size_t k = 0; k < s.fits.size(); k++)
    if (eta_known(s, k)) widths.insert(s.fits[k].width);
  int i = 0;
  for (int width : widths) {
    const std::string name = s.rule + " n=" + std::to_string(width);
    const ImU32 color = source_color(s, i++, int(widths.size()));
    PlotCurve c;
    std::vector<PlotCurve> rings;
    for (size_t k = 0; k < s.fits.size(); k++) {  // ascending in depth
      const LrCurve& f = s.fits[k];
      if (f.width != width || !eta_known(s, k)) continue;
      c.x.push_back(f.depth);
      c.y.push_back(f.best_lr);
      if (!at_grid_edge(f)) continue;
      PlotCurve ring = styled(s, solid_curve("", {double(f.depth)}, {f.best_lr}, color));
      ring.marker = PlotMarker::ring;
      ring.key = name;
      ring.name = name + " L=" + std::to_string(f.depth) + " eta* (" + tr(kGridEdgeFlag) + ")";
      rings.push_back(std::move(ring));
    }
    c.label = slope_label(name, c, translatable("depth"));
    c.key = name;
    c.name = name;
    c.color = color;
    out.push_back(styled(s, c));
    for (PlotCurve& r : rings) out.push_back(std::move(r));
  }
}

void with_rule(PlotCurve& c, const std::string& rule) {
  if (!c.label.empty()) c.label = rule + " " + c.label;
  c.key = rule + " " + c.key;
  c.name = rule + " " + c.name;
}

void lr_curves_per_depth(const DepthSource& s, std::vector<PlotCurve>& out) {
  for (size_t i = 0; i < s.fits.size(); i++) {
    const ImU32 color = source_color(s, int(i), int(s.fits.size()));
    const bool training = i < s.training.size() && s.training[i];
    std::vector<PlotCurve> curves = lr_width_curves(s.fits[i], color, training ? tr("runs not finished") : nullptr);
    if (s.fits[i].bracketed) curves.push_back(lr_parabola(s.fits[i], color));
    for (PlotCurve& c : curves) {
      with_rule(c, s.rule);
      PlotCurve drawn = styled(s, c);
      // Imported: the η* dot (one point, no legend row) is ringed as in the vs-learning-rate view; the parabola is
      // a plain dashed arc.
      if (s.set && c.label.empty()) drawn.marker = c.x.size() == 1 ? PlotMarker::circle : PlotMarker::none;
      out.push_back(std::move(drawn));
    }
  }
}

}  // namespace

int DepthSource::depths() const {
  std::set<int> d;
  for (const DepthRun& r : runs) d.insert(r.depth);
  return int(d.size());
}

std::string depth_loss_series(const Runner& runner) {
  return runner.members().front()->find_series("batch_loss_mean") ? "batch_loss_mean" : "train_loss";
}

std::vector<DepthSource> depth_sources(const Runner& runner, const std::vector<const ImportedSet*>& imports,
                                       const std::string& loss) {
  std::vector<DepthSource> out{page_source(runner, loss)};
  for (size_t k = 0; k < imports.size(); k++) out.push_back(imported_source(*imports[k], int(k), loss));
  return out;
}

std::vector<int> depth_record_steps(const std::vector<DepthSource>& sources) {
  for (const DepthSource& s : sources)
    if (!s.runs.empty() && !s.runs.front().steps->empty()) return *s.runs.front().steps;
  return {};
}

std::vector<PlotCurve> depth_quantity_curves(const std::vector<DepthSource>& sources, const DepthQuantity& q,
                                             int step) {
  std::vector<PlotCurve> out;
  for (const DepthSource& s : sources) quantity_curves(s, q, step, out);
  return out;
}

std::vector<PlotCurve> eta_depth_curves(const std::vector<DepthSource>& sources) {
  std::vector<PlotCurve> out;
  for (const DepthSource& s : sources) eta_curves(s, out);
  return out;
}

std::vector<PlotCurve> depth_lr_curves(const std::vector<DepthSource>& sources) {
  std::vector<PlotCurve> out;
  for (const DepthSource& s : sources) lr_curves_per_depth(s, out);
  return out;
}
