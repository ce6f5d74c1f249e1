#include "web/views/depth_view.hpp"

#include <algorithm>
#include <set>

#include "imgui.h"
#include "web/draw/drawn.hpp"
#include "web/draw/figure_text.hpp"
#include "web/draw/i18n.hpp"
#include "web/draw/semantics.hpp"
#include "web/draw/plot.hpp"
#include "web/draw/same_line.hpp"
#include "web/views/depth_curves.hpp"
#include "web/views/lr_curves.hpp"

namespace {

const char* const kLastStreamChange = "act_delta_rms: last stream (h_{L+1})";  // the coordinate check's quantity

// The chosen quantity when the runs record it, else the last stream's change, else the first.
const DepthQuantity& chosen(const std::vector<DepthQuantity>& quantities, const std::string& label) {
  for (const std::string& want : {label, std::string(kLastStreamChange)})
    for (const DepthQuantity& q : quantities)
      if (q.label == want) return q;
  return quantities.front();
}

void quantity_combo(DepthView& v, const std::vector<DepthQuantity>& quantities, const DepthQuantity& shown) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 20);
  std::vector<std::string> labels;
  for (const DepthQuantity& q : quantities) labels.push_back(q.label);
  if (const std::optional<std::string> given = semantics_combo(tr_label("quantity##depth"), shown.label, labels))
    v.quantity = *given;
  drawn_name_next(tr_label("quantity##depth"));
  if (ImGui::BeginCombo(tr_label("quantity##depth"), shown.shown.c_str())) {
    for (const DepthQuantity& q : quantities)
      if (ImGui::Selectable((q.shown + "###" + q.label).c_str(), q.label == shown.label)) v.quantity = q.label;
    ImGui::EndCombo();
  }
}

// The record slider; returns the step shown (-1 when nothing is recorded yet).
int record_slider(DepthView& v, const std::vector<int>& steps) {
  const int last = std::max(0, int(steps.size()) - 1);
  int record = v.record < 0 ? last : std::min(v.record, last);
  const int step = steps.empty() ? -1 : steps[size_t(record)];
  const std::string label = trf("step %d", std::max(0, step));
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
  if (const std::optional<double> given = semantics_slider(tr_label("record##depth"), record, 0, last, 1, label))
    v.record = int(*given);
  if (ImGui::SliderInt(tr_label("record##depth"), &record, 0, last, label.c_str())) v.record = record;
  drawn_item_value(tr_label("record##depth"), label);
  return step;
}

// The depths of the sources' runs: the x axis spans them from the start, before any record.
std::vector<double> swept_depths(const std::vector<DepthSource>& sources) {
  std::set<double> depths;
  for (const DepthSource& s : sources)
    for (const DepthRun& r : s.runs) depths.insert(r.depth);
  return {depths.begin(), depths.end()};
}

PlotAxes quantity_axes(const DepthQuantity& q, int step, const std::vector<PlotCurve>& curves, bool references,
                       const std::vector<double>& depths) {
  PlotAxes axes;
  axes.title = step >= 0 ? trf("%s at step %d vs depth L (geometric mean over seeds)", q.shown.c_str(), step)
                         : trf("%s vs depth L (geometric mean over seeds)", q.shown.c_str());
  axes.x_label = tr("depth L (residual blocks)");
  axes.y_label = q.shown;
  axes.log_x = axes.log_y = true;
  axes.x_ticks = TickRule::at_values;
  axes.x_extent = depths;
  axes.x_tick_values = curves.empty() ? depths : distinct_x(curves);
  axes.notes = {tr("slope: of log value vs log L (0: the same at every depth)")};
  if (!q.note.empty()) axes.notes.push_back(q.note);
  if (references) axes.references = {{0, "L^0"}, {0.5, "L^1/2"}, {-0.5, "L^-1/2"}, {1, "L^1"}};
  return axes;
}

