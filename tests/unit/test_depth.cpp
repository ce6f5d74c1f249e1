// Residual MLPs and the depth rules (engine/param/depth_rule.hpp): the spec's fields, exact gradients through the
// skips (plain, pre-norm and two-weight blocks), and the depth checks on the real engine with fixed seeds:
//   D1 init: RMS of the last stream h_{L+1} against L (α = 0 grows like (3/2)^{L/2} for ReLU, α = ½ stays bounded);
//   D2 coordinate check in depth: RMS of h_{L+1}(t) − h_{L+1}(0) after t = 2 … 5 full-batch steps against L, flat
//      under Depth-μP (SGD and Adam), growing under the standard rule;
//   D3 depth transfer: η* (the parabola vertex on a half-octave grid) against L = 2 … 64, flat under Depth-μP (SGD
//      and Adam), falling at least as 1/L under the standard rule;
//   D4 width transfer at depth 8: η* against n = 64 … 1024 under μP with Depth-μP, flat.
// The measured numbers are printed, so notes can quote them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "engine/analysis/analysis.hpp"
#include "engine/analysis/lr_transfer.hpp"
#include "engine/base/rng.hpp"
#include "engine/model/mlp.hpp"
#include "engine/run/runner.hpp"
#include "engine/spec/link.hpp"
#include "engine/spec/spec.hpp"

namespace {

const std::vector<int> kDepths{2, 4, 8, 16, 32, 64};
constexpr int kInitSeeds = 16;  // D1: the stream's RMS at depth is a product of L random factors; seeds average it

// A residual MLP of width n and depth L on the sin toy (d = 8, unit-sphere inputs), μP in width.
ExperimentSpec residual(int n, int depth, DepthRule rule) {
  ExperimentSpec s;
  s.model.kind = ModelKind::residual_mlp;
  s.model.widths = {n};
  s.model.depth = depth;
  s.parametrization.preset = Preset::mup;
  s.parametrization.depth_rule = rule;
  return s;
}

// The RMS over rows and units of `count` values.
double rms(const double* v, long count) {
  double sum = 0;
  for (long i = 0; i < count; i++) sum += v[i] * v[i];
  return std::sqrt(sum / double(count));
}

// RMS of h_1 and of h_{L+1} at init, pooled over `seeds` nets on `rows` unit-norm inputs.
std::pair<double, double> init_stream_rms(ExperimentSpec s, int rows, int seeds) {
  const std::vector<int> dims = model_dims(s, 0);
  double first = 0, last = 0;
  for (int seed = 0; seed < seeds; seed++) {
    MlpConfig c(dims, Activation::relu, spec_scaling(s, dims, {}), rows);
    c.residual = true;
    Mlp m(std::move(c));
    Rng rng(uint64_t(seed) + 1);
    m.init(rng);
    std::vector<double> x(size_t(rows) * size_t(dims[0]));
    for (int r = 0; r < rows; r++) {
      double norm = 0;
      for (int k = 0; k < dims[0]; k++) norm += std::pow(x[size_t(r * dims[0] + k)] = rng.normal(), 2);
      for (int k = 0; k < dims[0]; k++) x[size_t(r * dims[0] + k)] /= std::sqrt(norm);
    }
    m.forward(x.data(), rows);
    const long units = long(rows) * dims[1];
    first += std::pow(rms(m.preactivation(0), units), 2) / seeds;
    last += std::pow(rms(m.preactivation(residual_depth(dims, 1)), units), 2) / seeds;
  }
  return {std::sqrt(first), std::sqrt(last)};
}

}  // namespace

