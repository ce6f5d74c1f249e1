// The width-∞ curves drawn beside finite widths (engine/analysis/limit_curve.hpp): each is the limit the spec defines,
// finite widths approach it as the width grows, and experiments without a known limit say why.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/analysis/dmft.hpp"
#include "engine/analysis/infinite_width.hpp"
#include "engine/analysis/limit_curve.hpp"
#include "engine/run/runner.hpp"
#include "engine/spec/presets.hpp"
#include "engine/spec/spec_migrations.hpp"

namespace {

ExperimentSpec one_hidden(Preset preset, Activation act, int input_dim, int train_size, double lr, int steps) {
  ExperimentSpec s;
  s.model.widths = {64};
  s.model.activation = act;
  s.parametrization.preset = preset;
  s.task.input_dim = input_dim;
  s.task.train_size = train_size;
  s.task.test_size = 1;
  s.optimizer.lr = lr;
  s.schedule.steps = steps;
  s.metrics = {"train_loss"};
  return s;
}

// max over recorded steps of |L_n − L_∞|, root-mean-square over `seeds` seeds of width n.
double distance_to_limit(ExperimentSpec s, int width, int seeds, const LimitCurve& limit) {
  s.sweep.width = {width};
  s.sweep.seeds.clear();
  for (int i = 0; i < seeds; i++) s.sweep.seeds.push_back(uint64_t(i));
  Runner runner(s);
  while (runner.step()) {
  }
  double sum = 0;
  for (const auto& run : runner.members()) {
    const std::vector<double>& loss = run->find_series("train_loss")->values;
    EXPECT_EQ(loss.size(), limit.train_loss.size());
    double worst = 0;
    for (size_t t = 0; t < loss.size(); t++) worst = std::max(worst, std::fabs(loss[t] - limit.train_loss[t]));
    sum += worst * worst;
  }
  return std::sqrt(sum / seeds);
}

// The spec's limit curves, each checked to start at the zero function's loss ½·mean y² (a zero readout's output at
// init).
std::vector<LimitCurve> zero_readout_limits(const ExperimentSpec& s) {
  const TaskData data = make_task(s.task);
  std::string why;
  const std::vector<LimitCurve> curves = limit_curves(s, data, &why);
  EXPECT_FALSE(curves.empty()) << why;
  double half_mean_y2 = 0;
  for (double y : data.train.y) half_mean_y2 += 0.5 * y * y / double(data.train.y.size());
  for (const LimitCurve& c : curves) EXPECT_NEAR(c.train_loss[0], half_mean_y2, 1e-12);
  return curves;
}

}  // namespace

// E7: a linear net in mean-field form. The curve is the spec's exact scalar recursion f_t = (A_tC_t + B_tD_t)ξ,
// and the finite widths' loss curves close in on it (16 seeds per width).
TEST(LimitCurve, LinearMeanFieldIsTheExactRecursion) {
  ExperimentSpec s = one_hidden(Preset::mfp, Activation::linear, 1, 1, 0.1, 40);
  s.sweep.width = {64, 4096};
  const TaskData data = make_task(s.task);
  std::string why;
  const std::vector<LimitCurve> curves = limit_curves(s, data, &why);
  ASSERT_EQ(curves.size(), 1u) << why;
  EXPECT_EQ(curves[0].label, "n=inf (exact linear limit)");
  const double xi = data.train.x[0], y = data.train.y[0];
  const std::vector<double> f = linear_limit_scalar(xi, y, 0.1, 40);
  ASSERT_EQ(curves[0].steps.size(), 41u);
  for (size_t i = 0; i < curves[0].steps.size(); i++) {
    const double r = f[size_t(curves[0].steps[i])] - y;
    EXPECT_NEAR(curves[0].train_loss[i], 0.5 * r * r, 1e-14);
  }
  const double near = distance_to_limit(s, 4096, 16, curves[0]), far = distance_to_limit(s, 64, 16, curves[0]);
  std::printf("linear: max |L_n - L_inf|  n=64: %.3g  n=4096: %.3g\n", far, near);
  EXPECT_LT(near, far / 4);  // n^-1/2 predicts a factor 8 over 64x the width
}

