// E6 kernel regime (Tensor Programs IV's dynamical dichotomy): the network beside kernel gradient descent with its
// NTK at init.
// Under NTP the network's outputs follow kernel GD ever more closely as n grows and its kernel freezes:
// max_t |f_net − f_ker| and ‖K_T − K₀‖_F / ‖K₀‖_F fall with width (slope ≤ −0.35; the theory says −½).
// Under μP both stay Θ(1) (slope ≈ 0): the features, and with them the kernel, move (feature learning).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/analysis/analysis.hpp"
#include "engine/analysis/gd_trace.hpp"
#include "engine/analysis/ntk.hpp"
#include "engine/model/loss.hpp"

namespace {

// The model of sweep member (width, seed) of spec s, initialized as a Run initializes it.
Mlp member_model(const ExperimentSpec& s, int width, uint64_t seed, int capacity) {
  const std::vector<int> dims = model_dims(s, width);
  Mlp m(dims, s.model.activation,
        scale_layers(spec_exponents(s), dims, update_rule(s.optimizer.kind), s.parametrization.theta), capacity);
  Rng rng = Rng::stream(seed, /*purpose=*/2);
  m.init(rng);
  return m;
}

ExperimentSpec toy(Preset preset, int train_size, double lr, int steps) {
  ExperimentSpec s;
  s.parametrization.preset = preset;
  s.task.train_size = train_size;
  s.optimizer.lr = lr;
  s.schedule.steps = steps;
  s.metrics = {"train_loss"};
  return s;
}

}  // namespace

// The trace is the engine's training step: its loss at every step is the Run's train_loss, bit for bit.
TEST(KernelRegime, OutputTraceIsTheEnginesTraining) {
  ExperimentSpec s = toy(Preset::mup, 16, 0.5, 10);
  s.sweep.width = {32};
  s.sweep.seeds = {5};
  Runner runner(s);
  while (runner.step()) {}
  const TaskData data = make_task(s.task);
  Mlp m = member_model(s, 32, 5, 16);
  const std::vector<double> trace = gd_output_trace(m, s.optimizer, data.train.x.data(), data.train.y.data(), 16, 10);
  const std::vector<double>& loss = runner.members()[0]->find_series("train_loss")->values;
  ASSERT_EQ(loss.size(), 11u);
  for (int t = 0; t <= 10; t++)
    EXPECT_EQ(mse_loss(&trace[size_t(t) * 16], data.train.y.data(), 16, 1, nullptr), loss[size_t(t)]) << "step " << t;
}

