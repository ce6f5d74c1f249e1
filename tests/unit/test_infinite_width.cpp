// E7 linear ∞-width limit (Tensor Programs IV): a linear net with one hidden layer in mean-field form (MFP; μP is the
// same net) trained by full-batch GD is exactly the P/Q recursion of engine/analysis/infinite_width.hpp with the Gram
// matrix Ĝ of its initial weights, and at n = ∞ with Ĝ's expectation. So (1) with the finite Ĝ the recursion
// reproduces the engine's network to 1e−12 ("Ĝ identity"), and (2) finite widths converge to the n = ∞ curve
// with error ∝ n^-1/2, since Ĝ − E Ĝ is an average of n independent terms (slope ∈ [−0.65, −0.35]).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/analysis/analysis.hpp"
#include "engine/analysis/gd_trace.hpp"
#include "engine/analysis/infinite_width.hpp"

namespace {

// A 1-hidden-layer linear net d_in → n → d_out in `preset`'s SGD parametrization, initialized with `seed`.
Mlp linear_net(Preset preset, int d_in, int n, int d_out, uint64_t seed, int capacity) {
  const std::vector<int> dims{d_in, n, d_out};
  Mlp m(dims, Activation::linear, scale_layers(preset_exponents(preset, 2, UpdateRule::sgd), dims, UpdateRule::sgd, 0),
        capacity);
  Rng rng = Rng::stream(seed, /*purpose=*/2);
  m.init(rng);
  return m;
}

double max_abs_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (size_t i = 0; i < a.size(); i++) worst = std::max(worst, std::fabs(a[i] - b[i]));
  return worst;
}

OptimizerConfig sgd(double lr) {
  OptimizerConfig o;
  o.lr = lr;
  return o;
}

}  // namespace

TEST(InfiniteWidth, ScalarFormIsTheGeneralRecursionWithIdentityGram) {
  const double x = 0.5, y = 1;
  const std::vector<double> scalar = linear_limit_scalar(x, y, 1.0, 30);
  const std::vector<double> general = linear_limit({1, 0, 0, 1}, &x, &y, 1, 1, 1, 1.0, 30);
  ASSERT_EQ(scalar.size(), general.size());
  EXPECT_LE(max_abs_difference(scalar, general), 1e-15);
  EXPECT_EQ(scalar[0], 0.0);                     // A₀C₀ + B₀D₀ = 0: f ≡ 0 at init, as in any feature-learning limit
  EXPECT_NEAR(scalar.back(), y, 1e-9);           // and it fits the target
  Mlp m = linear_net(Preset::mfp, 1, 64, 1, 0, 1);
  EXPECT_EQ(gram_at_infinity(m), (std::vector<double>{1, 0, 0, 1}));  // the engine's init: u, v ~ N(0, 1)
}

TEST(InfiniteWidth, OnlyMeanFieldLinearNetsQualify) {
  std::string why;
  EXPECT_TRUE(linear_mean_field(linear_net(Preset::mfp, 2, 32, 1, 0, 1), &why)) << why;
  EXPECT_TRUE(linear_mean_field(linear_net(Preset::mup, 2, 32, 1, 0, 1), &why)) << why;
  EXPECT_FALSE(linear_mean_field(linear_net(Preset::ntp, 2, 32, 1, 0, 1), &why));
  EXPECT_NE(why.find("W1"), std::string::npos) << why;
}

// "Ĝ identity": the recursion with the finite network's own Ĝ is that network, for general dims, under MFP and
// μP, at small and large n. Synthetic data: 5 inputs in R^3, 2 outputs, η = 1, 40 steps.
TEST(InfiniteWidth, GramRecursionReproducesTheFiniteNetwork) {
  constexpr int kDin = 3, kDout = 2, kCount = 5, kSteps = 40;
  Rng data_rng(77);
  std::vector<double> x(kDin * kCount), y(kDout * kCount);
  for (double& v : x) v = data_rng.normal() / std::sqrt(double(kDin));
  for (double& v : y) v = data_rng.normal();
  for (Preset preset : {Preset::mfp, Preset::mup})
    for (int n : {16, 256, 2048}) {
      Mlp m = linear_net(preset, kDin, n, kDout, uint64_t(n), kCount);
      ASSERT_TRUE(linear_mean_field(m, nullptr));
      const std::vector<double> G = gram_of(m);
      const std::vector<double> recursion = linear_limit(G, x.data(), y.data(), kCount, kDin, kDout, 1.0, kSteps);
      const std::vector<double> network = gd_output_trace(m, sgd(1.0), x.data(), y.data(), kCount, kSteps);
      const double err = max_abs_difference(recursion, network);
      std::printf("  %s n=%d: max |f_net - f_recursion(G)| = %.2e (f moves from %.3f to %.3f)\n", preset_name(preset),
                  n, err, network[0], network[network.size() - kDout * kCount]);
      EXPECT_LE(err, 1e-12) << preset_name(preset) << " n=" << n;
    }
}

// ---------------------------------------------------------------------------------------------------------
// Convergence to the n = ∞ curve. Settings: d_in = d_out = 1, one example ξ = 0.5, y = 1, LR 1 (the spec's
// scalar form), T = 20 steps; MFP; widths 64, 256, 1024, 4096, 16384; seeds 0…7. Error of a member =
// max_t |f_n(t) − f_∞(t)|; the slope is fitted to the seed-mean error against n.
TEST(InfiniteWidth, FiniteWidthsConvergeAtRateOneOverSqrtN) {
  const std::vector<int> widths{64, 256, 1024, 4096, 16384};
  constexpr int kSeeds = 8, kSteps = 20;
  const double xi = 0.5, target = 1;
  const std::vector<double> limit = linear_limit_scalar(xi, target, 1.0, kSteps);
  std::vector<double> ns, errors;
  for (int n : widths) {
    double mean = 0;
    for (int seed = 0; seed < kSeeds; seed++) {
      Mlp m = linear_net(Preset::mfp, 1, n, 1, uint64_t(seed), 1);
      const std::vector<double> f = gd_output_trace(m, sgd(1.0), &xi, &target, 1, kSteps);
      mean += max_abs_difference(f, limit) / kSeeds;
    }
    ns.push_back(n);
    errors.push_back(mean);
    std::printf("  n=%-6d mean max_t |f_n - f_inf| = %.4g\n", n, mean);
  }
  const double slope = loglog_slope(ns, errors);
  std::printf("  slope %+.3f (f_inf: %.4f after 1 step, %.6f after %d)\n", slope, limit[1], limit.back(), kSteps);
  EXPECT_GE(slope, -0.65);
  EXPECT_LE(slope, -0.35);
}