TEST(ResidualSpec, FieldsRoundTripAndAreChecked) {
  ExperimentSpec s = residual(32, 8, DepthRule::custom);
  s.parametrization.depth_alpha = 0.75;
  s.parametrization.depth_gamma = -0.25;
  s.sweep.depth = {2, 8};
  ASSERT_TRUE(check_spec(s).empty()) << check_spec(s)[0];
  const SpecResult back = parse_spec(spec_to_json(s));
  ASSERT_TRUE(back.ok()) << back.errors[0];
  EXPECT_EQ(json::write(spec_to_json(back.spec)), json::write(spec_to_json(s)));
  const LinkResult linked = spec_from_link(spec_to_link(s));
  ASSERT_TRUE(linked.ok());
  EXPECT_EQ(json::write(spec_to_json(linked.spec)), json::write(spec_to_json(s)));
  EXPECT_EQ(sweep_size(s), 2u);
  EXPECT_EQ(model_dims(s, 0, 2), (std::vector<int>{8, 32, 32, 32, 1}));
  // An MLP spec keeps its exact form: no depth or block fields. A residual one writes its block fields, defaults
  // included, so the page's spec editor offers them.
  const std::string mlp = json::write(spec_to_json(ExperimentSpec{}));
  EXPECT_EQ(mlp.find("depth"), std::string::npos) << mlp;
  EXPECT_EQ(mlp.find("block"), std::string::npos) << mlp;
  const std::string residual = json::write(spec_to_json(s));
  EXPECT_NE(residual.find(R"("block_depth":1)"), std::string::npos) << residual;
  EXPECT_NE(residual.find(R"("block_norm":false)"), std::string::npos) << residual;
  // Pre-norm, two-weight blocks: 2 L + 1 hidden entries.
  s.model.block_norm = true;
  s.model.block_depth = 2;
  ASSERT_TRUE(check_spec(s).empty()) << check_spec(s)[0];
  const SpecResult blocks = parse_spec(spec_to_json(s));
  ASSERT_TRUE(blocks.ok()) << blocks.errors[0];
  EXPECT_EQ(json::write(spec_to_json(blocks.spec)), json::write(spec_to_json(s)));
  EXPECT_TRUE(blocks.spec.model.block_norm);
  EXPECT_EQ(blocks.spec.model.block_depth, 2);
  EXPECT_EQ(model_dims(s, 0, 2), (std::vector<int>{8, 32, 32, 32, 32, 32, 1}));
  EXPECT_EQ(residual_depth(model_dims(s, 0, 3), 2), 3);

  auto first_error = [](const std::string& text) {
    const SpecResult r = parse_spec_text(text);
    return r.errors.empty() ? std::string() : r.errors[0];
  };
  EXPECT_EQ(first_error(R"({"version":1,"model":{"kind":"residual_mlp","widths":[16,16]}})"),
            "model.widths: a residual_mlp has one width (its blocks' and stream's), not 2; model.depth sets the number "
            "of blocks");
  EXPECT_EQ(first_error(R"({"version":1,"model":{"kind":"residual_mlp","widths":[16]},"parametrization":{"preset":"mfp"}})"),
            "parametrization.preset: mfp is not for a residual_mlp (sp, sp_lr_over_n, ntp or mup: tables for any depth)");
  EXPECT_EQ(first_error(R"({"version":1,"sweep":{"depth":[2]}})"), "sweep.depth: only for model.kind \"residual_mlp\"");
  EXPECT_EQ(first_error(R"({"version":1,"model":{"kind":"residual_mlp","widths":[16],"depth":0}})"),
            "model.depth: 0 is not in [1, 256]");
  EXPECT_EQ(first_error(R"({"version":1,"parametrization":{"depth_rule":"completep"}})"),
            "parametrization.depth_rule: only for model.kind \"residual_mlp\"");
  EXPECT_EQ(first_error(R"({"version":1,"model":{"block_norm":true}})"),
            "model.block_norm: only for model.kind \"residual_mlp\"");
  const SpecResult transformer = parse_spec_text(
      R"({"version":1,"model":{"kind":"transformer","block_depth":2},"task":{"kind":"anchor"}})");
  EXPECT_NE(std::find(transformer.errors.begin(), transformer.errors.end(),
                      "model.block_depth: only for model.kind \"residual_mlp\""),
            transformer.errors.end());
  EXPECT_EQ(first_error(R"({"version":1,"model":{"kind":"residual_mlp","widths":[16],"block_depth":3}})"),
            "model.block_depth: 3 is not in [1, 2]");
  EXPECT_EQ(first_error(R"({"version":1,"model":{"kind":"residual_mlp","widths":[16],"block_norm":1}})"),
            "model.block_norm: expected true or false, got 1");
  // What follows a plain MLP only (the exact Hessian-vector product, one-hidden-layer neurons) is refused.
  EXPECT_EQ(first_error(R"({"version":1,"model":{"kind":"residual_mlp","widths":[16]},"metrics":["sharpness"]})"),
            "metrics[0]: \"sharpness\" is not for a residual_mlp (its Hessian-vector product has no skips)");
  EXPECT_EQ(first_error(R"({"version":1,"model":{"kind":"residual_mlp","widths":[16]},"optimizer":{"kind":"gd_auto"}})"),
            "optimizer.kind: gd_auto is not for a residual_mlp (its λ_max comes from a Hessian-vector product "
            "without skips)");
  EXPECT_EQ(first_error(R"({"version":1,"model":{"kind":"residual_mlp","widths":[16]},"metrics":["condensation"]})"),
            "metrics[0]: \"condensation\" is not for a residual_mlp (it needs exactly 1 hidden layer: neurons are input "
            "weights and output weight)");
}

