#include "web/lr_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "imgui.h"
#include "web/overlay.hpp"

namespace {

constexpr const char* kEdgeFlag = "at grid edge";

// A dot of a minimum at the grid's edge (eta_dot_name names it so), page's or imported.
bool flagged(const PlotCurve& c) {
  const std::string tail = std::string(" (") + kEdgeFlag + ")";
  return c.name.size() >= tail.size() && c.name.compare(c.name.size() - tail.size(), tail.size(), tail) == 0;
}

// How η* was found, for the dot's hover name.
std::string eta_dot_name(const LrCurve& c) {
  const std::string width = "n=" + std::to_string(c.width) + " eta*";
  if (at_grid_edge(c)) return width + " (" + kEdgeFlag + ")";
  return width + (c.bracketed ? " (parabola vertex)" : " (grid minimum)");
}

// The page's curves: a curve per width and its η* dot.
std::vector<PlotCurve> page_lr_curves(const Runner& runner, const std::string& series) {
  std::vector<PlotCurve> curves;
  if (runner.spec().sweep.lr.size() < 2) return curves;
  const std::vector<LrCurve> found = lr_curves(runner, series);
  for (size_t i = 0; i < found.size(); i++)
    for (PlotCurve& c : lr_width_curves(found[i], curve_color(int(i), int(found.size()))))
      curves.push_back(std::move(c));
  return curves;
}

}  // namespace

bool at_grid_edge(const LrCurve& c) {
  return c.grid_min >= 0 && (c.grid_min == 0 || c.grid_min + 1 == int(c.lrs.size()));
}

std::vector<PlotCurve> lr_width_curves(const LrCurve& c, ImU32 color) {
  const std::string width = "n=" + std::to_string(c.width);
  char label[128];
  if (c.grid_min >= 0 && std::isfinite(c.best_lr))
    std::snprintf(label, sizeof label, "%s  eta*=%.3g%s%s", width.c_str(), c.best_lr, at_grid_edge(c) ? " " : "",
                  at_grid_edge(c) ? kEdgeFlag : "");
  else std::snprintf(label, sizeof label, "%s  no eta*: no finite loss at any lr", width.c_str());
  std::vector<PlotCurve> out{solid_curve(label, c.lrs, c.losses, color)};
  out[0].key = width;
  out[0].name = width;
  if (c.grid_min < 0) return out;
  PlotCurve dot = solid_curve("", {c.best_lr}, {c.best_loss}, color);  // no legend row: it hides with its curve
  dot.key = width;
  dot.name = eta_dot_name(c);
  out.push_back(std::move(dot));
  return out;
}

LrPicture lr_picture(const App& app) {
  LrPicture p;
  if (!app.runner) return p;
  // The loss is the mean over the run (batch_loss_mean) when recorded, else the final train loss.
  const bool mean = app.runner->members().front()->find_series("batch_loss_mean") != nullptr;
  p.series = mean ? "batch_loss_mean" : "train_loss";
  p.curves = page_lr_curves(*app.runner, p.series);
  for (PlotCurve& c : imported_lr_curves(drawn_imports(app), p.series)) p.curves.push_back(std::move(c));
  return p;
}

void lr_view(const App& app) {
  const LrPicture p = lr_picture(app);
  if (p.curves.empty()) {
    ImGui::TextDisabled("This view needs a sweep over learning rates (sweep.lr with 2 or more values).");
    return;
  }
  const bool mean = p.series == "batch_loss_mean";
  PlotAxes axes;
  axes.title = std::string(mean ? "mean train loss over the run" : "final train loss") + " vs learning rate (dot: eta*)";
  axes.x_label = "learning rate";
  axes.y_label = mean ? "mean train loss" : "train loss";
  axes.log_x = axes.log_y = true;
  axes.x_ticks = TickRule::powers_of_two;
  axes.notes = {"dot: eta* = vertex of a parabola in log2(lr) through the lowest loss and its two neighbours: "
                "it can lie off the curve."};
  if (std::any_of(p.curves.begin(), p.curves.end(), flagged))
    axes.notes.push_back(std::string(kEdgeFlag) + ": the lowest loss is at the first or last lr of the grid, so eta* "
                         "may lie beyond it: widen the grid.");
  line_plot("##lr", axes, p.curves, ImVec2(0, 0));
}
