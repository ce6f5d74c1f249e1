#include "web/views/width_view.hpp"

#include <algorithm>
#include <set>
#include <cmath>
#include <cstdio>

#include "imgui.h"
#include "web/draw/drawn.hpp"
#include "web/draw/figure_text.hpp"
#include "web/draw/i18n.hpp"
#include "web/draw/semantics.hpp"
#include "web/draw/loglog_curve.hpp"
#include "web/draw/plot.hpp"
#include "web/draw/same_line.hpp"
#include "web/views/overlay.hpp"
#include "web/views/width_text.hpp"

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

// One series at one record over the runs with the first learning rate of the sweep.
PlotCurve curve_vs_width(const Runner& runner, const std::string& name, int record) {
  std::vector<std::pair<int, double>> points;
  const double lr = runner.members().front()->coords().lr;
  for (const auto& run : runner.members()) {
    const Series* s = run->find_series(name);
    if (s && run->coords().lr == lr && record < int(s->values.size())) points.emplace_back(run->width(), s->values[size_t(record)]);
  }
  PlotCurve c = geometric_mean_by_size(points);
  c.label = slope_label(name, c, translatable("width"));
  c.key = name;  // the slope in the label changes with the record; the row that hides the layer does not
  return c;
}

// The steps the record slider walks: the page's recorded steps, or the first imported set's while the page has none.
std::vector<int> record_steps(const Runner& runner, const std::vector<const ImportedSet*>& imports) {
  const std::vector<int>& page = runner.members().front()->recorded_steps();
  if (!page.empty() || imports.empty() || imports.front()->runs.empty()) return page;
  return imports.front()->runs.front().recorded_steps;
}

std::string width_range(const std::vector<double>& x) {
  if (x.empty()) return "";
  char buf[48];
  std::snprintf(buf, sizeof buf, x.size() == 1 ? "%.0f" : "%.0f-%.0f", x.front(), x.back());
  return buf;
}

// A run's index of recorded step `step`, or -1.
int record_at(const ImportedRun& run, int step) {
  const auto it = std::find(run.recorded_steps.begin(), run.recorded_steps.end(), step);
  return it == run.recorded_steps.end() ? -1 : int(it - run.recorded_steps.begin());
}

// An imported set's curve of `series` at recorded step `step` against the width, the geometric mean over seeds as for
// the page's runs, over its runs with learning rate `lr`, or its first learning rate when none has `lr`. The label is
// the series name, its fitted slope, and the learning rate when it is not `lr`.
PlotCurve imported_width_curve(const ImportedSet& set, int set_index, const std::string& series, int step, double lr) {
  const bool has_lr = std::any_of(set.runs.begin(), set.runs.end(), [&](const ImportedRun& r) { return r.lr == lr; });
  const double use_lr = has_lr || set.runs.empty() ? lr : set.runs.front().lr;
  std::vector<std::pair<int, double>> points;
  for (const ImportedRun& run : set.runs) {
    const Series* s = run.find_series(series);
    const int record = record_at(run, step);
    if (run.lr == use_lr && s && record >= 0 && record < int(s->values.size())) points.emplace_back(run.width, s->values[size_t(record)]);
  }
  PlotCurve c = geometric_mean_by_size(points);
  char other_lr[48] = "";  // the reader must know when the imported points are at another learning rate
  if (use_lr != lr) std::snprintf(other_lr, sizeof other_lr, "  (lr=%g)", use_lr);
  PlotCurve styled = imported_curve(set, set_index, slope_label(series, c, translatable("width")) + other_lr);
  styled.key = series;
  styled.x = std::move(c.x);
  styled.y = std::move(c.y);
  return styled;
}

