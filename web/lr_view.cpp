#include "web/lr_view.hpp"

#include <utility>

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
    for (PlotCurve& c : lr_width_curves(found[i], curve_color(int(i), int(found.size())), net_training(runner, found[i])))
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
  line_plot("##lr", lr_loss_axes(p.series, "learning rate", p.curves), p.curves, ImVec2(0, 0));
}
