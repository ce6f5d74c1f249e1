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

// Multiplies the blocks' scalings by L^-α (forward multiplier) and L^-γ (learning rate), L = depth, in a net of
// depth · block_layers + 2 weight matrices whose blocks are layers 1 … depth · block_layers.
//
// A block of two weights, h + L^-α W φ(W' φ(h)), takes L^-α once, on W (the branch's output), and L^-γ on both:
// W's gradient carries L^-α, and W'’s too (through W), so a step of either moves the branch's output by
// O(η L^{-2α-γ}) under SGD and O(η L^{-α-γ}) under Adam, as a one-weight block's does; the derivation above holds
// for the block as a whole and the table's γ stays.
void apply_depth_rule(std::vector<TensorScaling>& layers, int depth, int block_layers, DepthExponents e);
