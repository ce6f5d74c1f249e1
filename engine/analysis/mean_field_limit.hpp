// The infinite-width limit of a 1-hidden-layer network under μP / mean-field (experiment E8; derived here, and
// checked against finite widths by tests/unit/test_mean_field_limit.cpp).
//
//   f(ξ) = (1/n) Σᵢ vᵢ φ(uᵢ·ξ),  u ~ N(0, I/d), v ~ N(0, 1),  full-batch GD on L = 1/(2K) Σ_k (f(ξ_k) − y_k)²
//   with learning rate ηn on both layers (the engine's `mfp` preset with SGD).
//
// Each neuron's update depends on the others only through the K scalars g_k = (f(ξ_k) − y_k)/K:
//   vᵢ ← vᵢ − η Σ_k g_k φ(uᵢ·ξ_k),   uᵢ ← uᵢ − η vᵢ Σ_k g_k φ′(uᵢ·ξ_k) ξ_k   (both from the old values),
// so a neuron's whole trajectory is a deterministic function of its initial (u, v), and f_t(ξ) = E[v_t φ(u_t·ξ)]
// over the initial distribution. We evaluate that expectation with tensor Gauss–Hermite quadrature over (u, v)
// (d + 1 dimensions): each node is a "neuron" carrying its quadrature weight. A finite network is the same sum
// with n random neurons of weight 1/n (plain Monte Carlo), so its distance to the limit shrinks like n^{-1/2}.
// (For ReLU the integrand has a kink and quadrature converges slowly; the spec suggests Sobol QMC there.)
#pragma once
#include <vector>

#include "engine/kernels/activation.hpp"

// Weighted neurons: u (count × d, row-major), v (count), weight (count, summing to 1).
struct Neurons {
  int d = 0;
  std::vector<double> u, v, weight;
  int count() const { return int(v.size()); }
};

// Nodes and weights of `m`-point Gauss–Hermite quadrature for the standard normal: Σ w g(x) ≈ E g(Z).
void gauss_hermite_normal(int m, std::vector<double>& nodes, std::vector<double>& weights);

// The tensor product of m-point rules over u ∈ R^d (std u_std per coordinate) and v (std v_std): m^(d+1) neurons.
Neurons gauss_hermite_neurons(int d, int m, double u_std, double v_std);

// The neurons of a finite network: u = rows of W1 (n × d), v = the trained output weights, weights 1/n.
Neurons network_neurons(int d, int n, const double* w1, const double* v);

struct MeanFieldData {
  int points = 0, d = 0;
  const double* x = nullptr;  // points × d
  const double* y = nullptr;  // points
};

// f_t(ξ_k) for t = 0…steps (row t holds the K outputs before update t; the last row is after the final update).
// Trains `neurons` in place.
std::vector<double> mean_field_trajectory(Neurons& neurons, const MeanFieldData& data, Activation act, double lr,
                                          int steps);
