// Width-scaling acceptance checks on the real engine, with fixed seeds:
// E3 coordinate check, E4 weight change, E1 maximal learning rate vs width.
//
// Every check fits a log-log slope against width per seed and compares the mean over seeds with the
// prediction. The measured slopes (mean ± standard error over seeds) are printed and recorded as test
// properties, so notes can quote them. All runs use the default toy: 2 hidden ReLU layers, d = 8,
// y = sin(2 x·v) on 64 train points (unless a test says otherwise), square loss, full-batch SGD, float64.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>

#include "engine/analysis/analysis.hpp"
#include "engine/analysis/lr_scan.hpp"
#include "engine/kernels/spectral.hpp"

namespace {

constexpr double kTolerance = 0.15;  // on a fitted slope: E3's tolerance, used for E4 too

std::vector<uint64_t> seeds(int count) {
  std::vector<uint64_t> out;
  for (int i = 0; i < count; i++) out.push_back(uint64_t(i));
  return out;
}

ExperimentSpec toy(Preset preset, std::vector<int> widths, int seed_count, int steps) {
  ExperimentSpec s;
  s.model.widths = {64, 64};
  s.parametrization.preset = preset;
  s.optimizer.lr = 0.5;  // the reference's η
  s.schedule.steps = steps;
  s.schedule.divergence_loss = 1e300;  // SP's blow-up is a measurement here, not a reason to stop
  s.sweep.width = std::move(widths);
  s.sweep.seeds = seeds(seed_count);
  return s;
}

void run_to_end(Runner& runner) {
  while (runner.step()) {}
}

// Prints a measured slope and records it as a test property (the XML report keeps it).
void report_slope(const std::string& label, const MeanSem& m) {
  char text[64];
  std::snprintf(text, sizeof text, "%+.3f ± %.3f", m.mean, m.sem);
  std::printf("  %-40s slope %s\n", label.c_str(), text);
  std::string key = label;  // a property name is an XML attribute name: letters, digits and '_' only
  for (char& ch : key)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  ::testing::Test::RecordProperty(key, text);
}

// Mean ± sem over seeds of the slope of `series` at `record`, reported under `label`.
MeanSem measured_slope(const Runner& runner, const std::string& series, int record, const std::string& label) {
  const MeanSem m = mean_sem(slopes_per_seed(runner, series, record));
  report_slope(label, m);
  return m;
}

}  // namespace

// The helpers on cases with known answers.
TEST(Analysis, LogLogSlopeOfAPowerLaw) {
  const std::vector<double> n{64, 128, 256, 512, 1024};
  std::vector<double> y;
  for (double x : n) y.push_back(3 * std::pow(x, -0.5));
  EXPECT_NEAR(loglog_slope(n, y), -0.5, 1e-12);
  y[2] = 0;  // not on log axes
  EXPECT_TRUE(std::isnan(loglog_slope(n, y)));
  const MeanSem m = mean_sem({1, 2, 3, 4});
  EXPECT_DOUBLE_EQ(m.mean, 2.5);
  EXPECT_NEAR(m.sem, std::sqrt(5.0 / 3 / 4), 1e-15);
}

TEST(Analysis, SpectralNormOfKnownMatrices) {
  // 3×4 with singular values 5, 3, 2.
  const std::vector<double> diag{3, 0, 0, 0, 0, -5, 0, 0, 0, 0, 2, 0};
  std::vector<double> u(3), v(4);
  // The iteration stops when a step raises the estimate by < 1e-7 (relative): about that accurate here.
  EXPECT_NEAR(spectral_norm(diag.data(), nullptr, 3, 4, u.data(), v.data()), 5, 5 * 1e-6);
  // A − B = a bᵀ (rank one): the norm is ‖a‖ ‖b‖ = 3 · 5.
  const double a[3] = {1, 2, 2}, b[4] = {3, 0, 4, 0};
  std::vector<double> rank_one(12), base(12);
  for (int i = 0; i < 12; i++) {
    base[size_t(i)] = 0.1 * i - 0.4;
    rank_one[size_t(i)] = base[size_t(i)] + a[i / 4] * b[i % 4];
  }
  EXPECT_NEAR(spectral_norm(rank_one.data(), base.data(), 3, 4, u.data(), v.data()), 15, 15 * 1e-12);
  EXPECT_EQ(spectral_norm(base.data(), base.data(), 3, 4, u.data(), v.data()), 0.0);
}

