// Experiment E2 (Tensor Programs V) at the reference's scale, from `muplay run` result files: learning-rate transfer
// on Fashion-MNIST with Adam, MLP 784-n-n-10 ReLU, n = 64…1024, the 10 000-image subset, batch 128, one epoch
// (78 steps), float32 products. μP: seeds 0 and 1 (init and batch order; the loss is averaged over them before the
// fit: the best losses of seeds 0 and 1 differ by up to 0.023, more than the ±0.005 allowed). SP: seed 0.
//
// The ctest e2_lr_transfer_scale first trains the sweeps of tests/e2/*.json with muplay (2 threads) into this
// binary's folder; this test reads their result files. η* per width is the vertex of the parabola in log₂η
// through the grid minimum of the mean training loss over the epoch (summary.final_batch_loss_mean) and its two
// half-octave neighbours (engine/analysis/lr_transfer.hpp). Acceptance: under μP η* spans at most one octave
// across widths and the best loss does not rise with width (±0.005); under SP the slope of log₂η* against log₂n
// is ≤ −0.5. μP has one grid for every width; SP's η* moves, so each SP file has its own grid around it: every
// grid minimum must be inside its grid, or η* would only be a bound.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "engine/analysis/analysis.hpp"
#include "engine/analysis/lr_transfer.hpp"
#include "engine/base/json.hpp"

namespace {

// Each run of a result document as (width, lr, mean training loss over the epoch); +inf when it did not finish.
void read_points(const std::string& file, std::vector<LrPoint>& points) {
  const std::string path = std::string(MUPLAY_E2_RESULTS_DIR) + "/" + file;
  std::ifstream in(path);
  ASSERT_TRUE(in) << path << " is missing: run `ctest -R e2_lr_transfer_scale`, which writes it with muplay";
  std::stringstream text;
  text << in.rdbuf();
  const json::ParseResult doc = json::parse(text.str());
  ASSERT_TRUE(doc.ok()) << path << ": " << doc.error;
  for (const json::Value& run : doc.value.find("runs")->array) {
    const json::Value* loss = run.find("summary")->find("final_batch_loss_mean");
    const bool finished = run.find("status")->string == "finished" && loss && loss->is_number();
    points.push_back({int(run.find("width")->number), run.find("lr")->number, finished ? loss->number : INFINITY});
  }
}

std::vector<LrCurve> curves_of(const std::vector<std::string>& files) {
  std::vector<LrPoint> points;
  for (const std::string& file : files) read_points(file, points);
  const std::vector<LrCurve> curves = lr_curves(points);
  for (const LrCurve& c : curves) {
    std::printf("  n=%-4d log2 η* %+.2f  best loss %.4f |", c.width, std::log2(c.best_lr), c.best_loss);
    for (size_t k = 0; k < c.lrs.size(); k++) std::printf(" %+.1f:%.4f", std::log2(c.lrs[k]), c.losses[k]);
    std::printf("\n");
    EXPECT_TRUE(c.bracketed) << "n=" << c.width << ": the grid minimum is at the grid's edge (or a neighbour diverged)";
  }
  EXPECT_EQ(curves.size(), 5u) << "widths 64, 128, 256, 512, 1024";
  return curves;
}

void record(const std::string& key, double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.3f", value);
  std::printf("  %s = %s\n", key.c_str(), text);
  ::testing::Test::RecordProperty(key, text);
}

}  // namespace

TEST(E2Scale, AdamMupBestLearningRateTransfers) {
  const std::vector<LrCurve> curves = curves_of({"e2-adam-mup-64-512.result.json", "e2-adam-mup-1024.result.json"});
  std::vector<double> widths, lrs;
  double lo = INFINITY, hi = -INFINITY;
  for (const LrCurve& c : curves) {
    widths.push_back(c.width);
    lrs.push_back(c.best_lr);
    lo = std::min(lo, std::log2(c.best_lr));
    hi = std::max(hi, std::log2(c.best_lr));
  }
  record("mup_log2_best_lr_slope", loglog_slope(widths, lrs));
  record("mup_log2_best_lr_range_octaves", hi - lo);
  EXPECT_LE(hi - lo, 1.0);
  for (size_t w = 1; w < curves.size(); w++)
    EXPECT_LE(curves[w].best_loss, curves[w - 1].best_loss + 0.005) << "n=" << curves[w].width;
}

TEST(E2Scale, AdamSpBestLearningRateShrinks) {
  const std::vector<LrCurve> curves = curves_of(
      {"e2-adam-sp-64-256.result.json", "e2-adam-sp-512.result.json", "e2-adam-sp-1024.result.json"});
  std::vector<double> widths, lrs;
  for (const LrCurve& c : curves) {
    widths.push_back(c.width);
    lrs.push_back(c.best_lr);
  }
  const double slope = loglog_slope(widths, lrs);
  record("sp_log2_best_lr_slope", slope);
  EXPECT_LE(slope, -0.5);
}
