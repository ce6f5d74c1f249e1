// Parity, the frequency principle's counter-example (book §4.2.3): ReLU 10-500-1, LeCun init, no
// bias, full-batch Adam 1e-3, MSE, 200 train / 824 test corners of {±1}^10. At the first step with 100% train
// accuracy the test accuracy is at chance, while the low-frequency control x₁·x₂ on the same split generalizes.
#include <gtest/gtest.h>

#include "phenomena_util.hpp"

namespace {

struct FirstFit {
  int step = -1;
  double test_accuracy = 0;
};

// Steps until the train sign accuracy first reaches 100% (at most 1000 steps).
FirstFit first_perfect_fit(const std::string& target, uint64_t seed) {
  const ExperimentSpec s = spec_from(R"({"version":1,"model":{"widths":[500],"activation":"relu"},
    "parametrization":{"preset":"sp"},
    "task":{"kind":"boolean_cube","target":")" + target + R"(","input_dim":10,"train_size":200,"test_size":824},
    "optimizer":{"kind":"adam","lr":0.001},"schedule":{"steps":1000,"record_every":1},
    "sweep":{"seeds":[)" + std::to_string(seed) + R"(]},"metrics":["train_loss","sign_accuracy"]})");
  Runner runner(s);
  const Member& run = *runner.members()[0];
  while (runner.step())
    if (last(run, "sign_accuracy/train") == 1.0) return {run.recorded_steps().back(), last(run, "sign_accuracy/test")};
  return {};
}

}  // namespace

// Measured (this engine): parity seeds 0, 1, 2 reach 100% train at steps 168, 154, 198 with test 0.482, 0.499,
// 0.536; x₁·x₂ seed 0 at step 56 with test 0.955.
TEST(Parity, TestAccuracyAtFirstPerfectFitIsChance) {
  for (uint64_t seed : {0, 1}) {
    const FirstFit fit = first_perfect_fit("parity", seed);
    ASSERT_GE(fit.step, 0) << "seed " << seed << " never fit the train set";
    EXPECT_GE(fit.test_accuracy, 0.35) << "seed " << seed << " step " << fit.step;
    EXPECT_LE(fit.test_accuracy, 0.65) << "seed " << seed << " step " << fit.step;
  }
}

TEST(Parity, LowFrequencyControlGeneralizes) {
  const FirstFit fit = first_perfect_fit("x1x2", 0);
  ASSERT_GE(fit.step, 0);
  EXPECT_GE(fit.test_accuracy, 0.85) << "step " << fit.step;
}
