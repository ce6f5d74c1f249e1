// The data of the "vs depth" view (web/views/depth_view.hpp), apart from its drawing: a quantity at one recorded step
// against the depth L of a residual MLP (the coordinate check in depth), and η* against L (depth transfer), for the
// page's runs and the imported result files drawn over them (web/views/overlay.hpp). A sweep trains one depth rule, so
// rules are compared side by side as two sources: the page's runs under one rule next to an imported result file of
// the same experiment under another. Every curve's label starts with its source's rule.
#pragma once
#include <string>
#include <vector>

#include "engine/analysis/lr_transfer.hpp"
#include "engine/run/runner.hpp"
#include "web/draw/plot_curve.hpp"
#include "web/views/depth_quantity.hpp"
#include "web/views/imported_runs.hpp"

// One run as the view reads it, from the page's members or an imported set.
struct DepthRun {
  int width = 0, depth = 0;
  double lr = 0;
  const std::vector<int>* steps = nullptr;
  const std::vector<Series>* series = nullptr;
};

// The page's runs, or one imported set's: its depth rule, runs, and loss-vs-lr fits per (width, depth).
struct DepthSource {
  std::string rule;  // "depth_mup", "custom (α=0.5, γ=0)"
  const ImportedSet* set = nullptr;  // null: the page's runs
  int set_index = -1;                // the set's place among the drawn sets (its marker)
  std::vector<DepthRun> runs;
  std::vector<LrCurve> fits;  // a curve per (width, depth) when it swept 2 or more learning rates
  std::vector<bool> training;  // per fit: a run of that net still trains (the page's; an imported set's are done)
  int depths() const;         // how many depths its runs have
};

// The page's runs, then each imported set's. `loss`: the series η* is read from.
std::vector<DepthSource> depth_sources(const Runner& runner, const std::vector<const ImportedSet*>& imports,
                                       const std::string& loss);

// The loss η* is read from, as the vs-learning-rate view: the mean train loss over the run (batch_loss_mean) when
// the page records it, else the final train loss.
std::string depth_loss_series(const Runner& runner);

// The steps the record slider walks: the page's recorded steps, or the first imported set's while the page has none.
std::vector<int> depth_record_steps(const std::vector<DepthSource>& sources);

// Quantity vs L at recorded step `step`: per source, one curve per (width, learning rate), the geometric mean over
// seeds at each depth, labelled "depth_mup n=128 lr=0.5  slope +0.01" (the slope of log value vs log L).
std::vector<PlotCurve> depth_quantity_curves(const std::vector<DepthSource>& sources, const DepthQuantity& q, int step);

// η* vs L: per source, one curve per width through its depths' η*, labelled "depth_mup n=128  slope -0.02" (the
// slope of log2 η* vs log2 L); each η* at its grid's edge gets a ring, a curve of its own named
// "depth_mup n=128 L=2 eta* (at grid edge)" (no legend row: it hides with its curve).
std::vector<PlotCurve> eta_depth_curves(const std::vector<DepthSource>& sources);

// Loss vs lr per depth: per source and (width, depth), the curve, its η* dot and the parabola through the grid
// minimum and its neighbours whose vertex η* is (web/views/lr_curves.hpp), labels starting with the source's rule.
std::vector<PlotCurve> depth_lr_curves(const std::vector<DepthSource>& sources);
