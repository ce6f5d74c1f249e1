#include "web/width_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "engine/analysis/analysis.hpp"
#include "imgui.h"
#include "web/plot.hpp"

namespace {

// Series families with one series per layer ("act_rms/h1", "act_rms/h2", ..., "act_rms/f"), and plain series.
std::vector<std::string> families(const Member& run) {
  std::vector<std::string> out;
  for (const Series& s : run.series()) {
    const std::string family = s.name.substr(0, s.name.find('/'));
    if (std::find(out.begin(), out.end(), family) == out.end()) out.push_back(family);
  }
  return out;
}

// Geometric mean over seeds (the mean of log y, which is what a log-log fit sees) per width, for one series at
// one record, over the runs with the first learning rate of the sweep.
PlotCurve curve_vs_width(const Runner& runner, const std::string& name, int record) {
  std::map<int, std::pair<double, int>> log_sum;  // width → (Σ log y, count)
  const double lr = runner.members().front()->coords().lr;
  for (const auto& run : runner.members()) {
    const Series* s = run->find_series(name);
    if (!s || run->coords().lr != lr || record >= int(s->values.size())) continue;
    const double y = s->values[size_t(record)];
    if (!(y > 0) || !std::isfinite(y)) continue;
    auto& acc = log_sum[run->width()];
    acc.first += std::log(y);
    acc.second += 1;
  }
  PlotCurve c;
  for (const auto& [width, acc] : log_sum) {
    c.x.push_back(width);
    c.y.push_back(std::exp(acc.first / acc.second));
  }
  char label[160];
  std::snprintf(label, sizeof label, "%s  slope %+.2f", name.c_str(), c.x.size() >= 2 ? loglog_slope(c.x, c.y) : NAN);
  c.label = label;
  return c;
}

}  // namespace

std::vector<PlotCurve> width_curves(const Runner& runner, const std::string& family, int record) {
  std::vector<PlotCurve> curves;
  if (runner.members().empty()) return curves;
  for (const Series& s : runner.members().front()->series())
    if (s.name.substr(0, s.name.find('/')) == family) curves.push_back(curve_vs_width(runner, s.name, record));
  for (size_t i = 0; i < curves.size(); i++) curves[i].color = curve_color(int(i), int(curves.size()));
  return curves;
}

void width_view(WidthView& v, const Runner& runner) {
  if (runner.members().empty()) return;
  const Member& first = *runner.members().front();
  const std::vector<std::string> names = families(first);
  if (v.family < 0) {  // the coordinate check's quantity when there is one
    const auto it = std::find(names.begin(), names.end(), "act_delta_rms");
    v.family = it == names.end() ? 0 : int(it - names.begin());
  }
  v.family = std::clamp(v.family, 0, int(names.size()) - 1);
  const int records = int(first.recorded_steps().size());
  v.record = std::clamp(v.record, 0, std::max(0, records - 1));

  ImGui::SetNextItemWidth(200);
  if (ImGui::BeginCombo("quantity", names[size_t(v.family)].c_str())) {
    for (int i = 0; i < int(names.size()); i++)
      if (ImGui::Selectable(names[size_t(i)].c_str(), i == v.family)) v.family = i;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(200);
  const int step = records ? first.recorded_steps()[size_t(v.record)] : 0;
  char step_label[32];
  std::snprintf(step_label, sizeof step_label, "step %d", step);
  ImGui::SliderInt("record", &v.record, 0, std::max(0, records - 1), step_label);

  if (v.curves_at != runner.total_steps() || v.curves_family != v.family || v.curves_record != v.record) {
    v.curves = width_curves(runner, names[size_t(v.family)], v.record);
    v.curves_at = runner.total_steps();
    v.curves_family = v.family;
    v.curves_record = v.record;
  }
  const std::vector<PlotCurve>& curves = v.curves;
  PlotAxes axes;
  axes.title = names[size_t(v.family)] + " at step " + std::to_string(step) + " vs width (geometric mean over seeds)";
  axes.x_label = "width n";
  axes.y_label = names[size_t(v.family)];
  axes.log_x = axes.log_y = true;
  line_plot("##width", axes, curves, ImVec2(0, 0));
}
