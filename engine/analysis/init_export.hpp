// The starting point of every sweep member as one JSON document (schema "muplay-init"), so another
// implementation (tests/crosscheck/crosscheck.py, PyTorch) can train the very same network and compare.
//
// What it holds: the full spec; the train and test sets (after input_bias, i.e. exactly what the engine trains on);
// per member its dims, activation and, per weight matrix, the trained parameter w at init (row-major
// fan_out × fan_in, like nn.Linear) with its forward multiplier n^-a, init std and learning-rate multiplier n^-c;
// with model.biases, "biases": per layer b_l at init (zeros), its multiplier, learning-rate multiplier and decay false.
// A residual_mlp's member also has "residual": its depth L, block_depth, block_norm, the depth rule with its α and γ
// and the factors L^-α (on each block's last weight) and L^-γ (on every block weight), and "blocks", the names of
// each block's weights in order; each layer then has "depth_multiplier" and "depth_lr_multiplier", the depth rule's
// part of its multiplier and learning-rate multiplier (1 off the blocks), so the width rule's is the quotient. The net:
//   h_1 = m_1 x W_1ᵀ;  per block with weights (A) or (A', A):  h ← h + m_A φ(N(h)) W_Aᵀ,  or
//   h ← h + m_A φ(m_A' φ(N(h)) W_A'ᵀ) W_Aᵀ;  f = m_out φ(h) W_outᵀ (φ of the last stream, not normalized)
// with N(h) = (h − mean) / sqrt(var + 1e-5) over each row's units (LayerNorm without gain or bias) when block_norm,
// else N(h) = h. act_rms/h<l> is the l-th preactivation in layer order (streams and a two-weight block's inner u).
// Numbers are written so they read back bit-identical (json::write), so nothing is lost on the way.
#pragma once
#include "engine/base/json.hpp"
#include "engine/run/runner.hpp"

constexpr int kInitExportVersion = 1;

// The runner must not have stepped yet (its models are at init).
json::Value init_document(const Runner& runner);
