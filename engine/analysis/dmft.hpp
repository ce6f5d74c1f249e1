// The infinite-width limit of a two-hidden-layer μP network: dynamical mean-field theory (DMFT; experiment E10),
// after Bordelon & Pehlevan 2022, "Self-consistent dynamical field theory of kernel evolution in wide neural
// networks", written here for discrete full-batch gradient descent at the engine's step size.
//
// The net the engine trains under `mup` with SGD, in Θ(1) coordinates (width n of both hidden layers):
//   h¹ = U x,  h² = (1/√n) A φ(h¹),  f = (1/n) v·φ(h²),   U_ij ~ N(0, σ_U²), A_ij ~ N(0, σ_A²), v_i ~ N(0, σ_v²)
// (engine: U = W1 with σ_U = 1/√d, A = √n W2 with σ_A = 1, v = n W3 with σ_v = 1), and every one of U, A, v moves
// with learning rate ηn on the loss L = 1/(2K) Σ_k (f_k − y_k)². With Δ_k(t) = (y_k − f_k(t))/K and the backward
// fields g² = n ∂f/∂h² = v φ′(h²), z¹ = (1/√n) Aᵀ g², g¹ = n ∂f/∂h¹ = φ′(h¹) z¹, one step is
//   v += η Σ_k Δ_k φ(h²_k),   A += (η/√n) Σ_k Δ_k g²_k φ(h¹_k)ᵀ,   U += η Σ_k Δ_k g¹_k x_kᵀ.
//
// As n → ∞ a neuron of either layer becomes one draw of a "single site" driven by Gaussian fields, and the layers
// talk only through kernels over (step, training point) pairs p = (t, α):
//   Φ¹(p, q) = ⟨φ(h¹_p) φ(h¹_q)⟩,  G²(p, q) = ⟨g²_p g²_q⟩,
//   A(p, q) = ⟨∂φ(h¹_p)/∂r_q⟩ (q at an earlier step),  B(p, q) = ⟨∂g²_p/∂u_q⟩ (q at the same or an earlier step),
// ⟨·⟩ the average over the layer's neurons. Layer 1 (h¹₀ ~ N(0, σ_U² Kx) with Kx_αk = x_α·x_k, r ~ N(0, σ_A² G²)):
//   h¹(α,t) = h¹₀(α) + η Σ_{s<t} Σ_k Kx_αk Δ_k(s) g¹(k,s)
//   z¹(α,t) = r(α,t) + Σ_{s≤t} Σ_k [σ_A² B(αt,ks) + η Δ_k(s) G²(αt,ks) 𝟙(s<t)] φ(h¹(k,s))
// Layer 2 (u ~ N(0, σ_A² Φ¹), v₀ ~ N(0, σ_v²)):
//   h²(α,t) = u(α,t) + Σ_{s<t} Σ_k [σ_A² A(αt,ks) + η Δ_k(s) Φ¹(αt,ks)] g²(k,s)
//   v(t) = v₀ + η Σ_{s<t} Σ_k Δ_k(s) φ(h²(k,s)),   g²(α,t) = v(t) φ′(h²(α,t)),   f_α(t) = ⟨v(t) φ(h²(α,t))⟩.
// The Φ¹ and G² terms are the updates of A (feature learning); the A and B terms are the Onsager reaction of the
// fixed random A(0), which the forward pass (A φ¹) and the backward pass (Aᵀ g²) share. (The lecture notes' DMFT
// (STAT 946, lecture 13) writes the same equations for gradient flow with a few typos: its β-sums run to m, the
// number of training points, r's covariance is G_{l+1}, and α/β are swapped inside the integrands.)
//
// Solving: every quantity at step t depends only on kernels at steps ≤ t, and the layer-2 fields at step t need
// layer 1 only up to step t, so the self-consistent kernels are found exactly, step by step, in one pass (the
// Picard iteration of Bordelon & Pehlevan over whole trajectories reaches the same fixed point after at most T + 1
// sweeps). The averages ⟨·⟩ are Monte Carlo over `samples` seeded draws per layer (in antithetic pairs: v₀ and
// r's normals negated in the twin); the response functions A and B
// are the derivatives of each draw's own trajectory, by reverse-mode differentiation of its (stored) history on the
// first `response_samples` draws. The result carries a Monte Carlo error ~ samples^-1/2, like a width-`samples` net.
// φ must have a continuous derivative (not ReLU: its φ″ is a point mass that the derivative of a draw misses).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/kernels/activation.hpp"
#include "engine/model/mlp.hpp"

struct DmftNet {
  Activation act = Activation::tanh;
  double act_param = 1;
  double u_std = 1, a_std = 1, v_std = 1;  // σ_U, σ_A, σ_v above
};

struct DmftData {
  int points = 0, d = 0;
  const double* x = nullptr;  // points × d
  const double* y = nullptr;  // points
};

struct DmftSettings {
  double lr = 1;  // η: each of U, A, v moves with ηn
  int steps = 20;
  int samples = 1 << 14;          // Monte Carlo draws per layer
  int response_samples = 1 << 12;  // of which the first this many also give the response functions
  uint64_t seed = 0;
};

// Φ¹ and G² are (steps + 1)·points square, row and column index p = t·points + α.
struct DmftSolution {
  int points = 0, steps = 0;
  std::vector<double> f;     // (steps + 1) × points: f_α(t) before update t (the last row after the final update)
  std::vector<double> phi1;  // Φ¹
  std::vector<double> g2;    // G²
  std::vector<double> phi2;  // Φ²(t, t)_αk = ⟨φ(h²(α,t)) φ(h²(k,t))⟩: (steps + 1) × points × points
};

DmftSolution solve_dmft(const DmftNet& net, const DmftData& data, const DmftSettings& settings);

// Whether m is a net this file's limit is for: two hidden layers of one width, one output, a φ with a continuous
// derivative, and SGD with effective learning rate ηn on U = m₁W1, on A = √n m₂W2 and on v = n m₃W3 (the engine's
// `mup`, any θ). Otherwise `why` says what differs. On success `net` gets m's σ_U, σ_A, σ_v and activation.
bool dmft_form(const Mlp& m, DmftNet* net, std::string* why);
