// "vs depth": how a residual MLP (model.kind residual_mlp) scales with its depth L, from a sweep over depths
// (sweep.depth). Two pictures, picked by a pair of radio buttons:
// - quantity vs L: any recorded quantity at one recorded step against L, log-log, the geometric mean over seeds, one
//   curve per (width, learning rate), the fitted slope of log value vs log L in the legend: the coordinate check in
//   depth (under Depth-μP the last stream's change is flat in L; under the standard rule it grows). The last stream
//   h_{L+1} is offered as one quantity though its series is named after L (web/views/depth_quantity.hpp);
// - η* vs L: with a sweep over learning rates too, each depth's η* (the vertex of the parabola through its loss-vs-lr
//   grid minimum and the two neighbours) against L, a curve per width with the slope of log2 η* vs log2 L (0: η*
//   transfers across depth), η* at a grid's edge ringed; under it the loss-vs-lr curves per depth with their η* dots
//   and parabolas.
// Every curve is labelled with its depth rule. A sweep trains one rule: to see standard next to Depth-μP, import the
// result file of one (the page's Export, or a saved run's download) while the page shows the other; its curves are
// drawn dashed beside the page's (web/views/overlay.hpp).
#pragma once
#include <string>
#include <vector>

#include "engine/run/runner.hpp"
#include "web/views/imported_runs.hpp"

struct DepthView {
  bool eta = false;      // the picture: η* vs L (true) or a quantity vs L
  std::string quantity;  // the chosen quantity's label; "" or not recorded: the last stream's change, when recorded
  int record = -1;       // which recorded step; -1: the latest, as the runs go on
  bool references = false;  // draw the reference slopes L^0, L^±1/2, L^1 through the data
};

void depth_view(DepthView& v, const Runner& runner, const std::vector<const ImportedSet*>& imports);
