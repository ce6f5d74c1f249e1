#include "web/views/width_text.hpp"

#include <cmath>
#include <cstdio>

#include "web/draw/i18n.hpp"
#include "web/draw/loglog_curve.hpp"

namespace {

// A slope under this in size is a flat line: the quantity keeps its size over the widths swept (slope ½ is √n).
constexpr double kFlat = 0.15;

void add(std::string& list, const PlotCurve& c, double slope) {
  char text[32];
  std::snprintf(text, sizeof text, " %+.2f", slope);
  list += (list.empty() ? "" : ", ") + (c.key.empty() ? c.label : c.key) + text;
}

}  // namespace

FigureText width_text(const PlotAxes& axes, const std::vector<PlotCurve>& curves) {
  FigureText t = plot_text(axes, curves, kDrawnCurvePoints);
  std::string flat, grows, shrinks;
  for (const PlotCurve& c : curves) {
    const double slope = fitted_slope(c.x, c.y);  // the slope its legend row shows
    if (c.hollow || !std::isfinite(slope)) continue;  // an imported set's: in the table, not in the verdict
    add(std::fabs(slope) < kFlat ? flat : slope > 0 ? grows : shrinks, c, slope);
  }
  if (!flat.empty()) t.summary += " " + trf("Keeps its size as the net widens (|slope| < %.2f): %s.", kFlat, flat.c_str());
  if (!grows.empty()) t.summary += " " + trf("Grows with the width: %s.", grows.c_str());
  if (!shrinks.empty()) t.summary += " " + trf("Shrinks with the width: %s.", shrinks.c_str());
  return t;
}