TEST(ResidualSpec, DepthRulesScaleTheBlocksOnly) {
  for (OptimizerKind kind : {OptimizerKind::sgd, OptimizerKind::adam}) {
    const bool sgd = kind == OptimizerKind::sgd;
    ExperimentSpec plain = residual(64, 16, DepthRule::standard), scaled = residual(64, 16, DepthRule::depth_mup);
    ExperimentSpec complete = residual(64, 16, DepthRule::completep);
    for (ExperimentSpec* s : {&plain, &scaled, &complete}) s->optimizer.kind = kind;
    const std::vector<int> dims = model_dims(plain, 0);
    const auto a = spec_scaling(plain, dims, {}), b = spec_scaling(scaled, dims, {}), c = spec_scaling(complete, dims, {});
    ASSERT_EQ(a.size(), 18u);  // input layer, 16 blocks, readout
    for (size_t l = 0; l < a.size(); l++) {
      const bool block = l >= 1 && l <= 16;
      EXPECT_DOUBLE_EQ(b[l].init_std, a[l].init_std);
      EXPECT_DOUBLE_EQ(b[l].multiplier, a[l].multiplier * (block ? 0.25 : 1)) << l;            // 16^-½
      EXPECT_DOUBLE_EQ(b[l].lr_multiplier, a[l].lr_multiplier * (block && !sgd ? 0.25 : 1)) << l;
      EXPECT_DOUBLE_EQ(c[l].multiplier, a[l].multiplier * (block ? 1.0 / 16 : 1)) << l;        // 16^-1
      EXPECT_DOUBLE_EQ(c[l].lr_multiplier, a[l].lr_multiplier * (block && sgd ? 16 : 1)) << l;  // SGD: 16^+1
    }
    // Two weights per block (layers 2b − 1, 2b): L^-α on the block's output weight 2b only, L^-γ on both.
    ExperimentSpec plain2 = plain, scaled2 = scaled;
    plain2.model.block_depth = scaled2.model.block_depth = 2;
    const std::vector<int> dims2 = model_dims(plain2, 0);
    const auto a2 = spec_scaling(plain2, dims2, {}), b2 = spec_scaling(scaled2, dims2, {});
    ASSERT_EQ(a2.size(), 34u);  // input layer, 16 blocks of 2, readout
    for (size_t l = 0; l < a2.size(); l++) {
      const bool block = l >= 1 && l <= 32, output = block && l % 2 == 0;
      const TensorScaling& same_role = a[l == 0 ? 0 : block ? 1 : 17];  // both block weights are hidden layers
      EXPECT_DOUBLE_EQ(a2[l].init_std, same_role.init_std) << l;
      EXPECT_DOUBLE_EQ(a2[l].multiplier, same_role.multiplier) << l;
      EXPECT_DOUBLE_EQ(a2[l].lr_multiplier, same_role.lr_multiplier) << l;
      EXPECT_DOUBLE_EQ(b2[l].multiplier, a2[l].multiplier * (output ? 0.25 : 1)) << l;
      EXPECT_DOUBLE_EQ(b2[l].lr_multiplier, a2[l].lr_multiplier * (block && !sgd ? 0.25 : 1)) << l;
    }
  }
}

