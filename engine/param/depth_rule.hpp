// Depth rules of a residual MLP (h_{l+1} = h_l + L^-α · W_l φ(h_l), l = 1 … L): the branch multiplier L^-α and the
// hidden blocks' learning-rate factor L^-γ, multiplied onto the width rule's (a, b, c) of those blocks.
//
//   rule        α    γ (SGD)  γ (Adam)
//   standard    0    0        0         a plain ResNet: μP (or any preset) in width only
//   depth_mup   ½    0        ½         Tensor Programs VI; Bordelon et al. 2023: each block moves Θ(1/√L)
//   completep   1    −1       0         Dey et al. 2025 (CompleteP): each block moves Θ(1/L)
//   custom      depth_alpha, depth_gamma as given
//
// Why: at init the branches' outputs are centred and independent of the stream, so each block multiplies the
// stream's variance by (1 + c L^-2α), c = E φ(z)²/E z² (½ for ReLU): α = 0 grows like (1 + c)^{L/2} in RMS, α = ½
// stays below e^{c/2}. One SGD step moves each block by O(η L^{-2α-γ}) in a shared direction and L blocks add up:
// Δh = O(η L^{1-2α-γ}), so α = ½ needs γ = 0. Adam normalizes the gradient: O(η L^{1-α-γ}), so γ = 1 − α.
// Adam's ε follows the width rule; the depth rule does not touch it.
#pragma once
#include <vector>

#include "engine/base/enum_names.hpp"
#include "engine/param/parametrization.hpp"

enum class DepthRule { standard, depth_mup, completep, custom };
inline constexpr EnumName<DepthRule> kDepthRuleNames[] = {
    {DepthRule::standard, "standard"},
    {DepthRule::depth_mup, "depth_mup"},
    {DepthRule::completep, "completep"},
    {DepthRule::custom, "custom"},
};
inline const char* depth_rule_name(DepthRule r) { return enum_name(kDepthRuleNames, r); }

struct DepthExponents {
  double alpha = 0, gamma = 0;
};

// The rule's (α, γ) for `update` (custom: the given ones, for either rule).
DepthExponents depth_exponents(DepthRule rule, UpdateRule update, DepthExponents custom);

// Multiplies the blocks' scalings (layers 1 … depth of a net of depth + 2 weight matrices) by L^-α (forward
// multiplier) and L^-γ (learning rate), L = depth.
void apply_depth_rule(std::vector<TensorScaling>& layers, int depth, DepthExponents e);
