#include "web/views/lr_curves.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "web/draw/i18n.hpp"

namespace {

// How η* was found, for the dot's hover name.
std::string eta_dot_name(const LrCurve& c) {
  const std::string width = lr_net_name(c) + " eta*";
  if (at_grid_edge(c)) return width + " (" + tr(kGridEdgeFlag) + ")";
  return width + " (" + (c.bracketed ? tr("parabola vertex") : tr("grid minimum")) + ")";
}

// The parabola's points drawn between η*'s two grid neighbours: enough for a smooth arc on a log axis.
constexpr int kParabolaPoints = 33;

}  // namespace

const char* const kGridEdgeFlag = translatable("at grid edge");

bool dot_at_grid_edge(const PlotCurve& c) {
  const std::string tail = std::string(" (") + tr(kGridEdgeFlag) + ")";
  return c.name.size() >= tail.size() && c.name.compare(c.name.size() - tail.size(), tail.size(), tail) == 0;
}

bool at_grid_edge(const LrCurve& c) {
  return c.grid_min >= 0 && (c.grid_min == 0 || c.grid_min + 1 == int(c.lrs.size()));
}

std::string lr_net_name(const LrCurve& c) {
  return "n=" + std::to_string(c.width) + (c.depth > 0 ? " L=" + std::to_string(c.depth) : "");
}

std::vector<PlotCurve> lr_width_curves(const LrCurve& c, ImU32 color, const char* training) {
  const std::string width = lr_net_name(c);
  char label[128];
  // While some of its runs train, η* is shown only once the grid minimum (of the values known so far) has a neighbour
  // on each side, and says that it may still move; a run with nothing recorded yet counts as an infinite loss, which
  // would put a premature η* at the grid's edge.
  if (training && !c.bracketed) {
    std::snprintf(label, sizeof label, "%s  eta*: - (%s)", width.c_str(), training);
    std::vector<PlotCurve> out{solid_curve(label, c.lrs, c.losses, color)};
    out[0].key = out[0].name = width;
    return out;
  }
  // η* as the presets' descriptions and the grid's ticks write it, 2^-0.50, and as a decimal.
  std::string text;
  if (c.grid_min >= 0 && std::isfinite(c.best_lr)) {
    std::snprintf(label, sizeof label, "%s  eta*=2^%.2f (%.3g)", width.c_str(), std::log2(c.best_lr), c.best_lr);
    text = label + (at_grid_edge(c) ? std::string(" ") + tr(kGridEdgeFlag) : "");
  } else {
    text = trf("%s  no eta*: no finite loss at any lr", width.c_str());
  }
  if (training) text += std::string(" (") + training + ")";
  std::vector<PlotCurve> out{solid_curve(text, c.lrs, c.losses, color)};
  out[0].key = width;
  out[0].name = width;
  if (c.grid_min < 0) return out;
  PlotCurve dot = solid_curve("", {c.best_lr}, {c.best_loss}, color);  // no legend row: it hides with its curve
  dot.key = width;
  dot.name = eta_dot_name(c);
  out.push_back(std::move(dot));
  return out;
}

bool net_training(const Runner& runner, const LrCurve& c) {
  for (const auto& run : runner.members())
    if (run->status() == RunStatus::running && run->width() == c.width &&
        member_depth(runner.spec(), run->coords()) == c.depth)
      return true;
  return false;
}

PlotCurve lr_parabola(const LrCurve& c, ImU32 color) {
  // No legend row (it hides with its curve); the lighter of two shades of its colour (40% toward white), so it stands
  // apart from the curve it overlays near η*.
  PlotCurve arc = solid_curve("", {}, {}, shade_color(color, 1, 2));
  arc.key = lr_net_name(c);
  arc.name = trf("%s parabola", arc.key.c_str());
  if (!c.bracketed) return arc;
  const size_t i = size_t(c.grid_min);
  const double x[3] = {std::log2(c.lrs[i - 1]), std::log2(c.lrs[i]), std::log2(c.lrs[i + 1])};
  const double y[3] = {c.losses[i - 1], c.losses[i], c.losses[i + 1]};
  for (int k = 0; k < kParabolaPoints; k++) {
    const double u = x[0] + (x[2] - x[0]) * k / (kParabolaPoints - 1);
    double value = 0;  // Lagrange's form of the parabola through the three points
    for (int j = 0; j < 3; j++) {
      double term = y[j];
      for (int m = 0; m < 3; m++)
        if (m != j) term *= (u - x[m]) / (x[j] - x[m]);
      value += term;
    }
    arc.x.push_back(std::exp2(u));
    arc.y.push_back(value);
  }
  return arc;
}

PlotAxes lr_loss_axes(const std::string& loss, const std::string& what, const std::vector<PlotCurve>& curves) {
  const bool mean = loss == "batch_loss_mean";
  PlotAxes axes;
  axes.title = trf("%s vs %s (dot: eta*)", mean ? tr("mean train loss over the run") : tr("final train loss"),
                   what.c_str());
  axes.x_label = tr("learning rate");
  axes.y_label = mean ? tr("mean train loss") : tr("train loss");
  axes.log_x = axes.log_y = true;
  axes.x_ticks = TickRule::powers_of_two;
  axes.notes = {tr("dot: eta* = vertex of a parabola in log2(lr) through the lowest loss and its two neighbours: it "
                   "can lie off the curve.")};
  if (std::any_of(curves.begin(), curves.end(), dot_at_grid_edge))
    axes.notes.push_back(trf("%s: the lowest loss is at the first or last lr of the grid, so eta* may lie beyond it: "
                             "widen the grid.", tr(kGridEdgeFlag)));
  return axes;
}
