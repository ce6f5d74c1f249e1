#include "web/step_view.hpp"

#include "web/overlay.hpp"

std::vector<std::string> metric_names(const App& app) {
  std::vector<std::string> out;
  if (app.runner && !app.runner->members().empty())
    for (const Series& s : app.runner->members()[0]->series()) out.push_back(s.name);
  return out;
}

std::vector<PlotCurve> step_curves(const App& app, const std::string& metric) {
  std::vector<PlotCurve> out;
  if (!app.runner) return out;
  const auto& runs = app.runner->members();
  for (size_t i = 0; i < runs.size(); i++) {
    const Member& run = *runs[i];
    const Series* s = run.find_series(metric);
    if (!s) continue;
    PlotCurve c;
    c.label = run.label() + (run.status() == RunStatus::diverged ? " (diverged at " + std::to_string(run.diverged_at()) + ")" : "") +
              (run.status() == RunStatus::failed ? " (failed)" : "");
    c.x.assign(run.recorded_steps().begin(), run.recorded_steps().begin() + long(s->values.size()));
    c.y = s->values;
    c.color = curve_color(int(i), int(runs.size()));
    c.diverged = run.status() == RunStatus::diverged;
    out.push_back(std::move(c));
  }
  for (PlotCurve& c : imported_step_curves(drawn_imports(app), metric)) out.push_back(std::move(c));
  return out;
}