TEST(Analysis, QuarterOctaveGrid) {
  const std::vector<double> grid = log2_grid(0.5, 4, 4);
  ASSERT_EQ(grid.size(), 13u);  // three octaves, four steps each, both ends included
  EXPECT_EQ(grid.front(), 0.5);
  EXPECT_DOUBLE_EQ(grid.back(), 4);
  EXPECT_DOUBLE_EQ(grid[1] / grid[0], std::exp2(0.25));
}

// ---------------------------------------------------------------------------------------------------------
// E3 coordinate check: RMS over the probe batch of Δh¹, Δh², Δf after one SGD step (record 1) and of f₀
// (record 0) against width. Predicted slopes (from the abc exponents, Tensor Programs IV): μP (0, 0, 0, −½);
// NTP (−½, −½, 0, 0); SP with c = 1 (−3/2, −½, 0, 0); SP with c = 0 (−½, +½, ≥ 1, 0), and from step 2 on it blows up.
// Settings: widths 64…1024, seeds 0…7, η = 0.5, 64 train points (the probe batch is the whole train set);
// one step (two for SP).
namespace {

const std::vector<int> kCoordWidths{64, 128, 256, 512, 1024};
constexpr int kCoordSeeds = 8;

struct DeltaSlopes {
  MeanSem dh1, dh2, df;
};

DeltaSlopes delta_slopes(const Runner& r, const char* preset, int record) {
  const std::string at = std::string(preset) + " step " + std::to_string(record) + ": ";
  return {measured_slope(r, "act_delta_rms/h1", record, at + "dh1"),
          measured_slope(r, "act_delta_rms/h2", record, at + "dh2"),
          measured_slope(r, "act_delta_rms/f", record, at + "df")};
}

MeanSem output_at_init_slope(const Runner& r, const char* preset) {
  return measured_slope(r, "act_rms/f", 0, std::string(preset) + ": |f0|");
}

void run_coord_check(Runner& runner) {
  run_to_end(runner);
  for (const auto& run : runner.members()) EXPECT_EQ(run->status(), RunStatus::finished) << run->label();
}

ExperimentSpec coord_check_spec(Preset preset, int steps) {
  ExperimentSpec s = toy(preset, kCoordWidths, kCoordSeeds, steps);
  s.metrics = {"train_loss", "act_rms", "act_delta_rms"};
  return s;
}

}  // namespace

TEST(CoordinateCheck, SlopesAfterOneStep) {
  struct Case {
    Preset preset;
    double dh1, dh2, df, f0;
  };
  for (const Case& c : {Case{Preset::mup, 0, 0, 0, -0.5}, Case{Preset::ntp, -0.5, -0.5, 0, 0},
                        Case{Preset::sp_lr_over_n, -1.5, -0.5, 0, 0}}) {
    const char* name = preset_name(c.preset);
    Runner runner(coord_check_spec(c.preset, 1));
    run_coord_check(runner);
    const DeltaSlopes got = delta_slopes(runner, name, 1);
    EXPECT_NEAR(got.dh1.mean, c.dh1, kTolerance) << name << " Δh1";
    EXPECT_NEAR(got.dh2.mean, c.dh2, kTolerance) << name << " Δh2";
    EXPECT_NEAR(got.df.mean, c.df, kTolerance) << name << " Δf";
    EXPECT_NEAR(output_at_init_slope(runner, name).mean, c.f0, kTolerance) << name << " |f0|";
  }
}

TEST(CoordinateCheck, StandardParametrizationBlowsUp) {
  Runner runner(coord_check_spec(Preset::sp, 2));
  run_coord_check(runner);
  const DeltaSlopes one = delta_slopes(runner, "sp", 1);
  EXPECT_NEAR(one.dh1.mean, -0.5, kTolerance);
  EXPECT_NEAR(one.dh2.mean, 0.5, kTolerance);
  EXPECT_GE(one.df.mean, 1 - kTolerance);  // Δf grows at least like n
  EXPECT_NEAR(output_at_init_slope(runner, "sp").mean, 0, kTolerance);
  // Step 2 feeds step 1's grown features back in: the exponents themselves grow.
  const DeltaSlopes two = delta_slopes(runner, "sp", 2);
  EXPECT_GT(two.dh2.mean, one.dh2.mean + kTolerance);
  EXPECT_GT(two.df.mean, one.df.mean + kTolerance);
}

