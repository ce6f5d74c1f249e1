#include "web/views/lr_view.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "imgui.h"
#include "web/draw/drawn.hpp"
#include "web/draw/figure_text.hpp"
#include "web/draw/i18n.hpp"
#include "web/views/lr_curves.hpp"
#include "web/views/lr_text.hpp"
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
void page_lr_curves(const Runner& runner, LrPicture& p) {
  if (runner.spec().sweep.lr.size() < 2) return;
  const std::string& series = p.series;
  std::vector<LrPoint> points;
  int earliest = runner.spec().schedule.steps;  // the least advanced running member's last record
  for (const auto& run : runner.members()) {
    const SoFar known = point_so_far(*run, series);
    points.push_back({run->width(), run->coords().lr, known.value, member_depth(runner.spec(), run->coords())});
    if (run->status() == RunStatus::running) earliest = std::min(earliest, known.step);
  }
  const std::string so_far = earliest > 0 ? trf("so far: step %d", earliest) : tr("runs not finished");
  LrNets& page = p.page;
  page.nets = lr_curves(points);
  page.so_far_step = earliest;
  for (size_t i = 0; i < page.nets.size(); i++) {
    page.training.push_back(net_training(runner, page.nets[i]));
    const char* training = page.training.back() ? so_far.c_str() : nullptr;
    const int n = int(page.nets.size());
    for (PlotCurve& c : lr_width_curves(page.nets[i], curve_color(int(i), n), training))
      p.curves.push_back(c.label.empty() ? std::move(c) : as_series(std::move(c), int(i), n));
  }
}

}  // namespace

LrPicture lr_picture(const Runner* runner, const std::vector<const ImportedSet*>& imports) {
  LrPicture p;
  if (!runner) return p;
  // The loss is the mean over the run (batch_loss_mean) when recorded, else the final train loss.
  const bool mean = runner->members().front()->find_series("batch_loss_mean") != nullptr;
  p.series = mean ? "batch_loss_mean" : "train_loss";
  page_lr_curves(*runner, p);
  PageColours page;
  for (const PlotCurve& c : p.curves) page.emplace(c.key, c.color);  // key: the net's name, "n=32"
  for (PlotCurve& c : imported_lr_curves(imports, p.series, page)) p.curves.push_back(std::move(c));
  return p;
}

void lr_view(const Runner* runner, const std::vector<const ImportedSet*>& imports) {
  const LrPicture p = lr_picture(runner, imports);
  if (p.curves.empty()) {
    figure_hint(tr("This view needs a sweep over learning rates (sweep.lr with 2 or more values)."));
    return;
  }
  const PlotAxes axes = lr_loss_axes(p.series, tr("learning rate"), p.curves);
  line_plot("##lr", axes, p.curves, ImVec2(0, 0));
  figure_text_publish([&] { return lr_text(p.page, axes); });
}
