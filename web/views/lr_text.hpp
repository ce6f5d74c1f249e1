// The "vs learning rate" figure as text (web/draw/figure_text.hpp): η* per width in one sentence, with where it goes
// as the width grows read off the fitted slope of log2 η* against log2 n, and a table of each net's loss per learning
// rate with its η*, all from the view's own picture (web/views/lr_view.hpp: LrPicture's nets, which its curves are
// drawn from).
#pragma once
#include "web/draw/figure_text.hpp"
#include "web/views/lr_curves.hpp"

FigureText lr_text(const LrNets& p, const PlotAxes& axes);