// Central differences of the loss ½ Σ f² against backward(), through the skips, in float64, for every block shape
// (plain, pre-norm, two weights, both) and rule; and float32's products against float64's.
TEST(ResidualMlp, GradientsMatchCentralDifferences) {
  for (const ResidualShape shape : {ResidualShape{1, false}, ResidualShape{1, true}, ResidualShape{2, false},
                                    ResidualShape{2, true}})
    for (DepthRule rule : {DepthRule::standard, DepthRule::depth_mup, DepthRule::completep}) {
      ExperimentSpec s = residual(6, 3, rule);
      s.model.activation = Activation::tanh;
      s.model.block_depth = shape.layers;
      s.model.block_norm = shape.norm;
      const std::vector<int> dims = model_dims(s, 0);
      MlpConfig c(dims, Activation::tanh, spec_scaling(s, dims, {}), 5);
      c.residual = true;
      c.block = shape;
      Mlp m(c);
      Rng rng(7);
      m.init(rng);
      for (double& w : m.params()) w += 0.3 * rng.normal();  // away from the init's symmetries
      std::vector<double> x(5 * 8);
      for (double& v : x) v = rng.normal();
      auto loss = [&] {
        const double* f = m.forward(x.data(), 5);
        double l = 0;
        for (int r = 0; r < 5; r++) l += 0.5 * f[r] * f[r];
        return l;
      };
      auto gradient = [&] {
        const double* f = m.forward(x.data(), 5);
        const std::vector<double> dout(f, f + 5);
        m.backward(dout.data(), 5);
        return m.grads();
      };
      const std::vector<double> grads = gradient();
      // The error against the gradient's own scale: central differences lose ~1e-10 to rounding, which would look
      // large against an entry that is nearly 0.
      double worst = 0, scale = 0;
      for (double g : grads) scale = std::max(scale, std::abs(g));
      for (size_t i = 0; i < m.params().size(); i += 3) {
        const double keep = m.params()[i], h = 1e-6;
        m.params()[i] = keep + h;
        const double up = loss();
        m.params()[i] = keep - h;
        const double down = loss();
        m.params()[i] = keep;
        const double numeric = (up - down) / (2 * h);
        worst = std::max(worst, std::abs(numeric - grads[i]) / scale);
      }
      c.precision = Precision::float32;  // the same net, its products in float32
      Mlp m32(c);
      m32.params() = m.params();
      const double* f32 = m32.forward(x.data(), 5);
      const std::vector<double> dout32(f32, f32 + 5);
      m32.backward(dout32.data(), 5);
      const std::vector<double> grads32 = m32.grads();
      double worst32 = 0;
      for (size_t i = 0; i < grads.size(); i++) worst32 = std::max(worst32, std::abs(grads32[i] - grads[i]) / scale);
      const std::string what = std::string(depth_rule_name(rule)) + " block_depth " + std::to_string(shape.layers) +
                               (shape.norm ? " pre-norm" : "");
      std::printf("  %-34s central differences %.1e, float32 %.1e (of the gradient's scale)\n", what.c_str(), worst,
                  worst32);
      EXPECT_LT(worst, 1e-7) << what;
      EXPECT_LT(worst32, 1e-5) << what;  // float32 products: ~1e-7 relative each
      EXPECT_GT(worst32, 0) << what;     // and they did run in float32
    }
}