WidthSlopes slopes_row(const PlotCurve& page, const PlotCurve& imported, const std::string& series) {
  WidthSlopes row;
  row.series = series;
  row.source = imported.group;
  row.page = fitted_slope(page.x, page.y);
  row.imported = fitted_slope(imported.x, imported.y);
  std::vector<double> x = page.x, y = page.y;
  x.insert(x.end(), imported.x.begin(), imported.x.end());
  y.insert(y.end(), imported.y.begin(), imported.y.end());
  row.together = fitted_slope(x, y);
  row.page_widths = width_range(page.x);
  row.imported_widths = width_range(imported.x);
  return row;
}

void slope_cell(double slope, const std::string& widths) {
  ImGui::TableNextColumn();
  if (std::isnan(slope)) ImGui::TextDisabled("-");
  else if (widths.empty()) ImGui::Text("%+.3f", slope);
  else ImGui::Text("%+.3f  (n=%s)", slope, widths.c_str());
}

// The three slopes of each series for one imported set, under the set's name: how far the page's exponent carries
// to the imported widths.
void slopes_table(const std::vector<WidthSlopes>& rows, const std::string& source) {
  if (std::none_of(rows.begin(), rows.end(), [&](const WidthSlopes& r) { return r.source == source; })) return;
  ImGui::TextDisabled(tr("fitted slopes, %s:"), source.c_str());
  if (!ImGui::BeginTable(source.c_str(), 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
  for (const char* h : {tr("series"), tr("this page"), tr("imported"), tr("both together")}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (const WidthSlopes& r : rows) {
    if (r.source != source) continue;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.series.c_str());
    slope_cell(r.page, r.page_widths);
    slope_cell(r.imported, r.imported_widths);
    slope_cell(r.together, "");
  }
  ImGui::EndTable();
}

// The slopes tables' height: a heading line and a header row per set that has rows, a row per series.
float slopes_height(const std::vector<WidthSlopes>& rows) {
  std::vector<std::string> sources;
  for (const WidthSlopes& r : rows)
    if (std::find(sources.begin(), sources.end(), r.source) == sources.end()) sources.push_back(r.source);
  return ImGui::GetTextLineHeightWithSpacing() * float(rows.size() + 2 * sources.size()) + 4;
}

// Log-log axes with a tick at each width drawn, and the exponents a coordinate check tells apart as reference lines
// (after one step, μP: n^0 for every layer's change; SP: n^-1/2 for h1, n^+1/2 for h2).
PlotAxes width_axes(const std::string& quantity, int step, const std::vector<PlotCurve>& curves, bool references,
                    const Runner& runner) {
  PlotAxes axes;
  axes.title = step >= 0 ? trf("%s at step %d vs width (geometric mean over seeds)", quantity.c_str(), step)
                         : trf("%s vs width (geometric mean over seeds)", quantity.c_str());
  axes.x_label = tr("width n");
  axes.y_label = quantity;
  axes.log_x = axes.log_y = true;
  axes.x_ticks = TickRule::at_values;
  std::set<double> widths;  // the sweep's, on the axis from the start
  for (const auto& member : runner.members()) widths.insert(member->width());
  axes.x_extent.assign(widths.begin(), widths.end());
  axes.x_tick_values = curves.empty() ? axes.x_extent : distinct_x(curves);
  if (references) axes.references = {{0, "n^0"}, {0.5, "n^1/2"}, {-0.5, "n^-1/2"}, {1, "n^1"}};
  return axes;
}

}  // namespace

std::vector<PlotCurve> width_curves(const Runner& runner, const std::string& family, int record) {
  std::vector<PlotCurve> curves;
  if (runner.members().empty()) return curves;
  for (const Series& s : runner.members().front()->series())
    if (s.name.substr(0, s.name.find('/')) == family) curves.push_back(curve_vs_width(runner, s.name, record));
  for (size_t i = 0; i < curves.size(); i++) curves[i] = as_series(std::move(curves[i]), int(i), int(curves.size()));
  return curves;
}

WidthPicture width_picture(const Runner& runner, const std::vector<const ImportedSet*>& imports,
                           const std::string& family, int record) {
  WidthPicture p;
  p.quantity = family;
  if (runner.members().empty()) return p;
  const std::vector<int> steps = record_steps(runner, imports);
  if (record < 0 || record >= int(steps.size())) return p;  // nothing recorded yet: the plot says "press Run"
  p.step = steps[size_t(record)];
  p.curves = width_curves(runner, family, record);
  const size_t page_count = p.curves.size();
  const double lr = runner.members().front()->coords().lr;
  for (size_t k = 0; k < imports.size(); k++)
    for (size_t i = 0; i < page_count; i++) {
      const std::string series = p.curves[i].key;  // the series name (the label holds its slope too)
      PlotCurve c = imported_width_curve(*imports[k], int(k), series, p.step, lr);
      if (c.x.empty()) continue;  // the set did not record this series at this step
      c.color = p.curves[i].color;  // the same layer in the same colour: the eye follows it across the widths
      p.slopes.push_back(slopes_row(p.curves[i], c, series));
      p.curves.push_back(std::move(c));
    }
  return p;
}

void width_view(WidthView& v, const Runner& runner, const std::vector<const ImportedSet*>& imports, double imports_revision) {
  if (runner.members().empty()) return;
  const std::vector<std::string> names = families(*runner.members().front());
  if (names.empty()) {
    figure_hint(tr("This experiment records no series to draw against the width."));
    return;
  }
  // The chosen family when this run records it, else the coordinate check's quantity when there is one: an MLP's
  // act_delta_rms, a Transformer's transformer_coords.
  auto family = std::find(names.begin(), names.end(), v.family);
  for (const char* check : {"act_delta_rms", "transformer_coords"})
    if (family == names.end()) family = std::find(names.begin(), names.end(), check);
  const std::string& quantity = family == names.end() ? names.front() : *family;
  const int records = int(record_steps(runner, imports).size());
  int record = std::clamp(v.record, 0, std::max(0, records - 1));

  ImGui::SetNextItemWidth(200);
  if (const std::optional<std::string> given = semantics_combo(tr_label("quantity"), quantity, names)) v.family = *given;
  drawn_name_next(tr_label("quantity"));
  if (ImGui::BeginCombo(tr_label("quantity"), quantity.c_str())) {
    for (const std::string& name : names)
      if (ImGui::Selectable(name.c_str(), name == quantity)) v.family = name;
    ImGui::EndCombo();
  }
  if (v.curves_at != runner.state_revision() || v.curves_family != quantity || v.curves_record != record ||
      v.curves_imports != imports_revision || v.curves_language != page_language_changes()) {
    v.picture = width_picture(runner, imports, quantity, record);
    v.curves_at = runner.state_revision();
    v.curves_family = quantity;
    v.curves_record = record;
    v.curves_imports = imports_revision;
    v.curves_language = page_language_changes();
  }
  same_line_if_room(labelled_width(200, tr_label("record")));
  ImGui::SetNextItemWidth(200);
  const std::string step_label = trf("step %d", v.picture.step);
  if (const std::optional<double> given =
          semantics_slider(tr_label("record"), record, 0, std::max(0, records - 1), 1, step_label))
    v.record = int(*given);
  if (ImGui::SliderInt(tr_label("record"), &record, 0, std::max(0, records - 1), step_label.c_str())) v.record = record;
  same_line_if_room(labelled_width(ImGui::GetFrameHeight(), tr_label("reference slopes")));
  ImGui::Checkbox(tr_label("reference slopes"), &v.references);

  PlotAxes axes = width_axes(quantity, records ? v.picture.step : -1, v.picture.curves, v.references, runner);
  const std::vector<WidthSlopes>& slopes = v.picture.slopes;
  const float tables_height = slopes.empty() ? 0 : slopes_height(slopes);
  line_plot("##width", axes, v.picture.curves, ImVec2(0, std::max(200.0f, ImGui::GetContentRegionAvail().y - tables_height)));
  figure_text_publish([&] { return width_text(axes, v.picture.curves); });
  for (const ImportedSet* set : imports) slopes_table(slopes, set->name);
}
