// The empirical neural tangent kernel of an Mlp, and kernel gradient descent with it (experiment E6).
//
// K is weighted by each layer's learning-rate factor, because that is the kernel the engine's SGD follows:
//   K(x, z) = Σ_l lr_l ⟨∂f(x)/∂w_l, ∂f(z)/∂w_l⟩      (w_l the trained parameter, lr_l = n^-c_l its LR multiplier).
// One SGD step changes w_l by −η lr_l ∂L/∂w_l, so to first order in η it changes f by
//   f_{t+1}(x) − f_t(x) = −η Σ_l lr_l ⟨∂f(x)/∂w_l, ∂L/∂w_l⟩ = −(η/B) Σ_j K(x, x_j) (f_t(x_j) − y_j),
// since the engine's loss L = 1/(2B) Σ_j (f(x_j) − y_j)² has ∂L/∂w = (1/B) Σ_j (f(x_j) − y_j) ∂f(x_j)/∂w.
// Kernel GD is that update with K frozen at init: f_{t+1} = f_t − (η/B) K₀ (f_t − y), exactly linear in f.
// Under NTP (and SP with LR ∝ 1/n) the network follows it ever more closely as n grows (K_t → K₀, the kernel
// regime); under μP it does not (the features and K move by Θ(1)).
//
// The gradients are taken one example at a time with the Mlp's own backward pass (batch 1), and kept as rows
// scaled by √lr_l, so K = G Gᵀ. All memory is allocated in the constructor: count × (number of parameters).
#pragma once
#include <vector>

#include "engine/model/mlp.hpp"

class Ntk {
 public:
  Ntk(const Mlp& m, int count);  // for a model shaped like m (one output) and `count` inputs

  // K (count × count, row-major, symmetric) of m's current parameters on x (count × d_in). Overwrites m's
  // activations and gradients (its parameters are untouched).
  void compute(Mlp& m, const double* x, double* K);

 private:
  int count_;
  long params_;
  std::vector<double> rows_;  // count × params: √lr_l ∂f(x_i)/∂w_l, layer after layer
  double one_ = 1;            // dL/df for the backward pass: the gradient of f itself
};

// One step of kernel gradient descent on the train set: f ← f − (η/B) K (f − y) with B = count.
// f (count) is updated in place; scratch holds count doubles.
void kernel_gd_step(const double* K, const double* y, int count, double lr, double* f, double* scratch);

// ‖A − B‖_F / ‖B‖_F for two count × count matrices (how far the kernel moved from B).
double relative_change(const double* a, const double* b, int count);
