// Finite-difference checks (float64, central differences) of the explicit backward pass:
// every activation, both losses, with and without biases, with non-trivial forward multipliers from the
// parametrization (μP: weights n^{±1/2}, biases √fan_out).
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "engine/model/loss.hpp"
#include "engine/model/mlp.hpp"

namespace {

struct Problem {
  std::vector<double> x, y;
  std::vector<int> labels;
  int batch = 5;
  bool classification = false;
};

double loss_of(Mlp& mlp, const Problem& p, double* dout) {
  const double* f = mlp.forward(p.x.data(), p.batch);
  const int outputs = mlp.dims().back();
  if (p.classification) return cross_entropy_loss(f, p.labels.data(), p.batch, outputs, dout, nullptr);
  return mse_loss(f, p.y.data(), p.batch, outputs, dout);
}

// Largest |analytic − numeric| / max(|numeric|, 1e-3) over every parameter.
double worst_gradient_error(Activation act, bool classification, bool biases) {
  const std::vector<int> dims{3, 6, 5, 3};
  const std::vector<Abc> mup = preset_exponents(Preset::mup, 3, UpdateRule::sgd);
  const std::vector<TensorScaling> scaling = scale_layers(mup, dims, UpdateRule::sgd, 0.0);
  Problem p;
  p.classification = classification;
  Mlp mlp(dims, act, scaling, p.batch,
          biases ? bias_scaling(mup, dims, UpdateRule::sgd, 0.0) : std::vector<TensorScaling>{});
  Rng rng(3);
  mlp.init(rng);
  for (double& w : mlp.params()) w += 0.3 * rng.normal();  // move off the symmetric init (and the zero biases)
  for (int i = 0; i < p.batch * dims[0]; i++) p.x.push_back(rng.normal());
  for (int i = 0; i < p.batch * dims.back(); i++) p.y.push_back(rng.normal());
  for (int i = 0; i < p.batch; i++) p.labels.push_back(int(rng.below(uint64_t(dims.back()))));

  std::vector<double> dout(size_t(p.batch * dims.back()));
  loss_of(mlp, p, dout.data());
  mlp.backward(dout.data(), p.batch);
  const std::vector<double> analytic = mlp.grads();

  double worst = 0;
  const double h = 1e-6;
  std::vector<double>& w = mlp.params();
  for (size_t i = 0; i < w.size(); i++) {
    const double saved = w[i];
    w[i] = saved + h;
    const double up = loss_of(mlp, p, nullptr);
    w[i] = saved - h;
    const double down = loss_of(mlp, p, nullptr);
    w[i] = saved;
    const double numeric = (up - down) / (2 * h);
    worst = std::max(worst, std::fabs(analytic[i] - numeric) / std::max(std::fabs(numeric), 1e-3));
  }
  return worst;
}

}  // namespace

class GradientCheck : public ::testing::TestWithParam<std::tuple<Activation, bool, bool>> {};

TEST_P(GradientCheck, BackwardMatchesFiniteDifferences) {
  const auto [act, classification, biases] = GetParam();
  EXPECT_LT(worst_gradient_error(act, classification, biases), 1e-6)
      << activation_name(act) << (classification ? " cross-entropy" : " mse") << (biases ? " biases" : "");
}

INSTANTIATE_TEST_SUITE_P(AllActivationsAndLosses, GradientCheck,
                         ::testing::Combine(::testing::Values(Activation::relu, Activation::tanh, Activation::gelu,
                                                              Activation::linear, Activation::sigmoid,
                                                              Activation::softplus, Activation::x_tanh,
                                                              Activation::x2_tanh, Activation::sin, Activation::ricker),
                                            ::testing::Bool(), ::testing::Bool()));

TEST(Loss, CrossEntropyIsStableForHugeLogits) {
  const double f[] = {1000, -1000, 0};
  const int label = 0;
  double dout[3];
  int correct = 0;
  const double loss = cross_entropy_loss(f, &label, 1, 3, dout, &correct);
  EXPECT_NEAR(loss, 0, 1e-12);
  EXPECT_EQ(correct, 1);
  EXPECT_TRUE(std::isfinite(dout[0]) && std::isfinite(dout[1]));
}

// More rows than the model's buffers hold is a clear error, not a write past them (which only ASan would see).
TEST(Mlp, ABatchLargerThanItsBuffersIsRefused) {
  Mlp m({2, 4, 1}, Activation::tanh, {{1, 1, 1}, {1, 1, 1}}, 3);
  const std::vector<double> x(8, 0.5);
  EXPECT_NO_THROW(m.forward(x.data(), 3));
  try {
    m.forward(x.data(), 4);
    FAIL() << "a batch of 4 rows in a model of 3";
  } catch (const std::length_error& e) {
    EXPECT_STREQ(e.what(), "Mlp::forward: a batch of 4 rows; its buffers hold 0 to 3");
  }
}
