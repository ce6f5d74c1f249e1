#include "web/lr_view.hpp"

#include <cmath>
#include <cstdio>

#include "engine/analysis/lr_transfer.hpp"
#include "imgui.h"
#include "web/overlay.hpp"

namespace {

// The page's curves: a curve per width and its η* marker (a dot: a one-point curve with no legend row).
std::vector<PlotCurve> page_lr_curves(const Runner& runner, const std::string& series) {
  std::vector<PlotCurve> curves;
  if (runner.spec().sweep.lr.size() < 2) return curves;
  const std::vector<LrCurve> found = lr_curves(runner, series);
  for (size_t i = 0; i < found.size(); i++) {
    const LrCurve& c = found[i];
    char label[96];
    if (c.grid_min >= 0 && std::isfinite(c.best_lr)) std::snprintf(label, sizeof label, "n=%d  eta*=%.3g", c.width, c.best_lr);
    else std::snprintf(label, sizeof label, "n=%d  no eta*: no finite loss at any lr", c.width);
    const ImU32 color = curve_color(int(i), int(found.size()));
    curves.push_back(solid_curve(label, c.lrs, c.losses, color));
    if (c.grid_min >= 0) curves.push_back(solid_curve("", {c.best_lr}, {c.best_loss}, color));
  }
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
    ImGui::TextDisabled("This view needs a sweep over learning rates (sweep.lr with 2 or more values).");
    return;
  }
  const bool mean = p.series == "batch_loss_mean";
  PlotAxes axes;
  axes.title = std::string(mean ? "mean train loss over the run" : "final train loss") + " vs learning rate (dot: eta*)";
  axes.x_label = "learning rate";
  axes.y_label = mean ? "mean train loss" : "train loss";
  axes.log_x = axes.log_y = true;
  line_plot("##lr", axes, p.curves, ImVec2(0, 0));
}
