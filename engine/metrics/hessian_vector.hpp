// Exact Hessian-vector products of an Mlp's square loss, by Pearlmutter's R-operator (Neural Computation, 1994):
// differentiate the forward and the backward pass along a direction V of the weights, so R{∇L} = H V, at the cost
// of about two more passes and without any step in θ.
//
// Forward, per layer l (c_l its multiplier, a_l its input: x, then φ(h_l−1); R{x} = 0):
//   R{h_l} = c_l (R{a_l} W_lᵀ + a_l V_lᵀ),   R{a_l+1} = φ′(h_l) ⊙ R{h_l}
// Loss L = 1/(2B) Σ (f − y)²: δ_out = (f − y)/B and R{δ_out} = R{f}/B. Backward, with δa = c_l δ_l W_l:
//   R{∇W_l} = c_l (R{δ_l}ᵀ a_l + δ_lᵀ R{a_l})
//   R{δa}   = c_l (R{δ_l} W_l + δ_l V_l),   R{δ_l−1} = φ″(h_l−1) ⊙ R{h_l−1} ⊙ δa + φ′(h_l−1) ⊙ R{δa}
// A bias b_l (multiplier c′_l, added to every row of h_l) adds c′_l V_b,l to R{h_l}, and R{∇b_l} = c′_l Σ_rows R{δ_l}.
// ReLU's φ″ is a point mass at its kink that no sample sits on, so for ReLU this is the Hessian off the kinks —
// what central differences of the gradient get wrong whenever θ ± εv moves a unit across one (then a gradient jump
// of order |a_k r_i| divided by 2ε enters the product, and λ_max by power iteration comes out far too large).
#pragma once
#include <vector>

#include "engine/model/mlp.hpp"

class HessianVectorProduct {
 public:
  // x, y: count rows (count ≤ m.max_batch()), alive as long as this. Needs φ″ (activation_has_second_derivative).
  // Allocates its buffers once.
  HessianVectorProduct(Mlp& m, const double* x, const double* y, int count);

  // hv = H v, H the Hessian of L at the model's θ with respect to its parameters (v, hv: params().size()).
  // Runs one forward pass of the model (its activations are overwritten) and leaves θ and the gradients alone.
  void apply(const double* v, double* hv);

 private:
  void forward_tangent(const double* v);
  void backward_tangent(const double* v, double* hv);
  const double* layer_input(int l) const { return l == 0 ? x_ : phi_[size_t(l) - 1].data(); }

  Mlp& m_;
  const double* x_;
  const double* y_;
  int count_;
  // per hidden layer (count × width): φ(h), φ′(h), φ″(h), R{h}, R{φ(h)}
  std::vector<std::vector<double>> phi_, d1_, d2_, r_h_, r_phi_;
  std::vector<double> r_out_;                           // R{f}, then R{δ} of the output layer
  std::vector<double> delta_, r_delta_, da_, r_da_;  // backward scratch, count × widest layer
  std::vector<double> scratch_;                     // matmul_nt's transpose, largest weight matrix
  std::vector<double> tmp_;                         // a second product to add: either size
};
