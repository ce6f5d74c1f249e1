// Learning-rate transfer (experiment E2's criterion) on a data set the user brings: scikit-learn's breast-cancer CSV
// (569 rows, 30 features, 2 classes; Debian's python3-sklearn) as a table task.
//
// MLP 30-n-n-2 ReLU, n = 64, 256, 1024; Adam, batch 32, 56 steps (about four epochs of the 455 training rows); data
// and init seed 0. η* per width = the parabola vertex in log₂η through the grid minimum of the mean training loss over
// the run (batch_loss_mean) and its half-octave neighbours, found by bracket_best_lr (engine/analysis/lr_transfer.hpp).
// Acceptance, as for Fashion-MNIST (test_lr_transfer.cpp): under μP η* spans at most one octave across widths; under
// SP the slope of log₂η* against log₂n is ≤ −0.5.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "engine/analysis/analysis.hpp"
#include "engine/analysis/lr_transfer.hpp"
#include "engine/spec/spec.hpp"

namespace {

const std::vector<int> kWidths{64, 256, 1024};

ExperimentSpec transfer_spec(const char* preset) {
  SpecLimits limits;
  limits.table_dir = MUPLAY_SKLEARN_DATA_DIR;
  const SpecResult r = parse_spec_text(std::string(R"({"version": 1,
      "task": {"kind": "table", "input_dim": 30, "train_size": 455, "test_size": 114, "seed": 0,
               "table": {"file": "breast_cancer.csv", "type": "classification"}},
      "model": {"widths": [64, 64], "activation": "relu"}, "parametrization": {"preset": ")") + preset + R"("},
      "optimizer": {"kind": "adam"}, "schedule": {"steps": 56, "batch_size": 32, "record_every": 56,
      "divergence_loss": 1e300}, "metrics": ["batch_loss_mean"]})", limits);
  for (const std::string& e : r.errors) ADD_FAILURE() << e << " (apt-get install python3-sklearn: scripts/setup)";
  return r.spec;
}

// η* of every width; the walk starts at the previous width's η*, snapped to the half-octave grid of `start`.
std::vector<LrCurve> best_lrs(const char* preset, double start) {
  std::vector<LrCurve> curves;
  for (int width : kWidths) {
    ExperimentSpec s = transfer_spec(preset);
    s.sweep.width = {width};
    curves.push_back(bracket_best_lr(s, "", start));
    const LrCurve& c = curves.back();
    std::printf("  %s n=%-4d log2 η* %+.2f  best loss %.4f %s |", preset, width, std::log2(c.best_lr), c.best_loss,
                c.bracketed ? "" : "(grid edge)");
    for (size_t k = 0; k < c.lrs.size(); k++) std::printf(" %+.1f:%.4f", std::log2(c.lrs[k]), c.losses[k]);
    std::printf("\n");
    EXPECT_TRUE(c.bracketed) << preset << " n=" << width;
    start *= std::exp2(0.5 * std::round(2 * std::log2(c.best_lr / start)));
  }
  return curves;
}

}  // namespace

TEST(TableLrTransfer, MupBestLearningRateTransfers) {
  const std::vector<LrCurve> curves = best_lrs("mup", std::exp2(-2.5));
  double lo = INFINITY, hi = -INFINITY;
  for (const LrCurve& c : curves) {
    lo = std::min(lo, std::log2(c.best_lr));
    hi = std::max(hi, std::log2(c.best_lr));
  }
  std::printf("  mup: log2 η* range %.2f octaves\n", hi - lo);
  EXPECT_LE(hi - lo, 1.0);
}

TEST(TableLrTransfer, SpBestLearningRateShrinks) {
  const std::vector<LrCurve> curves = best_lrs("sp", std::exp2(-6.5));
  std::vector<double> widths, lrs;
  for (const LrCurve& c : curves) {
    widths.push_back(c.width);
    lrs.push_back(c.best_lr);
  }
  const double slope = loglog_slope(widths, lrs);
  std::printf("  sp: slope of log2 η* against log2 n %.2f\n", slope);
  EXPECT_LE(slope, -0.5);
}
