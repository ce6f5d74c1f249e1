// "max LR": experiment E1 (Tensor Programs IV), the largest learning rate that still trains, against the width.
// Left: L_T / L_0 after T steps against η, a curve per width whose right end is that width's η_max. Right: η_max
// against the width, log-log, with the fitted slope in the legend (SP: about −0.7 over 32…512, toward −1;
// μP: about 0). The numbers are engine/analysis/lr_scan.hpp's max_lr_table, read off the finished sweep
// (presets 17-max-lr-sp / -mup); the panel's title names the parametrization.
#pragma once
#include <string>
#include <vector>

#include "engine/analysis/lr_scan.hpp"
#include "web/draw/plot.hpp"

struct MaxLrPicture {
  std::string why_empty;                  // set when there is nothing to draw
  std::string parametrization;            // "SP", "muP", ...
  MaxLrTable table;
  std::vector<PlotCurve> ratio_curves;    // a curve per width, then its η_max marker (a one-point curve)
  std::vector<PlotCurve> max_lr_curve;    // η_max vs width, the slope in its label
};

MaxLrPicture max_lr_picture(const Runner& runner);
void max_lr_view(const Runner& runner);
