// Curvature of the square loss L = 1/(2B) Σ (f − y)² of an Mlp on a fixed set: the sharpness of edge of stability
// (Cohen et al., 2021), gd_auto's step size and the embedding check of condensation.
//
// The matrix is H̃ = P^½ H P^½, H the Hessian with respect to the trained parameters and P the per-tensor
// learning-rate multipliers: GD's update θ ← θ − η P ∇L is stable near a minimum iff η λ_max(H̃) < 2, so λ_max(H̃)
// is the sharpness that edge-of-stability compares with 2/η (P = 1 in every preset the phenomena use).
//
// Products H̃ v are exact (engine/metrics/hessian_vector.hpp, the R-operator) for every activation with φ″; GELU,
// which has none in the engine, falls back to central differences of the gradient, (g(θ + εv) − g(θ − εv)) / 2ε
// with ε = 1e-5 ‖θ‖, accurate for a smooth activation. (Central differences are not for ReLU: a unit whose
// preactivation crosses 0 between θ ± εv adds a gradient jump / 2ε, so λ_max comes out many times too large and
// gd_auto's steps that much too small, as on the phase diagram's runs.)
#pragma once
#include <memory>
#include <vector>

#include "engine/metrics/hessian_vector.hpp"
#include "engine/model/mlp.hpp"

class HessianProbe {
 public:
  // x, y: count rows (count ≤ m.max_batch()), alive as long as the probe. Allocates its scratch once.
  HessianProbe(Mlp& m, const double* x, const double* y, int count);

  // hv = H̃ v. θ is restored exactly; the model's gradient buffer is overwritten.
  void product(const double* v, double* hv);
  // The largest (most positive) eigenvalue λ_max(H̃) by power iteration (Rayleigh quotient), warm-started from
  // the previous call's vector.
  double top_eigenvalue(int max_iters = 100, double tol = 1e-6);
  // The dense H̃ (P × P, row-major), for small nets (the embedding check).
  std::vector<double> matrix();
  // ∇L at the current θ (into the model's gradient buffer); returns L.
  double gradient();

 private:
  double power_iteration(double shift, int max_iters, double tol);  // of H̃ + shift·I
  void central_difference(const double* v, double* hv);              // hv ≈ H v

  Mlp& m_;
  const double* x_;
  const double* y_;
  int count_;
  std::unique_ptr<HessianVectorProduct> exact_;  // null for an activation without φ″ (GELU)
  std::vector<double> sqrt_lr_;                  // P^½ per parameter
  std::vector<double> theta_, g_plus_, dout_, v_, hv_, scaled_v_;
};