// K is symmetric with a positive diagonal, and one small SGD step moves f as −(η/B) K (f − y) to first order.
TEST(KernelRegime, NtkPredictsOneSmallStep) {
  for (Preset preset : {Preset::ntp, Preset::mup, Preset::sp}) {
    const ExperimentSpec s = toy(preset, 8, 1e-4, 1);
    const TaskData data = make_task(s.task);
    Mlp m = member_model(s, 48, 1, 8);
    Ntk ntk(m, 8);
    std::vector<double> K(64), f(8), scratch(8);
    ntk.compute(m, data.train.x.data(), K.data());
    for (int i = 0; i < 8; i++) {
      EXPECT_GT(K[size_t(i * 9)], 0);
      for (int j = 0; j < i; j++) EXPECT_EQ(K[size_t(i * 8 + j)], K[size_t(j * 8 + i)]);
    }
    const std::vector<double> trace = gd_output_trace(m, s.optimizer, data.train.x.data(), data.train.y.data(), 8, 1);
    std::copy(trace.begin(), trace.begin() + 8, f.begin());
    kernel_gd_step(K.data(), data.train.y.data(), 8, s.optimizer.lr, f.data(), scratch.data());
    for (int i = 0; i < 8; i++) {
      const double step = trace[size_t(8 + i)] - trace[size_t(i)], predicted = f[size_t(i)] - trace[size_t(i)];
      EXPECT_NEAR(step, predicted, 1e-3 * std::fabs(predicted) + 1e-15) << preset_name(preset) << " x" << i;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Acceptance (E6). Settings: the default toy (2 hidden ReLU layers, d = 8, y = sin(2 x·v)) on 16 train
// points, full-batch GD with η = 0.5 for T = 20 steps, widths 64…1024, seeds 0…3. Per member:
// gap = max over steps and train points of |f_net − f_ker| and drift = ‖K_T − K₀‖_F / ‖K₀‖_F.
// Measured (mean over seeds, n = 64 → 1024): NTP gap 0.108 → 0.011, slope −0.77 ± 0.05; drift 0.23 → 0.042,
// slope −0.63 ± 0.03 (steeper than the asymptotic −½ at these widths). μP gap ≈ 0.3–0.44, slope +0.09 ± 0.04;
// drift ≈ 3.7–4.8, slope +0.08 ± 0.06. "≈ 0" is asserted as |slope| ≤ 0.15, the tolerance of E3. Without
// n = 1024 the μP slopes read +0.14 / +0.12 (noisier), so the top width stays, and the test is "slow".
namespace {

const std::vector<int> kWidths{64, 128, 256, 512, 1024};
constexpr int kSeeds = 4, kTrain = 16, kSteps = 20;
constexpr double kLr = 0.5;

struct Gap {
  double output_gap = 0, kernel_drift = 0;
};

Gap network_vs_kernel(Preset preset, int width, uint64_t seed) {
  const ExperimentSpec s = toy(preset, kTrain, kLr, kSteps);
  const TaskData data = make_task(s.task);
  const double* x = data.train.x.data();
  const double* y = data.train.y.data();
  Mlp m = member_model(s, width, seed, kTrain);
  Ntk ntk(m, kTrain);
  std::vector<double> K0(kTrain * kTrain), KT(kTrain * kTrain), scratch(kTrain);
  ntk.compute(m, x, K0.data());
  const std::vector<double> net = gd_output_trace(m, s.optimizer, x, y, kTrain, kSteps);
  ntk.compute(m, x, KT.data());
  std::vector<double> f(net.begin(), net.begin() + kTrain);  // kernel GD starts from the network at init
  Gap g;
  for (int t = 0; t <= kSteps; t++) {
    for (int i = 0; i < kTrain; i++)
      g.output_gap = std::max(g.output_gap, std::fabs(net[size_t(t * kTrain + i)] - f[size_t(i)]));
    kernel_gd_step(K0.data(), y, kTrain, kLr, f.data(), scratch.data());
  }
  g.kernel_drift = relative_change(KT.data(), K0.data(), kTrain);
  return g;
}

struct Slopes {
  MeanSem gap, drift;
};

Slopes measure(Preset preset) {
  std::vector<double> gap_slopes, drift_slopes, mean_gap(kWidths.size()), mean_drift(kWidths.size());
  for (int seed = 0; seed < kSeeds; seed++) {
    std::vector<double> widths, gaps, drifts;
    for (size_t w = 0; w < kWidths.size(); w++) {
      const Gap g = network_vs_kernel(preset, kWidths[w], uint64_t(seed));
      widths.push_back(kWidths[w]);
      gaps.push_back(g.output_gap);
      drifts.push_back(g.kernel_drift);
      mean_gap[w] += g.output_gap / kSeeds;
      mean_drift[w] += g.kernel_drift / kSeeds;
    }
    gap_slopes.push_back(loglog_slope(widths, gaps));
    drift_slopes.push_back(loglog_slope(widths, drifts));
  }
  const Slopes out{mean_sem(gap_slopes), mean_sem(drift_slopes)};
  std::printf("  %s, %d steps, eta %g:\n", preset_name(preset), kSteps, kLr);
  for (size_t w = 0; w < kWidths.size(); w++)
    std::printf("    n=%-5d max|f_net - f_ker| %.4g   |K_T-K0|/|K0| %.4g\n", kWidths[w], mean_gap[w], mean_drift[w]);
  std::printf("    slopes: output gap %+.3f ± %.3f, kernel drift %+.3f ± %.3f\n", out.gap.mean, out.gap.sem,
              out.drift.mean, out.drift.sem);
  return out;
}

}  // namespace

TEST(KernelRegime, NtpFollowsKernelGradientDescent) {
  const Slopes s = measure(Preset::ntp);
  EXPECT_LE(s.gap.mean, -0.35);
  EXPECT_LE(s.drift.mean, -0.35);
}

TEST(KernelRegime, MupLeavesTheKernelRegime) {
  const Slopes s = measure(Preset::mup);
  EXPECT_LE(std::fabs(s.gap.mean), 0.15);
  EXPECT_LE(std::fabs(s.drift.mean), 0.15);
}
