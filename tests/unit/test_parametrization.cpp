// Parametrization: the presets' scalings, the stability classification of Tensor Programs IV (Def 3.2, Thm 3.3),
// and the θ-shift symmetry (a+θ, b−θ, c−2θ), which leaves SGD's trajectory unchanged.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/run/runner.hpp"

namespace {

// Effective init std and effective learning rate of the matrix W = multiplier · w (the "direct form").
struct Direct {
  double std, lr;
};
Direct direct(const TensorScaling& s, UpdateRule rule) {
  // SGD on w moves W by multiplier² · lr_mult · η ∂L/∂W; Adam's step ignores the gradient's scale: multiplier ·
  // lr_mult.
  const double lr = rule == UpdateRule::sgd ? s.multiplier * s.multiplier * s.lr_multiplier : s.multiplier * s.lr_multiplier;
  return {s.multiplier * s.init_std, lr};
}

void expect_direct_table(Preset p, UpdateRule rule, std::vector<Direct> per_n_power) {
  // per_n_power holds, per layer (input, hidden, output), the exponent e of n in std ∝ n^e / lr ∝ n^e,
  // with the input's 1/sqrt(d) factored out.
  const int d = 8;
  for (int n : {64, 1024}) {
    const std::vector<int> dims{d, n, n, 1};
    const auto scaling = scale_layers(preset_exponents(p, 3, rule), dims, rule, 0.0);
    for (int l = 0; l < 3; l++) {
      const Direct got = direct(scaling[size_t(l)], rule);
      const double base = l == 0 ? 1 / std::sqrt(double(d)) : 1.0;
      EXPECT_NEAR(got.std, base * std::pow(n, per_n_power[size_t(l)].std), 1e-12) << preset_name(p) << " layer " << l;
      EXPECT_NEAR(got.lr, std::pow(n, per_n_power[size_t(l)].lr), 1e-12) << preset_name(p) << " layer " << l;
    }
  }
}

}  // namespace

TEST(Presets, DirectFormTableOfTheSpec) {
  // layer: input, hidden, output as {std exponent, lr exponent}; see the spec's "Direct-form presets" table.
  expect_direct_table(Preset::sp, UpdateRule::sgd, {{0, 0}, {-0.5, 0}, {-0.5, 0}});
  expect_direct_table(Preset::ntp, UpdateRule::sgd, {{0, 0}, {-0.5, -1}, {-0.5, -1}});
  expect_direct_table(Preset::mup, UpdateRule::sgd, {{0, 1}, {-0.5, 0}, {-1, -1}});
  expect_direct_table(Preset::mup, UpdateRule::adam, {{0, 0}, {-0.5, -1}, {-1, -1}});
  expect_direct_table(Preset::sp_lr_over_n, UpdateRule::sgd, {{0, -1}, {-0.5, -1}, {-0.5, -1}});
}

TEST(Classify, TableOfTheSpec) {
  for (int hidden : {1, 2, 3}) {
    const int layers = hidden + 1;
    EXPECT_EQ(classify(preset_exponents(Preset::sp, layers, UpdateRule::sgd)).regime, Regime::unstable);
    EXPECT_EQ(classify(preset_exponents(Preset::sp_lr_over_n, layers, UpdateRule::sgd)).regime, Regime::kernel);
    EXPECT_EQ(classify(preset_exponents(Preset::ntp, layers, UpdateRule::sgd)).regime, Regime::kernel);
    EXPECT_EQ(classify(preset_exponents(Preset::mup, layers, UpdateRule::sgd)).regime, Regime::feature_learning);
  }
  const Classification mfp = classify(preset_exponents(Preset::mfp, 2, UpdateRule::sgd));
  EXPECT_EQ(mfp.regime, Regime::feature_learning);
  EXPECT_NEAR(mfp.r, 0, 1e-12);
  EXPECT_NEAR(classify(preset_exponents(Preset::ntp, 3, UpdateRule::sgd)).r, 0.5, 1e-12);
}

TEST(Classify, TrivialAndReasons) {
  // muP with a readout scaled down further (a = 1): stable, but the function no longer moves.
  std::vector<Abc> abc = preset_exponents(Preset::mup, 3, UpdateRule::sgd);
  abc[2].a = 1;
  const Classification c = classify(abc);
  EXPECT_EQ(c.regime, Regime::trivial);
  EXPECT_NE(c.reason.find("stops moving"), std::string::npos);
  const Classification sp = classify(preset_exponents(Preset::sp, 3, UpdateRule::sgd));
  EXPECT_NE(sp.reason.find("r = -1"), std::string::npos) << sp.reason;
}

TEST(Classify, PerLayerLearningRatesFoldIntoTheSymmetry) {
  // muP written with per-layer c: shift each layer by its own θ; the class must not change.
  std::vector<Abc> abc = preset_exponents(Preset::mup, 3, UpdateRule::sgd);
  const double thetas[] = {0.5, -0.25, 0.75};
  for (int l = 0; l < 3; l++) abc[size_t(l)] = {abc[size_t(l)].a + thetas[l], abc[size_t(l)].b - thetas[l], abc[size_t(l)].c - 2 * thetas[l]};
  EXPECT_EQ(classify(abc).regime, Regime::feature_learning);
}

