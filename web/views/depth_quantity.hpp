// What the vs-depth view (web/views/depth_view.hpp) can draw against the depth L: the quantities that mean the same at every
// depth. A per-layer family ("act_rms/h1", ..., "act_rms/h{L+1}", "act_rms/f": L + 2 series at depth L) names its
// layers by index, so only three of them are the same layer at every depth: the first (h1, the input layer's
// output), the last block's (h{L+1}: the last stream, the readout's input, whose name changes with L) and the
// output's (f). A plain series (train_loss) is one quantity as it is.
#pragma once
#include <string>
#include <vector>

#include "engine/run/member.hpp"

enum class DepthLayer { none, first, last_block, output };

struct DepthQuantity {
  std::string family;  // "act_rms"; a plain series' name with layer none
  DepthLayer layer = DepthLayer::none;
  // As the view offers it, in English (the view keeps the reader's choice by it, whatever the language):
  // "act_rms/h1", "act_rms: last stream (h_{L+1})", "act_rms/f", "train_loss".
  std::string label;
  std::string note;   // what it is, where its name does not say: the last stream's (in the page's language)
  std::string shown;  // the label in the page's language
};

// The quantities of a run's series, in their order: for each per-layer family (of 3 or more layers) its first, last
// block's and output layer, then each plain series.
std::vector<DepthQuantity> depth_quantities(const std::vector<Series>& series);

// The series of a run (any depth) that is `q`, or null when the run did not record it.
const Series* depth_series(const std::vector<Series>& series, const DepthQuantity& q);
