// The "vs step" figure as text (web/draw/figure_text.hpp): where the chosen metric ends, lowest and highest, over
// the curves drawn, and their points (a run's steps thinned to a bounded number of rows), from the curves the plot
// draws (step_curves).
#pragma once
#include <vector>

#include "web/draw/figure_text.hpp"

FigureText step_text(const PlotAxes& axes, const std::vector<PlotCurve>& curves);