// E8: tanh, d = 2, the sin toy's first 4 points, η = 1 (spec calibration). μP is the mean-field net for one
// hidden layer, so the same quadrature curve serves it.
TEST(LimitCurve, NonlinearMeanFieldByQuadrature) {
  for (Preset preset : {Preset::mfp, Preset::mup}) {
    ExperimentSpec s = one_hidden(preset, Activation::tanh, 2, 4, 1.0, 40);
    const TaskData data = make_task(s.task);
    std::string why;
    const std::vector<LimitCurve> curves = limit_curves(s, data, &why);
    ASSERT_EQ(curves.size(), 1u) << why;
    EXPECT_EQ(curves[0].label, "n=inf (mean-field quadrature)");
    const double near = distance_to_limit(s, 4096, 4, curves[0]), far = distance_to_limit(s, 64, 4, curves[0]);
    std::printf("tanh %s: max |L_n - L_inf|  n=64: %.3g  n=4096: %.3g\n", preset_name(preset), far, near);
    EXPECT_LT(near, far / 4);
  }
}

// The zero readout (parametrization.readout_init): the quadrature's neurons take the readout's std, 0, so the limit
// starts from f = 0 as every finite width does, and the finite widths close in on it as with the random readout.
TEST(LimitCurve, ZeroReadoutMeanFieldByQuadrature) {
  ExperimentSpec s = one_hidden(Preset::mup, Activation::tanh, 2, 4, 1.0, 40);
  s.parametrization.readout_init = ReadoutInit::zero;
  const std::vector<LimitCurve> limits = zero_readout_limits(s);
  ASSERT_EQ(limits.size(), 1u);
  const LimitCurve& limit = limits[0];
  const double near = distance_to_limit(s, 4096, 4, limit), far = distance_to_limit(s, 64, 4, limit);
  std::printf("tanh mup, zero readout: max |L_n - L_inf|  n=64: %.3g  n=4096: %.3g\n", far, near);
  EXPECT_LT(near, far / 4);
}

// And two hidden layers under the zero readout: the DMFT's readout draws take its std, 0.
TEST(LimitCurve, ZeroReadoutDeepMupByDmft) {
  ExperimentSpec s = one_hidden(Preset::mup, Activation::tanh, 8, 4, 1.0, 20);
  s.model.widths = {64, 64};
  s.parametrization.readout_init = ReadoutInit::zero;
  const std::vector<LimitCurve> limits = zero_readout_limits(s);
  ASSERT_EQ(limits.size(), 1u);
  const LimitCurve& limit = limits[0];
  const double near = distance_to_limit(s, 1024, 2, limit), far = distance_to_limit(s, 64, 2, limit);
  std::printf("DMFT, zero readout: max |L_n - L_inf|  n=64: %.3g  n=1024: %.3g\n", far, near);
  EXPECT_LT(near, far / 2);
}

// E6: under NTP the curve is kernel GD with the widest member's tangent kernel at init; a network of that width
// follows it, and a network 16x narrower (n = 32 against 512) (seed 0, same data) follows its own kernel less closely.
TEST(LimitCurve, KernelRegimeIsKernelGradientDescent) {
  ExperimentSpec s;
  s.model.widths = {64, 64};
  s.parametrization.preset = Preset::ntp;
  s.task.train_size = 16;
  s.optimizer.lr = 0.5;
  s.schedule.steps = 60;
  s.schedule.record_every = 5;
  s.metrics = {"train_loss"};
  const TaskData data = make_task(s.task);
  double gap[2];
  for (int i = 0; i < 2; i++) {
    s.sweep.width = {i == 0 ? 32 : 512};
    std::string why;
    const std::vector<LimitCurve> curves = limit_curves(s, data, &why);
    ASSERT_EQ(curves.size(), 1u) << why;
    EXPECT_EQ(curves[0].label, "kernel GD, NTK at init of n=" + std::to_string(s.sweep.width[0]));
    EXPECT_EQ(curves[0].steps.back(), 60);
    gap[i] = distance_to_limit(s, s.sweep.width[0], 1, curves[0]) / curves[0].train_loss[0];
  }
  std::printf("NTP: max |L_net - L_kernel| / L_0  n=32: %.3g  n=512: %.3g\n", gap[0], gap[1]);
  EXPECT_LT(gap[1], 0.02);
  EXPECT_LT(gap[1], gap[0] / 2);
}

