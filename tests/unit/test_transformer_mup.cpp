// μP for the anchor-function Transformer (Tensor Programs V), on the real engine with fixed seeds:
//   coordinate check: after t = 1 … 5 Adam steps at one learning rate, the RMS change of the attention logits, of
//   the last residual stream and of the output against d_model = 32 … 256 (2 heads, so d_head grows with d_model).
//   Under μP (1/fan_in hidden init and η/fan_in, readout 1/fan_in², attention 1/d_head) none grows: the stream's
//   and the output's changes stay flat, and the attention logits' change falls as d_head^-1/2, because at init
//   q and k are independent, so q·k/d_head ~ d_head^-1/2 until training aligns them (μP's attention starts out
//   uniform at large width). Under SP (PyTorch-default init, 1/√d_head attention, one η) all three grow.
//   width transfer: η* (the parabola vertex on a half-octave grid of the mean training loss over 200 Adam steps,
//   2 seeds) against d_model = 32 … 256: under μP the slope of log2 η* vs log2 d_model is below 0.25 in size and
//   below SP's, whose optimum drifts with width (Tensor Programs V, Figure 1).
// The measured slopes are printed, so notes can quote them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/analysis/analysis.hpp"
#include "engine/analysis/lr_transfer.hpp"
#include "engine/run/runner.hpp"
#include "engine/spec/spec.hpp"

namespace {

const std::vector<int> kWidths{32, 64, 128, 256};
// "Flat": |slope of log RMS vs log d_model| at most this (D2's band for the depth check); "grows": above it.
constexpr double kFlat = 0.15;

// The chapter-12 identity task's 2-layer pre-LN Transformer, 2 heads, d_ff = 4·d_model, Adam.
ExperimentSpec anchor_transformer(Preset preset) {
  ExperimentSpec s;
  s.model.kind = ModelKind::transformer;
  s.model.transformer.layers = 2;
  s.model.transformer.heads = 2;
  s.model.transformer.d_ff = 256;  // 4 · d_model: a width sweep keeps the ratio
  s.model.transformer.init = InitScheme::pytorch;  // SP: PyTorch's defaults; μP: its own table
  s.parametrization.preset = preset;
  s.task.kind = TaskKind::anchor;
  s.task.train_size = 256;
  s.task.test_size = 64;
  s.task.anchor.kind = AnchorTaskKind::identity;
  s.optimizer.kind = OptimizerKind::adam;
  s.sweep.width = kWidths;
  s.sweep.seeds = {0, 1};
  return s;
}

// The slope of log (geometric mean over seeds of `series` at record t) against log d_model.
double width_slope(const Runner& runner, const std::string& series, int t) {
  std::vector<double> widths, values;
  for (int width : kWidths) {
    double log_sum = 0;
    int count = 0;
    for (const auto& member : runner.members()) {
      if (member->width() != width) continue;
      log_sum += std::log(member->find_series(series)->values.at(size_t(t)));
      count++;
    }
    widths.push_back(width);
    values.push_back(std::exp(log_sum / count));
  }
  return loglog_slope(widths, values);
}

}  // namespace

TEST(TransformerMup, CoordinateCheck) {
  const char* const kChanges[] = {"attn_logits_delta", "stream_delta", "output_delta"};
  for (Preset preset : {Preset::mup, Preset::sp}) {
    ExperimentSpec s = anchor_transformer(preset);
    s.optimizer.lr = 0.01;
    s.schedule.steps = 5;
    s.schedule.batch_size = 32;
    s.schedule.record_every = 1;
    s.metrics = {"train_loss", "transformer_coords"};
    ASSERT_TRUE(check_spec(s).empty()) << check_spec(s)[0];
    Runner runner(s);
    while (runner.step()) {}
    for (const char* change : kChanges) {
      std::printf("  %s %-18s slope vs d_model at t = 1..5:", preset_name(preset), change);
      for (int t = 1; t <= 5; t++) {
        const double slope = width_slope(runner, std::string("transformer_coords/") + change, t);
        std::printf(" %+.2f", slope);
        if (preset == Preset::sp) EXPECT_GT(slope, kFlat) << change << " t " << t;  // grows
        if (preset == Preset::mup) EXPECT_LE(slope, kFlat) << change << " t " << t;  // does not grow
        if (preset == Preset::mup && std::string(change) != "attn_logits_delta")
          EXPECT_GE(slope, -kFlat) << change << " t " << t;  // flat
      }
      std::printf("\n");
    }
  }
}

// η* of every width, each walked on the half-octave grid (bracket_best_lr) from the trend of the previous widths' η*.
double width_transfer_slope(Preset preset, double start) {
  std::vector<double> widths, best_lrs;
  for (int width : kWidths) {
    ExperimentSpec s = anchor_transformer(preset);
    s.task.train_size = 2000;
    s.precision = Precision::float32;  // where η* sits does not depend on float32's rounding; faster
    s.schedule.steps = 200;
    s.schedule.batch_size = 32;
    s.schedule.record_every = 200;
    s.sweep.width = {width};
    EXPECT_TRUE(check_spec(s).empty()) << check_spec(s)[0];
    const LrCurve c = bracket_best_lr(s, "", start, 12);
    std::printf("  %s d_model=%-4d log2 eta* %+.2f  best loss %.4f %s |", preset_name(preset), width,
                std::log2(c.best_lr), c.best_loss, c.bracketed ? "" : "(not bracketed)");
    for (size_t k = 0; k < c.lrs.size(); k++) std::printf(" %+.1f:%.4g", std::log2(c.lrs[k]), c.losses[k]);
    std::printf("\n");
    EXPECT_TRUE(c.bracketed) << preset_name(preset) << " d_model=" << width;
    widths.push_back(width);
    best_lrs.push_back(c.best_lr);
    const size_t n = best_lrs.size();
    const double next = n < 2 ? c.best_lr : c.best_lr * c.best_lr / best_lrs[n - 2];
    start *= std::exp2(0.5 * std::round(2 * std::log2(next / start)));
  }
  const double slope = loglog_slope(widths, best_lrs);  // the same in log2 as in ln
  std::printf("  %s: slope of log2 eta* vs log2 d_model %+.3f\n", preset_name(preset), slope);
  return slope;
}

TEST(TransformerMup, WidthTransfer) {
  const double mup = width_transfer_slope(Preset::mup, 1.0 / 16);  // starts: d_model 32's η* on an octave grid
  const double sp = width_transfer_slope(Preset::sp, 1.0 / 128);
  EXPECT_LT(std::abs(mup), 0.25);
  EXPECT_LT(std::abs(mup), std::abs(sp));
}