// D1: at init, ReLU, n = 128, 256 unit-norm inputs, kInitSeeds nets pooled.
TEST(DepthChecks, D1StreamAtInit) {
  std::printf("  L     alpha 0: RMS ratio (predicted (3/2)^(L/2))   alpha 1/2   alpha 1\n");
  double previous_alpha1 = INFINITY;
  for (int L : kDepths) {
    double ratio[3];
    const double alphas[] = {0, 0.5, 1};
    for (int k = 0; k < 3; k++) {
      ExperimentSpec s = residual(128, L, DepthRule::custom);
      s.parametrization.depth_alpha = alphas[k];
      const auto [first, last] = init_stream_rms(s, 256, kInitSeeds);
      ratio[k] = last / first;
    }
    const double predicted = std::pow(1.5, L / 2.0);
    std::printf("  %-4d  %10.3f (%10.3f)                     %.3f       %.3f\n", L, ratio[0], predicted, ratio[1],
                ratio[2]);
    EXPECT_NEAR(ratio[0] / predicted, 1, 0.10) << "L " << L;
    EXPECT_GE(ratio[1], 1 - 0.05) << "L " << L;
    EXPECT_LE(ratio[1], std::exp(0.25) * 1.05) << "L " << L;
    EXPECT_LT(ratio[2], previous_alpha1 + 1e-12) << "L " << L;  // α = 1 falls towards RMS h_1
    EXPECT_GE(ratio[2], 1 - 0.05) << "L " << L;
    previous_alpha1 = ratio[2];
  }
}

// D2: RMS of h_{L+1}(t) − h_{L+1}(0) on the probe batch after t = 2 … 5 full-batch steps, against L.
TEST(DepthChecks, D2CoordinateCheckInDepth) {
  struct Case { DepthRule rule; OptimizerKind optimizer; double lr; };
  for (const Case c : {Case{DepthRule::depth_mup, OptimizerKind::sgd, 0.5}, Case{DepthRule::depth_mup, OptimizerKind::adam, 0.01},
                       Case{DepthRule::standard, OptimizerKind::sgd, 0.5}, Case{DepthRule::standard, OptimizerKind::adam, 0.01},
                       Case{DepthRule::completep, OptimizerKind::sgd, 0.5}}) {
    ExperimentSpec s = residual(128, 2, c.rule);
    s.optimizer.kind = c.optimizer;
    s.optimizer.lr = c.lr;
    s.schedule.steps = 5;
    s.schedule.divergence_loss = 1e300;  // the standard rule's growth is a measurement here
    s.sweep.depth = kDepths;
    s.sweep.seeds = {0, 1};
    s.metrics = {"train_loss", "act_delta_rms"};
    Runner runner(s);
    while (runner.step()) {}
    std::printf("  %s, %s, lr %g:", depth_rule_name(c.rule), optimizer_name(c.optimizer), c.lr);
    for (int t = 2; t <= 5; t++) {
      std::vector<double> depths, moved;
      for (int L : kDepths) {
        double mean = 0;
        for (const auto& member : runner.members()) {
          if (member->coords().depth != L) continue;
          const Series* series = member->find_series("act_delta_rms/h" + std::to_string(L + 1));
          ASSERT_NE(series, nullptr) << L;
          // a member that diverged before step t has no record there: NaN, which the standard rule's check accepts
          mean += size_t(t) < series->values.size() ? series->values[size_t(t)] / 2 : NAN;
        }
        depths.push_back(L);
        moved.push_back(mean);
      }
      const double slope = loglog_slope(depths, moved);
      std::printf("  t=%d slope %+.3f", t, slope);
      if (c.rule == DepthRule::depth_mup) EXPECT_LE(std::abs(slope), 0.15) << "t " << t;
      if (c.rule == DepthRule::completep) EXPECT_LE(slope, 0.15) << "t " << t;
      if (c.rule == DepthRule::standard) EXPECT_TRUE(!(slope < 0.3)) << "t " << t;  // grows, or diverges (NaN)
    }
    std::printf("\n");
  }
}

