#include "web/views/overlay.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "engine/analysis/lr_transfer.hpp"
#include "web/draw/i18n.hpp"
#include "web/views/lr_curves.hpp"

namespace {

// The set's widths, ascending: imported curves are coloured by their width's place among them.
std::vector<int> widths_of(const ImportedSet& set) {
  std::set<int> widths;
  for (const ImportedRun& run : set.runs) widths.insert(run.width);
  return {widths.begin(), widths.end()};
}

ImU32 width_color(const std::vector<int>& widths, int width) {
  const auto at = std::lower_bound(widths.begin(), widths.end(), width);
  return imported_color(int(at - widths.begin()), int(widths.size()));
}

// The final value of `series`, +inf when the run did not finish (as engine/analysis/lr_transfer.cpp counts it).
double final_value(const ImportedRun& run, const std::string& series) {
  const Series* s = run.find_series(series);
  if (run.status != run_status_name(RunStatus::finished) || !s || s->values.empty() || !std::isfinite(s->values.back())) return INFINITY;
  return s->values.back();
}

bool recorded(const ImportedSet& set, const std::string& series) {
  return std::any_of(set.runs.begin(), set.runs.end(), [&](const ImportedRun& r) { return r.find_series(series); });
}

size_t distinct_lrs(const ImportedSet& set) {
  std::set<double> lrs;
  for (const ImportedRun& run : set.runs) lrs.insert(run.lr);
  return lrs.size();
}

// The place of `lr` among the set's learning rates, ascending: its shade.
int lr_index(const ImportedSet& set, double lr) {
  std::set<double> lrs;
  for (const ImportedRun& run : set.runs) lrs.insert(run.lr);
  return int(std::distance(lrs.begin(), lrs.find(lr)));
}

size_t distinct_seeds(const ImportedSet& set) {
  std::set<double> seeds;
  for (const ImportedRun& run : set.runs) seeds.insert(double(run.seed));
  return seeds.size();
}

// An imported run in the legend as the page's members are (web/views/step_view.hpp): a row per width, one per learning rate
// when the set swept several, its seeds thin.
void sweep_rows(PlotCurve& c, const ImportedSet& set, const ImportedRun& run) {
  char lr[48];
  std::snprintf(lr, sizeof lr, "lr=%g", run.lr);
  c.color_row = "n=" + std::to_string(run.width);
  if (distinct_lrs(set) > 1) c.shade_row = lr;
  c.thin = distinct_seeds(set) > 1;
}

}  // namespace

std::vector<LrCurve> imported_lr_fits(const ImportedSet& set, const std::string& series) {
  if (distinct_lrs(set) < 2 || !recorded(set, series)) return {};
  std::vector<LrPoint> points;
  for (const ImportedRun& run : set.runs) points.push_back({run.width, run.lr, final_value(run, series), run.depth});
  return lr_curves(points);
}

std::vector<const ImportedSet*> drawn_sets(const std::vector<ImportedSet>& sets, const ExperimentSpec& spec) {
  std::vector<const ImportedSet*> out;
  for (const ImportedSet& set : sets)
    if (overlay_mismatch(set, spec).empty()) out.push_back(&set);
  return out;
}

PlotCurve imported_curve(const ImportedSet& set, int set_index, std::string label) {
  PlotCurve c;
  c.label = std::move(label);
  c.dash = LineDash::dashed;
  c.marker = imported_marker(set_index);
  c.hollow = true;
  c.group = set.name;
  return c;
}

PlotCurve in_imported_style(const PlotCurve& page_style, const ImportedSet& set, int set_index) {
  PlotCurve curve = imported_curve(set, set_index, page_style.label);
  curve.x = page_style.x;
  curve.y = page_style.y;
  curve.color = page_style.color;
  curve.key = page_style.key;
  curve.name = page_style.name;
  return curve;
}

PlotMarker imported_marker(int index) {
  static const PlotMarker shapes[] = {PlotMarker::square, PlotMarker::diamond, PlotMarker::triangle, PlotMarker::circle};
  return shapes[size_t(index) % (sizeof shapes / sizeof shapes[0])];
}

std::vector<PlotCurve> imported_step_curves(const std::vector<const ImportedSet*>& sets, const std::string& metric,
                                            const PageColours& page) {
  std::vector<PlotCurve> out;
  for (size_t k = 0; k < sets.size(); k++) {
    const ImportedSet& set = *sets[k];
    const std::vector<int> widths = widths_of(set);
    for (const ImportedRun& run : set.runs) {
      const Series* s = run.find_series(metric);
      if (!s) continue;
      const bool diverged = run.status == run_status_name(RunStatus::diverged);
      PlotCurve c = imported_curve(set, int(k), diverged ? trf("%s (diverged)", run.label.c_str()) : run.label);
      c.x.assign(run.recorded_steps.begin(), run.recorded_steps.begin() + long(std::min(s->values.size(), run.recorded_steps.size())));
      c.y.assign(s->values.begin(), s->values.begin() + long(c.x.size()));
      const auto on_page = page.find("n=" + std::to_string(run.width));
      const ImU32 base = on_page != page.end() ? on_page->second : width_color(widths, run.width);
      c.color = shade_color(base, lr_index(set, run.lr), int(distinct_lrs(set)));
      c.diverged = diverged;
      sweep_rows(c, set, run);
      out.push_back(std::move(c));
    }
  }
  return out;
}

std::vector<PlotCurve> imported_lr_curves(const std::vector<const ImportedSet*>& sets, const std::string& series,
                                          const PageColours& page) {
  std::vector<PlotCurve> out;
  for (size_t k = 0; k < sets.size(); k++) {
    const std::vector<LrCurve> curves = imported_lr_fits(*sets[k], series);
    for (size_t i = 0; i < curves.size(); i++) {
      const auto on_page = page.find(lr_net_name(curves[i]));
      const ImU32 colour = on_page != page.end() ? on_page->second : imported_color(int(i), int(curves.size()));
      for (const PlotCurve& page_style : lr_width_curves(curves[i], colour)) {
        PlotCurve curve = in_imported_style(page_style, *sets[k], int(k));
        if (page_style.label.empty()) curve.marker = PlotMarker::circle;  // the η* dot
        out.push_back(std::move(curve));
      }
    }
  }
  return out;
}
