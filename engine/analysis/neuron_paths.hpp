// The book's polar picture of a two-layer net's neurons (chapter 8, Fig. 8.2-8.3): neuron k is the point with
// angle Ω_k = atan2(b_k, w_k), the direction of its input weights (w_k, b_k) for a 1-D input with the bias folded
// in, and radius log₁₀ A_k, A_k = |a_k| ‖(w_k, b_k)‖; each neuron's path is its points at the recorded steps.
// Condensation shows as paths that leave the centre along a few shared angles.
//
// Read from a member's metric neuron_paths (series "neuron_paths/K/angle", "neuron_paths/K/amplitude"), so the
// paths are what the member recorded, on the CPU or a device, and the picture needs no second copy of the weights.
#pragma once
#include <vector>

#include "engine/run/member.hpp"

struct PolarPoint {
  double angle = 0;          // radians, in (−π, π]
  double log10_amplitude = 0;  // −inf where A_k = 0
};

struct NeuronPaths {
  std::vector<std::vector<PolarPoint>> paths;  // per neuron, one point per recorded step
  // The radius is log₁₀ A − floor: floor is the decade below the smallest finite log₁₀ A of every path, so each
  // radius is ≥ 0 and the rings at integer radii are decades of A. top is the largest radius.
  double floor = 0, top = 0;
};

// Empty paths when the member does not record neuron_paths.
NeuronPaths neuron_paths(const Member& run);
