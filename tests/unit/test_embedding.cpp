// The embedding principle (the book's chapter 9): split a neuron of a trained narrow net (same input weights,
// output weights α a and (1 − α) a). The output is the same function, the gradient stays as small, and the wider
// net's Hessian gains eigenvalues at zero or below (the split adds flat or descent directions), never fewer
// negative ones.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/analysis/gd_trace.hpp"
#include "engine/kernels/symmetric_eigen.hpp"
#include "engine/metrics/hessian.hpp"
#include "engine/metrics/neurons.hpp"
#include "engine/model/optimizer.hpp"
#include "engine/task/phenomena_tasks.hpp"
#include "engine/task/task.hpp"

namespace {

double norm(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

struct Spectrum {
  int flat_or_negative = 0, negative = 0;
};

// Eigenvalues at or below tol·λ_max count as flat (the finite-difference Hessian is exact to ~1e-9 relative).
Spectrum spectrum(const std::vector<double>& eig, double tol) {
  Spectrum s;
  const double top = eig.back();
  for (double e : eig) {
    if (e <= tol * top) s.flat_or_negative++;
    if (e < -tol * top) s.negative++;
  }
  return s;
}

}  // namespace

TEST(Embedding, SplitNeuronKeepsTheOutputAndAddsFlatOrNegativeDirections) {
  // 1-3-1 with sin activation and a folded-in bias on 16 points of a noisy sin x: 9 parameters, too few to fit
  // the noise, so training ends at a strict local minimum (all 9 eigenvalues > 0.01). Adam to get there, then plain
  // GD to polish it. (tanh nets drift towards saturation instead, leaving near-zero eigenvalues of their own.)
  TaskConfig c;
  c.kind = TaskKind::function_1d;
  c.target = Target::noisy_sin;
  c.input_dim = 1;
  c.train_size = 16;
  Rng data_rng(0);
  Dataset d = function_1d_train(c, data_rng);
  append_constant_input(d);
  Mlp narrow({2, 3, 1}, Activation::sin, normal_scaling(2), d.size);
  Rng rng(1);
  narrow.init(rng);
  OptimizerConfig adam;
  adam.kind = OptimizerKind::adam;
  adam.lr = 0.01;
  gd_output_trace(narrow, adam, d.x.data(), d.y.data(), d.size, 10000);
  OptimizerConfig gd;
  gd.lr = 0.05;
  gd_output_trace(narrow, gd, d.x.data(), d.y.data(), d.size, 10000);

  HessianProbe before(narrow, d.x.data(), d.y.data(), d.size);
  before.gradient();
  const double grad_before = norm(narrow.grads());
  const std::vector<double> out_before(narrow.forward(d.x.data(), d.size), narrow.forward(d.x.data(), d.size) + d.size);
  const std::vector<double> eig_before = symmetric_eigenvalues(before.matrix(), 9);
  const Spectrum s_before = spectrum(eig_before, 1e-6);


  Mlp wide = split_neuron(narrow, 1, 0.3);
  const double* out_after = wide.forward(d.x.data(), d.size);
  double worst = 0;
  for (int i = 0; i < d.size; i++) worst = std::max(worst, std::fabs(out_after[i] - out_before[size_t(i)]));
  EXPECT_LE(worst, 1e-12);

  HessianProbe after(wide, d.x.data(), d.y.data(), d.size);
  after.gradient();
  const double grad_after = norm(wide.grads());
  const std::vector<double> eig_after = symmetric_eigenvalues(after.matrix(), 12);
  const Spectrum s_after = spectrum(eig_after, 1e-6);


  // Measured: |Δf| = 1.1e-16, ‖g‖ 1.6e-14 → 1.4e-14, lowest eigenvalues 0.0110 (9 > 0) → −3.8e-4, −1e-16, 0.006…:
  // the minimum becomes a saddle with one flat direction (flat-or-negative 0 → 2, negative 0 → 1).
  EXPECT_LT(grad_before, 1e-10) << "the narrow net is not at a critical point";
  EXPECT_EQ(s_before.flat_or_negative, 0) << "the narrow net is not at a strict minimum";
  EXPECT_LE(grad_after, std::sqrt(2.0) * grad_before + 1e-15);  // ‖g′‖² ≤ 2‖g‖² for the split (see neurons.hpp)
  EXPECT_GE(s_after.flat_or_negative, s_before.flat_or_negative + 1);
  EXPECT_GE(s_after.negative, s_before.negative);
  std::printf("|df| %.3g  grad %.3g -> %.3g  flat/neg %d -> %d  neg %d -> %d\n", worst, grad_before, grad_after,
              s_before.flat_or_negative, s_after.flat_or_negative, s_before.negative, s_after.negative);
}