void quantity_picture(DepthView& v, const std::vector<DepthSource>& sources) {
  const std::vector<DepthQuantity> quantities = depth_quantities(*sources.front().runs.front().series);
  if (quantities.empty()) {
    figure_hint(tr("This experiment records no series to draw against the depth."));
    return;
  }
  const DepthQuantity& q = chosen(quantities, v.quantity);
  quantity_combo(v, quantities, q);
  ImGui::SameLine();
  const int step = record_slider(v, depth_record_steps(sources));
  same_line_if_room(labelled_width(ImGui::GetFrameHeight(), tr_label("reference slopes##depth")));
  ImGui::Checkbox(tr_label("reference slopes##depth"), &v.references);
  const std::vector<PlotCurve> curves = step < 0 ? std::vector<PlotCurve>{} : depth_quantity_curves(sources, q, step);
  const PlotAxes axes = quantity_axes(q, step, curves, v.references, swept_depths(sources));
  line_plot("##depth", axes, curves, ImVec2(0, 0));
  figure_text_publish([&] { return plot_text(axes, curves, kDrawnCurvePoints); });
}

// The nets whose η* is ringed, "standard n=32 L=16, ...": named in a note, which wraps (a legend row does not).
std::string ringed_nets(const std::vector<PlotCurve>& curves) {
  const std::string tail = std::string(" eta* (") + tr(kGridEdgeFlag) + ")";
  std::string out;
  for (const PlotCurve& c : curves)
    if (dot_at_grid_edge(c)) out += (out.empty() ? "" : ", ") + c.name.substr(0, c.name.size() - tail.size());
  return out;
}

PlotAxes eta_axes(const std::vector<PlotCurve>& curves, const std::vector<double>& depths) {
  PlotAxes axes;
  axes.title = tr("eta* vs depth L (the parabolas' vertices, right)");
  axes.x_label = tr("depth L (residual blocks)");
  axes.y_label = "eta*";
  axes.log_x = axes.log_y = true;
  axes.x_ticks = TickRule::at_values;
  axes.x_extent = depths;
  axes.x_tick_values = curves.empty() ? depths : distinct_x(curves);
  axes.notes = {tr("slope: of log2 eta* vs log2 L (0: eta* transfers across depth)")};
  const std::string edges = ringed_nets(curves);
  if (!edges.empty())
    axes.notes.push_back(trf("ring: %s (%s): that depth's lowest loss is at the first or last lr of its grid, so its "
                             "eta* may lie beyond it: widen the grid.", tr(kGridEdgeFlag), edges.c_str()));
  return axes;
}

void eta_picture(const std::vector<DepthSource>& sources, const std::string& loss) {
  if (std::none_of(sources.begin(), sources.end(), [](const DepthSource& s) { return !s.fits.empty(); })) {
    figure_hint(tr("eta* against L needs a sweep over learning rates as well as depths (sweep.lr with 2 or more "
                  "values), here or in an imported result file."));
    return;
  }
  // Side by side, each the panel's full height: η* (few points, a legend row per rule and width) on the left, the
  // curves it comes from (a legend row per depth) on the right.
  const std::vector<PlotCurve> eta = eta_depth_curves(sources), losses = depth_lr_curves(sources);
  const float width = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x;
  const PlotAxes axes = eta_axes(eta, swept_depths(sources));
  line_plot("##eta depth", axes, eta, ImVec2(0.45f * width, 0));
  ImGui::SameLine();
  line_plot("##loss depth", lr_loss_axes(loss, tr("lr per depth"), losses), losses, ImVec2(0.55f * width, 0));
  figure_text_publish([&] { return plot_text(axes, eta, kDrawnCurvePoints); });  // η* per depth: the picture's point
}

}  // namespace

void depth_view(DepthView& v, const Runner& runner, const std::vector<const ImportedSet*>& imports) {
  const std::string loss = depth_loss_series(runner);
  const std::vector<DepthSource> sources = depth_sources(runner, imports, loss);
  if (std::none_of(sources.begin(), sources.end(), [](const DepthSource& s) { return s.depths() >= 2; })) {
    figure_hint(tr("This view needs a sweep over depths (sweep.depth with 2 or more values)."));
    return;
  }
  semantics_radio(tr_label("quantity vs L"), !v.eta);
  if (ImGui::RadioButton(tr_label("quantity vs L"), !v.eta)) v.eta = false;
  ImGui::SameLine();
  semantics_radio(tr_label("eta* vs L"), v.eta);
  if (ImGui::RadioButton(tr_label("eta* vs L"), v.eta)) v.eta = true;
  if (v.eta) eta_picture(sources, loss);
  else quantity_picture(v, sources);
}
