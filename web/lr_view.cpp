#include "web/lr_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "imgui.h"
#include "web/drawn.hpp"
#include "web/lr_curves.hpp"
#include "web/overlay.hpp"

namespace {

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
    drawn_hint("This view needs a sweep over learning rates (sweep.lr with 2 or more values).");
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
  if (std::any_of(p.curves.begin(), p.curves.end(), dot_at_grid_edge))
    axes.notes.push_back(std::string(kGridEdgeFlag) + ": the lowest loss is at the first or last lr of the grid, so eta* "
                         "may lie beyond it: widen the grid.");
  line_plot("##lr", axes, p.curves, ImVec2(0, 0));
}
