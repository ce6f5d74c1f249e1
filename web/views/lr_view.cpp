#include "web/views/lr_view.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "imgui.h"
#include "web/draw/drawn.hpp"
#include "web/draw/i18n.hpp"
#include "web/views/lr_curves.hpp"
#include "web/views/overlay.hpp"

namespace {

// A member's point on its net's curve: its final value once finished (+inf when it diverged or failed), and while it
// trains its last record after step 0 (the mean over the run so far, for batch_loss_mean), so that the figure forms as
// the sweep trains. `step`: the step of that record (0: nothing recorded yet).
struct SoFar {
  double value = INFINITY;
  int step = 0;
};

SoFar point_so_far(const Member& run, const std::string& series) {
  const Series* s = run.find_series(series);
  const std::vector<int>& steps = run.recorded_steps();
  if (!s || s->values.empty() || steps.size() < s->values.size()) return {};
  const double last = s->values.back();
  const int step = steps[s->values.size() - 1];
  const bool known = run.status() == RunStatus::finished || (run.status() == RunStatus::running && step > 0);
  return known ? SoFar{std::isfinite(last) ? last : INFINITY, step} : SoFar{};
}

// The page's curves: a curve per net and its η* dot. While a net's runs train, its curve holds their records so far
// and its legend says at which step.
std::vector<PlotCurve> page_lr_curves(const Runner& runner, const std::string& series) {
  std::vector<PlotCurve> curves;
  if (runner.spec().sweep.lr.size() < 2) return curves;
  std::vector<LrPoint> points;
  int earliest = runner.spec().schedule.steps;  // the least advanced running member's last record
  for (const auto& run : runner.members()) {
    const SoFar p = point_so_far(*run, series);
    points.push_back({run->width(), run->coords().lr, p.value, member_depth(runner.spec(), run->coords())});
    if (run->status() == RunStatus::running) earliest = std::min(earliest, p.step);
  }
  const std::string so_far = earliest > 0 ? trf("so far: step %d", earliest) : tr("runs not finished");
  const std::vector<LrCurve> found = lr_curves(points);
  for (size_t i = 0; i < found.size(); i++) {
    const char* training = net_training(runner, found[i]) ? so_far.c_str() : nullptr;
    for (PlotCurve& c : lr_width_curves(found[i], curve_color(int(i), int(found.size())), training))
      curves.push_back(c.label.empty() ? std::move(c) : as_series(std::move(c), int(i), int(found.size())));
  }
  return curves;
}

}  // namespace

LrPicture lr_picture(const Runner* runner, const std::vector<const ImportedSet*>& imports) {
  LrPicture p;
  if (!runner) return p;
  // The loss is the mean over the run (batch_loss_mean) when recorded, else the final train loss.
  const bool mean = runner->members().front()->find_series("batch_loss_mean") != nullptr;
  p.series = mean ? "batch_loss_mean" : "train_loss";
  p.curves = page_lr_curves(*runner, p.series);
  PageColours page;
  for (const PlotCurve& c : p.curves) page.emplace(c.key, c.color);  // key: the net's name, "n=32"
  for (PlotCurve& c : imported_lr_curves(imports, p.series, page)) p.curves.push_back(std::move(c));
  return p;
}

void lr_view(const Runner* runner, const std::vector<const ImportedSet*>& imports) {
  const LrPicture p = lr_picture(runner, imports);
  if (p.curves.empty()) {
    drawn_hint(tr("This view needs a sweep over learning rates (sweep.lr with 2 or more values)."));
    return;
  }
  line_plot("##lr", lr_loss_axes(p.series, tr("learning rate"), p.curves), p.curves, ImVec2(0, 0));
}