// ---------------------------------------------------------------------------------------------------------
// E4 weight change: ‖W₂ − W₂⁰‖_* / ‖W₂⁰‖_* after T steps against width: slope 0 under μP (the hidden
// weights move by Θ(1) relative to themselves: feature learning), −½ under NTP (they freeze: kernel regime).
// At init, a Gaussian n×n matrix of entry std σ has ‖W‖_* ≈ σ(√n + √n): within 5% for n ≥ 256.
// Settings: widths 64…1024, seeds 0…3, η = 0.5, T = 3 steps.
namespace {

constexpr int kWeightSteps = 3;

}  // namespace

TEST(WeightChange, SpectralNormAtInitMatchesTheGaussianEdge) {
  ExperimentSpec s = toy(Preset::mup, {256, 512, 1024}, 4, 1);
  Runner runner(s);  // not stepped: the weights are at init
  for (const auto& run : runner.members()) {
    const Mlp& m = *run->mlp();
    // W₂ is n×n; W₁ (n×d, d = 8) is printed for comparison only: σ(√m + √n) is the edge for large m and n.
    double ratio[2];
    for (int l : {0, 1}) {
      const int rows = m.dims()[size_t(l) + 1], cols = m.dims()[size_t(l)];
      std::vector<double> u(static_cast<size_t>(rows)), v(static_cast<size_t>(cols));
      const double norm = spectral_norm(m.weights(l), nullptr, rows, cols, u.data(), v.data());
      ratio[l] = norm / (m.scaling()[size_t(l)].init_std * (std::sqrt(double(rows)) + std::sqrt(double(cols))));
    }
    std::printf("  %-24s ‖W‖_*/(σ(√m+√n)): W2 %.4f (W1 %.4f)\n", run->label().c_str(), ratio[1], ratio[0]);
    EXPECT_GE(ratio[1], 0.95) << run->label();
    EXPECT_LE(ratio[1], 1.05) << run->label();
  }
}

TEST(WeightChange, HiddenWeightsMoveUnderMupAndFreezeUnderNtp) {
  for (Preset preset : {Preset::mup, Preset::ntp}) {
    ExperimentSpec s = toy(preset, {64, 128, 256, 512, 1024}, 4, kWeightSteps);
    s.schedule.record_every = kWeightSteps;  // records at init and after T steps
    s.metrics = {"train_loss", "weight_delta_spectral"};
    Runner runner(s);
    run_to_end(runner);
    for (const auto& run : runner.members()) {
      ASSERT_EQ(run->status(), RunStatus::finished) << run->label();
      EXPECT_EQ(run->find_series("weight_delta_spectral/W2")->values[0], 0.0);  // no change at init
    }
    const std::string name = preset_name(preset);
    const std::string at = name + " step " + std::to_string(kWeightSteps) + ": ";
    measured_slope(runner, "weight_delta_spectral/W1", 1, at + "dW1/W1");
    const MeanSem w2 = measured_slope(runner, "weight_delta_spectral/W2", 1, at + "dW2/W2");
    measured_slope(runner, "weight_delta_spectral/W3", 1, at + "dW3/W3");
    EXPECT_NEAR(w2.mean, preset == Preset::mup ? 0.0 : -0.5, kTolerance) << name;
  }
}

