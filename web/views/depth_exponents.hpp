// The depth exponents of a residual MLP's spec (engine/param/depth_rule.hpp), shown in the parametrization explorer
// beside its a, b, c (web/views/abc_explorer.hpp): the rule's α (each block's branch is multiplied by L^-α) and γ (each
// block's learning rate by L^-γ) for the spec's optimizer, and the factors they give a block at the spec's depths
// (sweep.depth, else model.depth). They multiply the width rule's own, which stays that of the spec's preset.
#pragma once
#include <string>
#include <vector>

#include "engine/spec/experiment_spec.hpp"

// One depth's factors on every block.
struct DepthFactors {
  int depth = 0;
  double branch = 1;  // L^-α
  double lr = 1;      // L^-γ
};

// The spec's (α, γ), as the engine applies them (depth_exponents for the spec's optimizer).
DepthExponents spec_depth_exponents(const ExperimentSpec& s);
// The factors at each of the spec's depths, ascending.
std::vector<DepthFactors> spec_depth_factors(const ExperimentSpec& s);

// Draws the exponents and a row of factors per depth (only for a residual_mlp spec), and notes each line in the frame
// trace ("explorer depth: ...").
void depth_exponents_panel(const ExperimentSpec& s);
