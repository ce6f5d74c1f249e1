// μP for the anchor-function Transformer (Tensor Programs V), on the real engine with fixed seeds:
//   coordinate check: after t = 1 … 5 Adam steps at one learning rate, the RMS change of the attention logits, of
//   the last residual stream and of the output against d_model = 32 … 256 (2 heads, so d_head grows with d_model).
//   Under μP (1/fan_in hidden init and η/fan_in, readout 1/fan_in², attention 1/d_head) none grows: the stream's
//   and the output's changes stay flat, and the attention logits' change falls as d_head^-1/2, because at init
//   q and k are independent, so q·k/d_head ~ d_head^-1/2 until training aligns them (μP's attention starts out
//   uniform at large width). Under SP (PyTorch-default init, 1/√d_head attention, one η) all three grow.
// The measured slopes are printed, so notes can quote them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/analysis/analysis.hpp"
#include "engine/run/runner.hpp"

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
