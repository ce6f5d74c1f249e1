// "vs learning rate": loss against the learning rate, one curve per width, η* (parabola fit,
// engine/analysis/lr_transfer.hpp) marked: the learning-rate transfer picture of Tensor Programs V (E2). Imported
// runs (web/views/overlay.hpp) that swept the learning rate add their own curves and η*.
//
// η* is the vertex of a parabola in log2(lr) through the grid's lowest loss and its two neighbours, so its dot can sit
// off (below) the drawn curve: the legend says so. A minimum at the grid's first or last learning rate has no
// neighbour on one side: η* is then only a bound, and the legend and the hover say "at grid edge: widen the grid".
#pragma once
#include <string>
#include <vector>

#include "engine/analysis/lr_transfer.hpp"
#include "engine/run/runner.hpp"
#include "web/draw/plot.hpp"
#include "web/views/lr_curves.hpp"
#include "web/views/overlay.hpp"

struct LrPicture {
  std::string series;  // batch_loss_mean (the mean over the run) when the page records it, else train_loss
  std::vector<PlotCurve> curves;  // the page's (when it sweeps 2 or more learning rates), then the imported ones
  LrNets page;  // the page's nets the curves were drawn from (η* per width: web/views/lr_text.hpp says them)
};

// The curves of the runner's members and of the imported runs drawn (drawn_sets).
LrPicture lr_picture(const Runner* runner, const std::vector<const ImportedSet*>& imports);
void lr_view(const Runner* runner, const std::vector<const ImportedSet*>& imports);
