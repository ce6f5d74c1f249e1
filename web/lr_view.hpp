// "vs learning rate": loss against the learning rate, one curve per width, η* (parabola fit,
// engine/analysis/lr_transfer.hpp) marked: the learning-rate transfer picture of Tensor Programs V (E2). Imported
// runs (web/overlay.hpp) that swept the learning rate add their own curves and η*.
#pragma once
#include <string>
#include <vector>

#include "web/app.hpp"
#include "web/plot.hpp"

struct LrPicture {
  std::string series;  // batch_loss_mean (the mean over the run) when the page records it, else train_loss
  std::vector<PlotCurve> curves;  // the page's (when it sweeps 2 or more learning rates), then the imported ones
};

LrPicture lr_picture(const App& app);
void lr_view(const App& app);
