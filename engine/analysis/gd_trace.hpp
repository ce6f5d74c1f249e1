// Full-batch gradient descent of an Mlp on a fixed set, recording the network's outputs on that set before every
// step and after the last: the network side of the kernel-regime (E6) and infinite-width (E7) comparisons, which
// need f itself, not only its loss.
//
// It is the engine's own training step (Mlp forward/backward, mse_loss, Optimizer with the per-layer learning-rate
// multipliers), so a trace agrees with a member of the same spec bit for bit (tested).
#pragma once
#include <vector>

#include "engine/model/mlp.hpp"
#include "engine/model/optimizer.hpp"

// Trains m for `steps` full-batch steps on (x, y) (count rows; count ≤ m.max_batch()) with the square loss
// 1/(2B) Σ (f − y)². Returns f on x before each step and after the last: (steps + 1) × count × d_out.
std::vector<double> gd_output_trace(Mlp& m, const OptimizerConfig& opt, const double* x, const double* y, int count,
                                    int steps);
