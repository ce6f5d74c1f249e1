// The gradient-augmented loss of the book's eq. 6.3 (a frequency-principle toggle: high frequencies train faster):
// besides the values, fit the input derivative of the target,
//
//   L_grad = (1/2n) Σ_i (f(x_i) − y_i)² + (1/2n) Σ_i (∂f/∂x(x_i) − y′(x_i))²
//
// (the engine's MSE convention 1/2n on both terms; the book writes 1/n on both: the same loss up to a factor 2).
// Since the derivative's Fourier coefficient is k times the function's, the second term weighs frequency k by k²:
// high frequencies are learned sooner (book Fig. 6.4).
//
// ∂f/∂x is carried forward as a tangent beside every activation (forward-mode), and the backward pass runs through
// both. Rows 0..n−1 of every buffer hold the values, rows n..2n−1 the tangents, so each layer's products are one GEMM
// over 2n rows:
//   forward   h_{l+1} = m W z_l,  t_{l+1} = m W u_l,  z_l = phi(h_l),  u_l = phi′(h_l) t_l,  t_1 = m W e
//   backward  ∂W = m [δh; δt]ᵀ [z; u],  [δz; δu] = m [δh; δt] W,  δh = phi′ δz + phi″ t δu,  δt = phi′ δu
// e is the unit vector of the input's first coordinate (the 1-D x; a folded-in bias coordinate has derivative 0).
#pragma once
#include <vector>

#include "engine/model/mlp.hpp"

class GradientLoss {
 public:
  // Buffers for up to model.max_batch() rows, sized here: the step loop allocates nothing.
  explicit GradientLoss(const Mlp& model);

  struct Value {
    double mse = 0;    // (1/2n) Σ (f − y)²
    double slope = 0;  // (1/2n) Σ (∂f/∂x − y′)²
    double total() const { return mse + slope; }
  };

  // Forward, both terms, and (when `gradient` is true) ∂L_grad/∂θ into the model's gradient buffer.
  // x: batch × d_in rows; y, dy: the target and its derivative at the batch's points.
  Value evaluate(Mlp& model, const double* x, const double* y, const double* dy, int batch, bool gradient);

  // ∂f/∂x at the rows of the last evaluate() (batch values).
  const double* slopes() const { return tangent_out_; }

 private:
  void forward(const Mlp& model, const double* x, int batch);
  void backward(Mlp& model, int batch);

  std::vector<std::vector<double>> pre_;    // per layer: [h; t], 2·max_batch × fan_out
  std::vector<std::vector<double>> post_;   // per hidden layer: [z; u]
  std::vector<std::vector<double>> d1_, d2_;  // per hidden layer: phi′(h), phi″(h)
  std::vector<double> input_;  // [x; e], 2·max_batch × d_in
  std::vector<double> delta_, delta_prev_, scratch_;
  const double* tangent_out_ = nullptr;
};