namespace {

// D3's task: the sin toy with 256 training points, mini-batches of 16, 300 steps, n = 128, in float32 (the checks
// are about where η* sits, which float32's rounding does not move; float64 costs more time).
ExperimentSpec transfer_spec(DepthRule rule, OptimizerKind optimizer, int depth,
                             ReadoutInit readout = ReadoutInit::random) {
  ExperimentSpec s = residual(128, depth, rule);
  s.parametrization.readout_init = readout;
  s.task.train_size = 256;
  s.optimizer.kind = optimizer;
  s.schedule.steps = 300;
  s.schedule.batch_size = 16;
  s.schedule.record_every = 300;
  s.precision = Precision::float32;
  s.sweep.seeds = {0, 1};
  s.metrics = {"train_loss", "batch_loss_mean"};
  return s;
}

// A run "trains" when its mean loss over the run ends below this: the zero function's loss on the sin toy is
// ½·E y² ≈ 0.17, and every rule reaches 0.003–0.008 at its η* where it trains at all.
constexpr double kTrainedLoss = 0.05;

struct DepthTransfer {
  std::vector<double> depths, best_lrs, best_losses;  // best_lrs: the depths where some learning rate trains
  std::vector<double> trained_depths;
  double slope = 0;  // of log2 η* against log2 L, over the depths that train
};

// η* per depth, each walked on the half-octave grid (bracket_best_lr) from the trend of the previous depths' η*. Under the
// standard rule the deepest nets may not train at any learning rate (the stream's RMS at init is (3/2)^{L/2}):
// such a depth has no η*, is printed as such and left out of the slope.
DepthTransfer depth_transfer(DepthRule rule, OptimizerKind optimizer, double start,
                             ReadoutInit readout = ReadoutInit::random) {
  DepthTransfer t;
  for (int L : kDepths) {
    const LrCurve c = bracket_best_lr(transfer_spec(rule, optimizer, L, readout), "", start, 12);
    const bool trained = c.best_loss < kTrainedLoss;
    std::printf("  %s %s L=%-3d log2 eta* %+.2f  best loss %.5f %s |", depth_rule_name(rule), optimizer_name(optimizer),
                L, std::log2(c.best_lr), c.best_loss,
                !trained ? "(no lr trains)" : c.bracketed ? "" : "(not bracketed)");
    for (size_t k = 0; k < c.lrs.size(); k++) std::printf(" %+.1f:%.4g", std::log2(c.lrs[k]), c.losses[k]);
    std::printf("\n");
    t.depths.push_back(L);
    t.best_losses.push_back(c.best_loss);
    if (!trained) continue;
    EXPECT_TRUE(c.bracketed) << depth_rule_name(rule) << " L=" << L;
    t.trained_depths.push_back(L);
    t.best_lrs.push_back(c.best_lr);
    // The next walk starts where the trend of the last two η* points, on start's half-octave grid: the standard
    // rule's η* falls by octaves per doubling of L, which a walk from this η* would need many runs to reach.
    const size_t n = t.best_lrs.size();
    const double next = n < 2 ? c.best_lr : c.best_lr * c.best_lr / t.best_lrs[n - 2];
    start *= std::exp2(0.5 * std::round(2 * std::log2(next / start)));
  }
  t.slope = loglog_slope(t.trained_depths, t.best_lrs);  // the same in log2 as in ln
  std::printf("  %s %s: slope of log2 eta* vs log2 L %+.3f over %zu depths that train\n", depth_rule_name(rule),
              optimizer_name(optimizer), t.slope, t.trained_depths.size());
  return t;
}

}  // namespace

