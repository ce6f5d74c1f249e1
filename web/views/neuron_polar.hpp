// The neuron view as the book draws it (chapter 8, Fig. 8.2-8.3): every neuron of a two-layer net as a point in
// polar coordinates, angle Ω_k = atan2(b_k, w_k) (the direction of its input weights (w_k, b_k) for a 1-D input with
// the bias folded in) and radius log₁₀ A_k, A_k = |a_k| ‖(w_k, b_k)‖, shifted by the decade below the smallest
// amplitude shown so every radius is ≥ 0; rings mark decades of A. Grey dots at init, orange now, and, when the run
// records neuron_paths, each neuron's path through the recorded steps (engine/analysis/neuron_paths.hpp).
#pragma once
#include <vector>

#include "engine/analysis/neuron_paths.hpp"
#include "imgui.h"

struct NeuronPolarPicture {
  NeuronPaths paths;  // empty without the metric neuron_paths
  std::vector<PolarPoint> init, now;  // from the member's weights (init: when the member kept them)
  double floor = 0, top = 0;  // radius = log₁₀ A − floor over every point above; top: the largest radius
};

NeuronPolarPicture neuron_polar_picture(const Member& run);

// Draws into a `size` box at the cursor: rings, spokes, their labels, the paths, the dots and a legend.
void neuron_polar_plot(const char* id, const NeuronPolarPicture& p, ImVec2 size);
