// E5 update rank (after Yang, Simon & Bernstein, "A Spectral Condition for Feature Learning"): the stable rank
// ‖ΔW‖_F² / ‖ΔW‖_*² of one SGD step's update against width.
// Batch 1: ΔW = −η δ xᵀ is rank one, so the stable rank is 1 (to 1e−6) at every width. Batch B: a sum of B
// outer products, so the stable rank stays ≤ B ≪ n and flat in n.
// Settings: the width-scaling default toy (2 hidden ReLU layers, d = 8, 64 train points, y = sin(2 x·v)), η = 0.5, one
// mini-batch SGD step from init, widths 64…1024, seeds 0…3. Measured quantities are printed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/analysis/analysis.hpp"
#include "engine/analysis/update_rank.hpp"

namespace {

const std::vector<int> kWidths{64, 128, 256, 512, 1024};
constexpr int kSeeds = 4;

ExperimentSpec one_step(Preset preset, int batch) {
  ExperimentSpec s;
  s.parametrization.preset = preset;
  s.optimizer.lr = 0.5;
  s.schedule.steps = 1;
  s.schedule.batch_size = batch;
  s.metrics = {"train_loss"};  // no test set: this test measures the weights only
  s.sweep.width = kWidths;
  for (int i = 0; i < kSeeds; i++) s.sweep.seeds.push_back(uint64_t(i));
  s.sweep.seeds.erase(s.sweep.seeds.begin());  // the default list holds seed 0 already
  return s;
}

// Stable rank of ΔW_l after one step for l = 0 … layers−1, per member of the sweep (in sweep order): out[l][k].
// The trained w and the effective W = n^-a w differ by a constant, which cancels in the ratio.
std::vector<std::vector<double>> update_ranks(const Runner& runner, int layers) {
  std::vector<std::vector<double>> out(static_cast<size_t>(layers));
  for (const auto& run : runner.members()) {
    const Mlp& m = *run->mlp();
    long total = 0;
    for (int l = 0; l < m.layers(); l++) total += m.layer_size(l);
    const std::vector<double> before(m.weights(0), m.weights(0) + total);  // one flat buffer, layer after layer
    run->step();
    EXPECT_EQ(run->status(), RunStatus::finished) << run->label();
    long offset = 0;
    for (int l = 0; l < layers; l++) {
      const int rows = m.dims()[size_t(l) + 1], cols = m.dims()[size_t(l)];
      std::vector<double> u(static_cast<size_t>(rows)), v(static_cast<size_t>(cols));
      out[size_t(l)].push_back(stable_rank(m.weights(l), &before[size_t(offset)], rows, cols, u.data(), v.data()));
      offset += m.layer_size(l);
    }
  }
  return out;
}

}  // namespace

TEST(UpdateRank, StableRankOfKnownMatrices) {
  std::vector<double> u(3), v(4);
  // Singular values 5, 3, 2: (25 + 9 + 4) / 25.
  const std::vector<double> diag{3, 0, 0, 0, 0, -5, 0, 0, 0, 0, 2, 0};
  EXPECT_NEAR(stable_rank(diag.data(), nullptr, 3, 4, u.data(), v.data()), 38.0 / 25, 1e-6);
  // A rank-one difference a bᵀ: exactly 1.
  const double a[3] = {1, -2, 2}, b[4] = {3, 0.5, 4, -1};
  std::vector<double> base(12), moved(12);
  for (int i = 0; i < 12; i++) {
    base[size_t(i)] = 0.3 * i - 1;
    moved[size_t(i)] = base[size_t(i)] + a[i / 4] * b[i % 4];
  }
  EXPECT_NEAR(stable_rank(moved.data(), base.data(), 3, 4, u.data(), v.data()), 1, 1e-12);
  EXPECT_EQ(stable_rank(base.data(), base.data(), 3, 4, u.data(), v.data()), 0.0);
}

TEST(UpdateRank, BatchOneGivesRankOneUpdates) {
  for (Preset preset : {Preset::mup, Preset::sp}) {
    // Every layer but the readout (1×n, rank one by shape): W1 (n×d) and W2 (n×n).
    Runner runner(one_step(preset, 1));
    const std::vector<std::vector<double>> per_layer = update_ranks(runner, 2);
    for (int l : {0, 1}) {
      const std::vector<double>& ranks = per_layer[size_t(l)];
      double worst = 0;
      for (double r : ranks) worst = std::max(worst, std::fabs(r - 1));
      std::printf("  %s batch 1, W%d: max |srank - 1| = %.2e over %zu members\n", preset_name(preset), l + 1, worst,
                  ranks.size());
      EXPECT_LE(worst, 1e-6) << preset_name(preset) << " W" << l + 1;
    }
  }
}

TEST(UpdateRank, BatchBStaysLowAndFlatInWidth) {
  constexpr int kBatch = 16;
  for (Preset preset : {Preset::mup, Preset::ntp}) {
    Runner runner(one_step(preset, kBatch));
    const std::vector<double> ranks = update_ranks(runner, 2)[1];  // W2, n×n
    // Per seed: slope of log srank against log n; members are in sweep order (width-major, then seed).
    std::vector<double> slopes, mean_rank(kWidths.size(), 0.0);
    for (int s = 0; s < kSeeds; s++) {
      std::vector<double> widths, values;
      for (size_t w = 0; w < kWidths.size(); w++) {
        const double r = ranks[w * kSeeds + size_t(s)];
        widths.push_back(kWidths[w]);
        values.push_back(r);
        mean_rank[w] += r / kSeeds;
        EXPECT_GE(r, 1 - 1e-9);
        EXPECT_LE(r, kBatch) << "n=" << kWidths[w] << " seed " << s;  // a sum of 16 outer products
      }
      slopes.push_back(loglog_slope(widths, values));
    }
    const MeanSem m = mean_sem(slopes);
    std::printf("  %s batch %d, W2: mean srank per width:", preset_name(preset), kBatch);
    for (size_t w = 0; w < kWidths.size(); w++) std::printf(" n=%d: %.3f", kWidths[w], mean_rank[w]);
    std::printf("; slope %+.3f ± %.3f\n", m.mean, m.sem);
    EXPECT_LE(mean_rank.back(), kWidths.front() / 8.0);  // ≪ n even at the smallest width
    EXPECT_LE(std::fabs(m.mean), 0.15) << preset_name(preset);  // flat: the E3 tolerance
  }
}