// A bias is an input weight with fan-in 1 (Tensor Programs V): its direct-form LR has the input layer's exponent
// of n = the bias's length, and the readout's bias (length d_out) is Θ(1).
TEST(Biases, DirectFormFollowsTheInputLayerWithFanInOne) {
  struct Row {
    Preset preset;
    UpdateRule rule;
    double lr_exponent, multiplier_exponent;  // hidden biases: effective LR ∝ n^e, multiplier ∝ n^e
  };
  const Row rows[] = {{Preset::sp, UpdateRule::sgd, 0, 0},    {Preset::ntp, UpdateRule::sgd, 0, 0},
                      {Preset::mup, UpdateRule::sgd, 1, 0.5}, {Preset::mup, UpdateRule::adam, 0, 0.5},
                      {Preset::mfp, UpdateRule::sgd, 1, 0},   {Preset::sp_lr_over_n, UpdateRule::sgd, -1, 0}};
  for (const Row& r : rows)
    for (int n : {64, 1024}) {
      const int layers = r.preset == Preset::mfp ? 2 : 3;
      std::vector<int> dims(size_t(layers) + 1, n);
      dims.front() = 8, dims.back() = 1;
      for (double theta : {0.0, 0.5}) {
        const auto biases = bias_scaling(preset_exponents(r.preset, layers, r.rule), dims, r.rule, theta);
        for (int l = 0; l < layers; l++) {
          const double length = dims[size_t(l) + 1];
          const double e = l + 1 < layers ? r.lr_exponent : 0;  // the readout's bias: n = d_out = 1
          EXPECT_NEAR(direct(biases[size_t(l)], r.rule).lr, std::pow(length, e), 1e-9)
              << preset_name(r.preset) << " n=" << n << " theta=" << theta << " bias " << l;
          if (theta == 0 && l + 1 < layers)
            EXPECT_NEAR(biases[size_t(l)].multiplier, std::pow(n, r.multiplier_exponent), 1e-9)
                << preset_name(r.preset);
        }
      }
    }
}

TEST(ThetaShift, MupAtThetaZeroAndHalfGiveTheSameTrajectory) {
  for (bool biases : {false, true}) {
    ExperimentSpec spec;
    spec.model.biases = biases;
    spec.model.widths = {128, 128};
    spec.parametrization.preset = Preset::mup;
    spec.optimizer.lr = 0.5;
    spec.schedule.steps = 30;
    spec.metrics = {"train_loss", "act_rms"};
    ExperimentSpec shifted = spec;
    shifted.parametrization.theta = 0.5;
    Runner a(spec), b(shifted);
    while (a.step()) {}
    while (b.step()) {}
    const ::Member& ra = *a.members()[0];
    const ::Member& rb = *b.members()[0];
    ASSERT_EQ(ra.status(), RunStatus::finished);
    ASSERT_EQ(ra.series().size(), rb.series().size());
    double worst = 0;
    for (size_t s = 0; s < ra.series().size(); s++)
      for (size_t t = 0; t < ra.series()[s].values.size(); t++) {
        const double x = ra.series()[s].values[t], y = rb.series()[s].values[t];
        worst = std::max(worst, std::fabs(x - y) / std::max(std::fabs(x), 1e-300));
      }
    EXPECT_LT(worst, 1e-12) << "biases " << biases;
    // ...and the loss did move, so the check is not vacuous.
    const auto& loss = ra.series()[0].values;
    EXPECT_LT(loss.back(), 0.9 * loss.front()) << "biases " << biases;
  }
}

// parametrization.readout_init "zero" (Tensor Programs V's zero readout): the readout starts at 0, every other layer
// starts where the random readout's net starts (the readout's draws are still made), so the output is 0 at init at
// every width; the first SGD step then moves the readout only, and the hidden features move from the second step on.
TEST(ReadoutInit, ZeroStartsTheReadoutAtZeroAndLeavesTheOtherLayersAsDrawn) {
  ExperimentSpec random;
  random.model.widths = {32, 32};
  random.schedule.steps = 2;
  random.metrics = {"train_loss", "act_rms", "act_delta_rms"};
  ExperimentSpec zero = random;
  zero.parametrization.readout_init = ReadoutInit::zero;
  Runner with_random(random), with_zero(zero);
  const Mlp& a = *with_random.members()[0]->mlp();
  const Mlp& b = *with_zero.members()[0]->mlp();
  const std::vector<TensorSlice> layers = layer_slices(a);
  ASSERT_EQ(layers.size(), 3u);
  for (size_t l = 0; l < layers.size(); l++) {
    const double* pa = a.params().data() + layers[l].offset;
    const double* pb = b.params().data() + layers[l].offset;
    for (long i = 0; i < layers[l].size; i++) {
      if (l + 1 < layers.size()) ASSERT_EQ(pb[i], pa[i]) << "layer " << l << " entry " << i;
      else ASSERT_EQ(pb[i], 0.0) << "readout entry " << i;
    }
  }
  EXPECT_EQ(b.scaling().back().init_std, 0.0);
  EXPECT_GT(a.scaling().back().init_std, 0.0);
  while (with_zero.step()) {
  }
  const Member& m = *with_zero.members()[0];
  EXPECT_EQ(m.find_series("act_rms/f")->values[0], 0.0);           // the output at init
  EXPECT_GT(m.find_series("act_rms/f")->values[1], 0.0);           // step 1 moves the readout,
  EXPECT_EQ(m.find_series("act_delta_rms/h1")->values[1], 0.0);    // not the features (their gradient has a 0 factor),
  EXPECT_GT(m.find_series("act_delta_rms/h1")->values[2], 0.0);    // which move from step 2 on
}
