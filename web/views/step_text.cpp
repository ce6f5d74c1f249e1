#include "web/views/step_text.hpp"

#include <cmath>

#include "web/draw/i18n.hpp"

FigureText step_text(const PlotAxes& axes, const std::vector<PlotCurve>& curves) {
  FigureText t;
  t.name = axes.title;
  curve_table(t, axes, curves, kFigureRowsPerCurve);
  // The curves' last points: the lowest and the highest.
  const FigureSeries* low = nullptr;
  const FigureSeries* high = nullptr;
  for (const FigureSeries& s : t.series) {
    if (s.y.empty() || !std::isfinite(s.y.back())) continue;
    if (!low || s.y.back() < low->y.back()) low = &s;
    if (!high || s.y.back() > high->y.back()) high = &s;
  }
  if (!low) {
    t.summary = trf("%s: nothing recorded yet.", axes.title.c_str());
    return t;
  }
  t.summary = trf("%s against %s, %d curves: at their last point the lowest is %s (%s, %s %s), the highest %s (%s, "
                  "%s %s).", axes.y_label.c_str(), axes.x_label.c_str(), int(t.series.size()),
                  figure_number(low->y.back()).c_str(), low->name.c_str(), axes.x_label.c_str(),
                  figure_number(low->x.back()).c_str(), figure_number(high->y.back()).c_str(), high->name.c_str(),
                  axes.x_label.c_str(), figure_number(high->x.back()).c_str());
  return t;
}