// D3, the headline: under Depth-μP η* stays put from L = 2 to 64, for SGD and for Adam, and the best loss does not
// rise with depth; under the standard rule η* falls at least as 1/L (over the depths where it trains at all) and
// its best loss is worse from L = 16 on.
TEST(DepthChecks, D3DepthTransfer) {
  for (OptimizerKind optimizer : {OptimizerKind::sgd, OptimizerKind::adam}) {
    const double start = optimizer == OptimizerKind::sgd ? 2 : 0.25;  // near L = 2's η* (found on a wide grid)
    const DepthTransfer mup = depth_transfer(DepthRule::depth_mup, optimizer, start);
    const DepthTransfer standard = depth_transfer(DepthRule::standard, optimizer, start);
    EXPECT_EQ(mup.trained_depths.size(), kDepths.size()) << optimizer_name(optimizer);
    EXPECT_LE(std::abs(mup.slope), 0.2) << optimizer_name(optimizer);
    EXPECT_GE(standard.trained_depths.size(), 3u) << optimizer_name(optimizer);
    EXPECT_LE(standard.slope, -1) << optimizer_name(optimizer);
    for (size_t i = 0; i < kDepths.size(); i++) {
      EXPECT_LE(mup.best_losses[i], 1.15 * mup.best_losses[0]) << "Depth-muP L=" << kDepths[i];
      if (kDepths[i] >= 16) EXPECT_GT(standard.best_losses[i], mup.best_losses[i]) << "standard L=" << kDepths[i];
    }
  }
}

// D3 with the zero readout (parametrization.readout_init), SGD: what it changes in the depth transfer, for
// examples/README.md ("Zero readout"). A measurement of about two CPU-minutes, kept out of the test command's run:
//   ./build/native/tests/test_depth --gtest_also_run_disabled_tests --gtest_filter='*ZeroReadout*'
// It asserts D3's bounds, which the zero readout keeps.
TEST(DepthChecks, DISABLED_D3DepthTransferWithTheZeroReadout) {
  const DepthTransfer mup = depth_transfer(DepthRule::depth_mup, OptimizerKind::sgd, 2, ReadoutInit::zero);
  const DepthTransfer standard = depth_transfer(DepthRule::standard, OptimizerKind::sgd, 2, ReadoutInit::zero);
  EXPECT_LE(std::abs(mup.slope), 0.2);
  EXPECT_LE(standard.slope, -1);
}

// D4, width still transfers at depth: L = 8 blocks, μP in width with Depth-μP, Adam, on D3's task: η* against
// n = 64 … 1024, each width's walk starting from the previous width's η*.
TEST(DepthChecks, D4WidthTransferAtDepth) {
  const std::vector<int> widths{64, 128, 256, 512, 1024};
  std::vector<double> ns, best_lrs;
  double start = 0.25;  // near D3's η* at L = 8
  for (int n : widths) {
    ExperimentSpec s = transfer_spec(DepthRule::depth_mup, OptimizerKind::adam, 8);
    s.model.widths = {n};
    const LrCurve c = bracket_best_lr(s, "", start, 12);
    std::printf("  mup + depth_mup adam L=8 n=%-5d log2 eta* %+.2f  best loss %.5f %s |", n, std::log2(c.best_lr),
                c.best_loss, c.bracketed ? "" : "(not bracketed)");
    for (size_t k = 0; k < c.lrs.size(); k++) std::printf(" %+.1f:%.4g", std::log2(c.lrs[k]), c.losses[k]);
    std::printf("\n");
    EXPECT_TRUE(c.bracketed) << "n=" << n;
    ns.push_back(n);
    best_lrs.push_back(c.best_lr);
    start *= std::exp2(0.5 * std::round(2 * std::log2(c.best_lr / start)));
  }
  const double slope = loglog_slope(ns, best_lrs);
  std::printf("  slope of log2 eta* vs log2 n %+.3f\n", slope);
  EXPECT_LE(std::abs(slope), 0.2);
}