// E10: two hidden layers under μP (tanh, d = 8, the sin toy's first 4 points, η = 1, 20 steps): the DMFT curve,
// the same as engine/analysis/dmft.hpp's with the stated sample count, and a width-1024 net is nearer to it than a
// width-64 one (2 seeds each; n^-1/2 predicts 4x; test_dmft.cpp has the full error slope).
TEST(LimitCurve, DeepMupByDmft) {
  ExperimentSpec s = one_hidden(Preset::mup, Activation::tanh, 8, 4, 1.0, 20);
  s.model.widths = {64, 64};
  const TaskData data = make_task(s.task);
  std::string why;
  const std::vector<LimitCurve> curves = limit_curves(s, data, &why);
  ASSERT_EQ(curves.size(), 1u) << why;
  EXPECT_EQ(curves[0].label, "n=inf (DMFT, 16384 samples)");
  DmftNet net;
  net.u_std = 1 / std::sqrt(8.0);
  DmftSettings set;
  set.steps = 20;
  set.samples = 1 << 14;
  set.response_samples = set.samples / 8;
  const DmftSolution dmft = solve_dmft(net, {4, 8, data.train.x.data(), data.train.y.data()}, set);
  for (size_t i = 0; i < curves[0].steps.size(); i++) {
    double loss = 0;
    for (int k = 0; k < 4; k++) {
      const double r = dmft.f[size_t(curves[0].steps[i] * 4 + k)] - data.train.y[size_t(k)];
      loss += r * r / 8;
    }
    EXPECT_NEAR(curves[0].train_loss[i], loss, 1e-12);
  }
  const double near = distance_to_limit(s, 1024, 2, curves[0]), far = distance_to_limit(s, 64, 2, curves[0]);
  std::printf("DMFT: max |L_n - L_inf|  n=64: %.3g  n=1024: %.3g\n", far, near);
  EXPECT_LT(near, far / 2);
}

// The presets made to show a width-∞ curve get it: 13 (linear, exact recursion) and 19 (two hidden layers, DMFT).
TEST(LimitCurve, ThePresetsOfTheLimitsHaveTheirCurve) {
  const std::pair<const char*, const char*> presets[] = {{"13-linear-infinite-width.json", "n=inf"},
                                                         {"19-dmft-two-hidden-layers.json", "n=inf (DMFT"}};
  for (const auto& [file, label] : presets) {
    std::string text;
    ASSERT_TRUE(read_text_file(std::string(MUPLAY_EXAMPLES_DIR) + "/" + file, text)) << file;
    const SpecResult r = read_spec_text(text);
    ASSERT_TRUE(r.errors.empty()) << file;
    std::string why;
    const std::vector<LimitCurve> curves = limit_curves(r.spec, make_task(r.spec.task), &why);
    ASSERT_EQ(curves.size(), 1u) << file << ": " << why;
    EXPECT_EQ(curves[0].label.rfind(label, 0), 0u) << file << ": " << curves[0].label;
  }
}

TEST(LimitCurve, SaysWhyWhenThereIsNone) {
  auto why_not = [](const ExperimentSpec& s) {
    std::string why;
    EXPECT_TRUE(limit_curves(s, make_task(s.task), &why).empty());
    return why;
  };
  ExperimentSpec adam = one_hidden(Preset::mfp, Activation::tanh, 2, 4, 0.01, 5);
  adam.optimizer.kind = OptimizerKind::adam;
  EXPECT_NE(why_not(adam).find("SGD"), std::string::npos);

  ExperimentSpec deep_mup = one_hidden(Preset::mup, Activation::relu, 2, 4, 0.1, 5);
  deep_mup.model.widths = {64, 64};
  EXPECT_NE(why_not(deep_mup).find("one hidden layer"), std::string::npos);
  EXPECT_NE(why_not(deep_mup).find("not relu"), std::string::npos);
  ExperimentSpec long_dmft = deep_mup;
  long_dmft.model.activation = Activation::tanh;
  long_dmft.schedule.steps = 200;
  EXPECT_NE(why_not(long_dmft).find("steps <= 60"), std::string::npos);

  ExperimentSpec wide_input = one_hidden(Preset::mfp, Activation::tanh, 8, 4, 0.1, 5);
  EXPECT_NE(why_not(wide_input).find("input_dim"), std::string::npos);

  ExperimentSpec classes = one_hidden(Preset::ntp, Activation::relu, 2, 16, 0.1, 5);
  classes.task.kind = TaskKind::sectors;
  EXPECT_NE(why_not(classes).find("regression"), std::string::npos);
}
