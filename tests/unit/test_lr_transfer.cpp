// Experiment E2 (Tensor Programs V): learning-rate transfer on Fashion-MNIST with Adam.
//
// η* per width = the vertex of a parabola in log₂η through the grid minimum of the mean training loss over one
// epoch and its two half-octave neighbours (engine/analysis/lr_transfer.hpp). Acceptance: under μP η* spans at most one
// octave across widths and the best loss does not rise with width (±0.005); under SP the slope of log₂η* against
// log₂n is ≤ −0.5.
//
// Reduced settings (the reference's n = 64…1024 on 10 000 images, float32, is test_e2_scale.cpp, run by the ctest
// e2_lr_transfer_scale): MLP 784-n-n-10 ReLU, n = 32, 64, 128; the first 2 048 images of the
// subset, batch 128, one epoch (16 Adam steps), seeds 0 and 1 (init and batch order; the loss is averaged over
// them before the fit). The half-octave grid is walked from the previous width's η* (bracket_best_lr).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "engine/analysis/analysis.hpp"
#include "engine/analysis/lr_transfer.hpp"
#include "engine/task/fashion_mnist.hpp"

namespace {

const std::vector<int> kWidths{32, 64, 128};
constexpr int kImages = 2048;

bool have_data() { return probe_fashion_mnist(MUPLAY_FASHION_MNIST_DIR).error.empty(); }

ExperimentSpec transfer_spec(Preset preset) {
  ExperimentSpec s;
  s.model.widths = {64, 64};
  s.parametrization.preset = preset;
  s.task.kind = TaskKind::fashion_mnist;
  s.task.input_dim = kFashionMnistPixels;
  s.task.train_size = kImages;
  s.task.test_size = 1;  // unused: only training losses matter here
  s.optimizer.kind = OptimizerKind::adam;
  s.schedule.batch_size = 128;
  s.schedule.steps = kImages / 128;  // one epoch
  s.schedule.record_every = s.schedule.steps;
  s.schedule.divergence_loss = 1e300;  // a blown-up run is a high loss, not a stop
  s.sweep.seeds = {0, 1};
  s.metrics = {"train_loss", "batch_loss_mean"};
  return s;
}

// η* of every width; the walk starts at the previous width's η*, snapped to the half-octave grid of `start`.
std::vector<LrCurve> best_lrs(Preset preset, double start) {
  std::vector<LrCurve> curves;
  for (int width : kWidths) {
    ExperimentSpec s = transfer_spec(preset);
    s.sweep.width = {width};
    curves.push_back(bracket_best_lr(s, MUPLAY_FASHION_MNIST_DIR, start));
    const LrCurve& c = curves.back();
    std::printf("  %s n=%-4d log2 η* %+.2f  best loss %.4f %s |", preset_name(preset), width, std::log2(c.best_lr),
                c.best_loss, c.bracketed ? "" : "(grid edge)");
    for (size_t k = 0; k < c.lrs.size(); k++) std::printf(" %+.1f:%.4f", std::log2(c.lrs[k]), c.losses[k]);
    std::printf("\n");
    EXPECT_TRUE(c.bracketed) << preset_name(preset) << " n=" << width;
    start *= std::exp2(0.5 * std::round(2 * std::log2(c.best_lr / start)));
  }
  return curves;
}

void record(const std::string& key, double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.3f", value);
  std::printf("  %s = %s\n", key.c_str(), text);
  ::testing::Test::RecordProperty(key, text);
}

}  // namespace

TEST(LrTransfer, ParabolaVertex) {
  const double x[3] = {-1, 0.5, 1}, y[3] = {2 * 4 + 1, 2 * 0.25 + 1, 2 * 0 + 1};  // y = 2(x − 1)² + 1
  double vx = 0, vy = 0;
  ASSERT_TRUE(parabola_vertex(x, y, vx, vy));
  EXPECT_NEAR(vx, 1, 1e-14);
  EXPECT_NEAR(vy, 1, 1e-14);
  const double flat[3] = {1, 1, 1};
  EXPECT_FALSE(parabola_vertex(x, flat, vx, vy));
  LrCurve c;
  c.lrs = {0.25, 0.5, 1, 2};
  c.losses = {3, 1.5, 1, INFINITY};  // the right neighbour diverged: η* stays on the grid
  fit_best_lr(c);
  EXPECT_EQ(c.grid_min, 2);
  EXPECT_FALSE(c.bracketed);
  EXPECT_EQ(c.best_lr, 1);
}

TEST(LrTransfer, MupBestLearningRateTransfers) {
  if (!have_data()) GTEST_SKIP() << probe_fashion_mnist(MUPLAY_FASHION_MNIST_DIR).error;
  const std::vector<LrCurve> curves = best_lrs(Preset::mup, std::exp2(-4.5));
  double lo = INFINITY, hi = -INFINITY;
  for (const LrCurve& c : curves) {
    lo = std::min(lo, std::log2(c.best_lr));
    hi = std::max(hi, std::log2(c.best_lr));
  }
  record("mup_log2_best_lr_range_octaves", hi - lo);
  EXPECT_LE(hi - lo, 1.0);
  for (size_t w = 1; w < curves.size(); w++)
    EXPECT_LE(curves[w].best_loss, curves[w - 1].best_loss + 0.005) << "n=" << curves[w].width;
}

TEST(LrTransfer, SpBestLearningRateShrinks) {
  if (!have_data()) GTEST_SKIP() << probe_fashion_mnist(MUPLAY_FASHION_MNIST_DIR).error;
  const std::vector<LrCurve> curves = best_lrs(Preset::sp, std::exp2(-6.5));
  std::vector<double> widths, lrs;
  for (const LrCurve& c : curves) {
    widths.push_back(c.width);
    lrs.push_back(c.best_lr);
  }
  const double slope = loglog_slope(widths, lrs);
  record("sp_log2_best_lr_slope", slope);
  EXPECT_LE(slope, -0.5);
}
