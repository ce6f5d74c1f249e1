// A plot of curves against the step as text (web/draw/figure_text.hpp): where they end, lowest and highest, and
// their points (a run's steps thinned to a bounded number of rows), from the curves the plot draws: the "vs step"
// view's (step_curves) and the phenomena view's per-step plots.
#pragma once
#include <vector>

#include "web/draw/figure_text.hpp"

FigureText step_text(const PlotAxes& axes, const std::vector<PlotCurve>& curves);