// ---------------------------------------------------------------------------------------------------------
// E1 maximal learning rate: η_max = largest η on a ¼-octave log₂ grid whose 10-step full-batch run passes
// (finite loss, L_T < L_0, output not identically zero; see engine/analysis/lr_scan.hpp). Slope of log₂ η_max
// against log₂ n: μP |s| ≤ 0.2, SP s ∈ [−1.2, −0.6].
// Settings: widths 32…512, seeds 0…3, T = 10, and 16 train points instead of 64 (a trial costs ∝ batch·n²,
// and a scan runs ~20 trials per member). Grids: from 2^-1 (SP) or 2^2 (μP) up to 2^6, the lowest value
// at least an octave below every member's η_max (checked: a scan only needs some passing value below η_max)
// and the highest above η_max by more than the scan's patience (checked: no pass can hide above the grid).
// Measured: these settings with seeds 0…7: μP −0.013 ± 0.016, SP −0.634 ± 0.021. With 64 train points and
// widths 32…1024 (seeds 0…7; minutes, too slow here): μP +0.027 ± 0.013, SP −0.682 ± 0.025 (reference:
// −0.02 ± 0.01, −0.75 ± 0.03). SP's slope steepens with width toward the asymptotic −1 (η_max ∝ 1/n:
// −0.55 over 32…128, −0.77 over 128…1024), so a narrow width range reads shallower and sits near −0.6.
namespace {

const std::vector<int> kLrWidths{32, 64, 128, 256, 512};
constexpr int kLrSeeds = 4;

MeanSem max_lr_slope(Preset preset, const std::vector<double>& grid) {
  ExperimentSpec s;
  s.model.widths = {64, 64};
  s.parametrization.preset = preset;
  s.task.train_size = 16;
  s.schedule.steps = 10;
  std::vector<double> slopes, mean_log2(kLrWidths.size(), 0.0);
  for (uint64_t seed : seeds(kLrSeeds)) {
    std::vector<double> widths, lrs;
    for (size_t w = 0; w < kLrWidths.size(); w++) {
      const LrScan scan = max_stable_lr(s, kLrWidths[w], seed, grid);
      const std::string member = std::string(preset_name(preset)) + " n=" + std::to_string(kLrWidths[w]) +
                                 " seed " + std::to_string(seed);
      EXPECT_GE(scan.max_lr, 2 * grid.front()) << member;
      EXPECT_LE(scan.max_lr, grid[grid.size() - 1 - kLrScanPatience]) << member;
      widths.push_back(kLrWidths[w]);
      lrs.push_back(scan.max_lr);
      mean_log2[w] += std::log2(scan.max_lr) / kLrSeeds;
    }
    slopes.push_back(loglog_slope(widths, lrs));
  }
  std::printf("  %s mean log2 η_max per width:", preset_name(preset));
  for (size_t w = 0; w < kLrWidths.size(); w++) std::printf(" n=%d: %.2f", kLrWidths[w], mean_log2[w]);
  std::printf("\n");
  const MeanSem m = mean_sem(slopes);
  report_slope(std::string(preset_name(preset)) + ": log2 max lr", m);
  return m;
}

}  // namespace

TEST(MaxLearningRate, FlatUnderMup) {
  const MeanSem s = max_lr_slope(Preset::mup, log2_grid(4, 64, 4));
  EXPECT_LE(std::fabs(s.mean), 0.2);
}

TEST(MaxLearningRate, ShrinksWithWidthUnderSp) {
  const MeanSem s = max_lr_slope(Preset::sp, log2_grid(0.5, 64, 4));
  EXPECT_GE(s.mean, -1.2);
  EXPECT_LE(s.mean, -0.6);
}

// The presets 17-max-lr-* run E1 as a plain sweep (width × lr grid × seeds) and the page reads η_max off it with
// max_lr_table: it must give each member the η_max of the engine's own upward scan.
TEST(MaxLearningRate, TableOfASweepMatchesTheScan) {
  ExperimentSpec s;
  s.parametrization.preset = Preset::mup;
  s.task.train_size = 16;
  s.schedule.steps = 10;
  s.schedule.record_every = 10;
  s.schedule.divergence_loss = 1e300;
  s.metrics = {"train_loss", "act_rms"};
  s.sweep.width = {32, 64};
  s.sweep.seeds = seeds(2);
  s.sweep.lr = log2_grid(4, 32, 4);
  Runner runner(s);
  run_to_end(runner);
  const MaxLrTable table = max_lr_table(runner);
  ASSERT_EQ(table.curves.size(), 2u);
  ASSERT_EQ(table.slopes.size(), 2u);
  for (size_t w = 0; w < 2; w++) {
    const MaxLrCurve& curve = table.curves[w];
    double mean_log2 = 0;
    for (uint64_t seed : s.sweep.seeds) {
      const LrScan scan = max_stable_lr(s, curve.width, seed, s.sweep.lr);
      EXPECT_GT(scan.max_lr, s.sweep.lr.front()) << "n=" << curve.width << " seed " << seed;
      mean_log2 += std::log2(scan.max_lr) / 2;
    }
    EXPECT_DOUBLE_EQ(curve.max_lr, std::exp2(mean_log2)) << "n=" << curve.width;
    ASSERT_FALSE(curve.lrs.empty());
    EXPECT_LE(curve.lrs.back(), curve.max_lr * (1 + 1e-12));  // the curve ends at η_max
    EXPECT_GT(curve.lrs.back(), curve.max_lr / std::exp2(0.5));
    EXPECT_LT(curve.loss_ratio.front(), 1.0);  // the smallest η trains: L_T < L_0
  }
  EXPECT_TRUE(std::isfinite(table.slope.mean));
}
