// Initial condensation (the book's chapter 8): 5-50-1 with the bias folded in, every weight N(0, s²),
// full-batch Adam on y = Σ_k 3.5 sin(5x_k + 1), x_k ~ U[−4, 2], n = 80.
// p = 1 (tanh, sigmoid on the centered target), Adam 1e-3, step 50: at s = 1e-3 two antipodal groups (|cos| ≥ 0.9)
// hold ≥ 95% of the amplitude; at s = 0.5 at most 30%. For x tanh x and x² tanh x only the ordering of line counts
// is checked: the book's 4 / 6 directions did not reproduce (examples/README.md, "Condensation: directions and the
// polar view").
#include <gtest/gtest.h>

#include "phenomena_util.hpp"

namespace {

struct Condensation {
  std::vector<double> share, lines;  // per seed, at the last step
};

Condensation at_step(int steps, double lr, const std::string& activation, double s, bool centered,
                     const std::string& seeds) {
  const ExperimentSpec spec = spec_from(R"({"version":1,
    "model":{"widths":[50],"activation":")" + activation + R"(","input_bias":true},
    "parametrization":{"preset":"normal","init_scale":)" + std::to_string(s) + R"(},
    "task":{"kind":"sum_sin","input_dim":5,"train_size":80,"test_size":80,"center_target":)" +
                                        (centered ? "true" : "false") + R"(},
    "optimizer":{"kind":"adam","lr":)" + std::to_string(lr) + R"(},
    "schedule":{"steps":)" + std::to_string(steps) + R"(,"record_every":)" + std::to_string(steps) + R"(},
    "sweep":{"seeds":[)" + seeds + R"(]},"metrics":["train_loss","condensation"]})");
  Runner runner(spec);
  while (runner.step()) {}
  Condensation out;
  for (const auto& run : runner.members()) {
    out.share.push_back(last(*run, "condensation/share"));
    out.lines.push_back(last(*run, "condensation/lines"));
  }
  return out;
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / double(v.size());
}

}  // namespace

// Measured (seeds 0-2): tanh s=1e-3 share 1.000 ×3, s=0.5 0.141/0.074/0.106; sigmoid centered s=1e-3
// 1.000/1.000/0.997, s=0.5 0.137/0.094/0.098.
TEST(InitialCondensation, FirstOrderActivationsCondenseOnOneLineUnderSmallInit) {
  for (const auto& [activation, centered] : {std::pair<std::string, bool>{"tanh", false}, {"sigmoid", true}}) {
    for (double share : at_step(50, 1e-3, activation, 1e-3, centered, "0,1,2").share)
      EXPECT_GE(share, 0.95) << activation << " s=1e-3";
    for (double share : at_step(50, 1e-3, activation, 0.5, centered, "0,1,2").share)
      EXPECT_LE(share, 0.3) << activation << " s=0.5";
  }
}

// Line counts at step 50 (|cos| ≥ 0.9 groups covering 95% of the amplitude), mean over seeds 0-9. Measured:
// tanh 1.0, x tanh x 4.7 (per seed 4 4 5 5 5 5 5 5 5 4), x² tanh x 4.7 (5 5 3 4 3 4 4 7 6 6).
TEST(InitialCondensation, SecondOrderActivationUsesMoreLinesThanFirstOrder) {
  const std::string seeds = "0,1,2,3,4,5,6,7,8,9";
  EXPECT_GT(mean(at_step(50, 1e-3, "x_tanh", 1e-3, true, seeds).lines),
            mean(at_step(50, 1e-3, "tanh", 1e-3, true, seeds).lines));
}

// The full ordering x² tanh > x tanh > tanh of the mean line count, at Adam lr 5e-4, s = 1e-2, step 200: after the
// plateau (train loss ~0.9 of its start). Measured (seeds 0-9): x² tanh 8.8 (8 8 7 10 8 11 8 9 10 9), x tanh 7.1
// (6 7 7 8 6 7 9 8 8 5), tanh 2.5; the float64 reference (tests/crosscheck/condensation_reference.py, its own data
// and init, seeds 0-2) 9.3 / 6.0 / 3.0. Inside the plateau it does not hold (step 100: 6.2 / 6.5 / 1.1), and the
// counts are not the book's 3 / 2 / 1 lines; examples/README.md's table has every reading.
TEST(InitialCondensation, LineCountsFollowTheActivationsOrderAfterThePlateau) {
  const std::string seeds = "0,1,2,3,4,5,6,7,8,9";
  const double x2_tanh = mean(at_step(200, 5e-4, "x2_tanh", 1e-2, true, seeds).lines);
  const double x_tanh = mean(at_step(200, 5e-4, "x_tanh", 1e-2, true, seeds).lines);
  const double tanh = mean(at_step(200, 5e-4, "tanh", 1e-2, true, seeds).lines);
  EXPECT_GT(x2_tanh, x_tanh + 1);
  EXPECT_GT(x_tanh, tanh + 3);
}
