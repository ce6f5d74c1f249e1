#include "web/lr_curves.hpp"

#include <cmath>
#include <cstdio>

namespace {

// How η* was found, for the dot's hover name.
std::string eta_dot_name(const LrCurve& c) {
  const std::string width = "n=" + std::to_string(c.width) + " eta*";
  if (at_grid_edge(c)) return width + " (" + kGridEdgeFlag + ")";
  return width + (c.bracketed ? " (parabola vertex)" : " (grid minimum)");
}

}  // namespace

const char* const kGridEdgeFlag = "at grid edge";

bool dot_at_grid_edge(const PlotCurve& c) {
  const std::string tail = std::string(" (") + kGridEdgeFlag + ")";
  return c.name.size() >= tail.size() && c.name.compare(c.name.size() - tail.size(), tail.size(), tail) == 0;
}

bool at_grid_edge(const LrCurve& c) {
  return c.grid_min >= 0 && (c.grid_min == 0 || c.grid_min + 1 == int(c.lrs.size()));
}

std::vector<PlotCurve> lr_width_curves(const LrCurve& c, ImU32 color) {
  const std::string width = "n=" + std::to_string(c.width);
  char label[128];
  if (c.grid_min >= 0 && std::isfinite(c.best_lr))
    std::snprintf(label, sizeof label, "%s  eta*=%.3g%s%s", width.c_str(), c.best_lr, at_grid_edge(c) ? " " : "",
                  at_grid_edge(c) ? kGridEdgeFlag : "");
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

