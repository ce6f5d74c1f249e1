// Stable rank of a weight update, for experiment E5 (Yang, Simon & Bernstein, "A Spectral Condition for Feature
// Learning"): srank(ΔW) = ‖ΔW‖_F² / ‖ΔW‖_*².
//
// Why it matters: one SGD step on a batch of B examples is ΔW = −η Σ_b δ_b x_bᵀ, a sum of B outer products,
// so its rank is at most B whatever the width: with batch 1 it is exactly rank one (stable rank 1), and with
// batch B the stable rank stays ≪ n and does not grow with n. That low rank is why ‖ΔW‖_* (not ‖ΔW‖_F) is the
// norm that predicts how much ΔW moves the features (the spectral condition for feature learning).
//
// The stable rank is a robust stand-in for the rank: 1 ≤ srank ≤ rank, and it is not fooled by rounding noise.
#pragma once

#include "engine/kernels/spectral.hpp"

// ‖A − B‖_F² / ‖A − B‖_*² for row-major rows×cols matrices (B may be null); 0 when A = B. u (rows doubles) and
// v (cols doubles) are scratch for the power iteration, which decides the accuracy: for rank one it is exact
// after one iteration; otherwise about `it.tol` relative.
double stable_rank(const double* a, const double* b, int rows, int cols, double* u, double* v, PowerIteration it = {});
