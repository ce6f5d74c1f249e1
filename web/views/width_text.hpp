// The "vs width" figure as text (web/draw/figure_text.hpp): its legend (each layer's fitted slope), then which layers
// keep their size as the net widens and which grow or shrink, read off those slopes, and each layer's value per width,
// from the curves the view draws (WidthPicture's).
#pragma once
#include <vector>

#include "web/draw/figure_text.hpp"

FigureText width_text(const PlotAxes& axes, const std::vector<PlotCurve>& curves);
