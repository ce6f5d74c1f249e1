#include "web/overlay.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "engine/analysis/lr_transfer.hpp"

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

// As for the page's runs (engine/analysis/lr_transfer.hpp): (width, lr) → mean over seeds, η* fitted.
std::vector<LrCurve> lr_curves_of(const ImportedSet& set, const std::string& series) {
  std::vector<LrPoint> points;
  for (const ImportedRun& run : set.runs) points.push_back({run.width, run.lr, final_value(run, series)});
  return lr_curves(points);
}

}  // namespace

std::vector<const ImportedSet*> drawn_sets(const std::vector<ImportedSet>& sets, const ExperimentSpec& spec) {
  std::vector<const ImportedSet*> out;
  for (const ImportedSet& set : sets)
    if (overlay_mismatch(set, spec).empty()) out.push_back(&set);
  return out;
}

PlotCurve imported_curve(const ImportedSet& set, int set_index, std::string label) {
  PlotCurve c;
  c.label = std::move(label);
  c.dashed = true;
  c.marker = imported_marker(set_index);
  c.group = set.name;
  return c;
}

PlotMarker imported_marker(int index) {
  static const PlotMarker shapes[] = {PlotMarker::square, PlotMarker::diamond, PlotMarker::triangle, PlotMarker::circle};
  return shapes[size_t(index) % (sizeof shapes / sizeof shapes[0])];
}

std::vector<PlotCurve> imported_step_curves(const std::vector<const ImportedSet*>& sets, const std::string& metric) {
  std::vector<PlotCurve> out;
  for (size_t k = 0; k < sets.size(); k++) {
    const ImportedSet& set = *sets[k];
    const std::vector<int> widths = widths_of(set);
    for (const ImportedRun& run : set.runs) {
      const Series* s = run.find_series(metric);
      if (!s) continue;
      PlotCurve c = imported_curve(set, int(k), run.label + (run.status == run_status_name(RunStatus::diverged) ? " (diverged)" : ""));
      c.x.assign(run.recorded_steps.begin(), run.recorded_steps.begin() + long(std::min(s->values.size(), run.recorded_steps.size())));
      c.y.assign(s->values.begin(), s->values.begin() + long(c.x.size()));
      c.color = width_color(widths, run.width);
      c.diverged = run.status == run_status_name(RunStatus::diverged);
      out.push_back(std::move(c));
    }
  }
  return out;
}

std::vector<PlotCurve> imported_lr_curves(const std::vector<const ImportedSet*>& sets, const std::string& series) {
  std::vector<PlotCurve> out;
  for (size_t k = 0; k < sets.size(); k++) {
    if (distinct_lrs(*sets[k]) < 2 || !recorded(*sets[k], series)) continue;
    const std::vector<LrCurve> curves = lr_curves_of(*sets[k], series);
    for (size_t i = 0; i < curves.size(); i++) {
      const LrCurve& c = curves[i];
      char label[96];
      if (c.grid_min >= 0 && std::isfinite(c.best_lr)) std::snprintf(label, sizeof label, "n=%d  eta*=%.3g", c.width, c.best_lr);
      else std::snprintf(label, sizeof label, "n=%d  no eta*: no finite loss at any lr", c.width);
      PlotCurve curve = imported_curve(*sets[k], int(k), label);
      curve.x = c.lrs;
      curve.y = c.losses;
      curve.color = imported_color(int(i), int(curves.size()));
      out.push_back(curve);
      if (c.grid_min < 0) continue;
      PlotCurve best = imported_curve(*sets[k], int(k), "");  // the η* marker: no legend row
      best.x = {c.best_lr};
      best.y = {c.best_loss};
      best.color = curve.color;
      best.marker = PlotMarker::circle;
      out.push_back(best);
    }
  }
  return out;
}
