// The time budget (engine/spec/time_budget.hpp): the FLOP count of a sweep by hand, the refusal message (estimate and
// limit), the page's stricter budget, and that every preset of examples/ fits the page's budget.
#include <gtest/gtest.h>

#include "engine/spec/memory_budget.hpp"
#include "engine/spec/presets.hpp"
#include "engine/spec/spec.hpp"
#include "engine/spec/spec_migrations.hpp"
#include "engine/spec/time_budget.hpp"
#include "web/app/page_limits.hpp"

namespace {

ExperimentSpec spec_of(const std::string& text) {
  SpecResult r = parse_spec_text(text);
  EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0]);
  return r.spec;
}

std::string replaced_steps(std::string text, const std::string& steps) {
  const size_t at = text.find("\"steps\":") + 8;
  return text.replace(at, text.find(',', at) - at, steps);
}

std::string joined(const std::vector<std::string>& errors) {
  std::string all;
  for (const auto& e : errors) all += e + "\n";
  return all;
}

}  // namespace

TEST(TimeBudget, FlopsOfATinyFullBatchSweepByHand) {
  // dims 2-3-1: P = 2·3 + 3·1 = 9 weights, 3 ReLUs; one example's forward pass 2·9 + 2·3 = 24 FLOPs (products, and
  // ReLU and its derivative at 2 per unit); full batch of 4; per step 3 forward passes' worth 3·24·4 + the optimizer's
  // 10·9 = 378; records 10/5 + 2 = 4 evaluate nothing beyond the step's own batch (no test metric); two learning rates.
  const ExperimentSpec s = spec_of(R"({"version":1,"model":{"widths":[3]},"task":{"input_dim":2,"train_size":4},
      "schedule":{"steps":10,"record_every":5},"sweep":{"lr":[0.1,0.2]},"metrics":["train_loss"]})");
  EXPECT_DOUBLE_EQ(estimate_flops(s), 2 * 10 * 378.0);
}

TEST(TimeBudget, RecordsCountTheTrainSetTheTestSetAndTheProbe) {
  // Mini-batches of 2 from 8 examples, test set 6, act_rms probe min(128, 8) = 8; widths 3 and 5 (dims 2-w-1).
  const ExperimentSpec s = spec_of(R"({"version":1,"model":{"widths":[3]},
      "task":{"input_dim":2,"train_size":8,"test_size":6},"schedule":{"steps":4,"batch_size":2,"record_every":2},
      "sweep":{"width":[3,5]},"metrics":["train_loss","test_loss","act_rms"]})");
  double expected = 0;
  for (double w : {3.0, 5.0}) {
    const double p = 2 * w + w * 1, forward = 2 * p + 2 * w;  // products and ReLUs
    expected += 4 * (3 * forward * 2 + 10 * p) + (4 / 2 + 2) * (forward * (8 + 6 + 8));
  }
  EXPECT_DOUBLE_EQ(estimate_flops(s), expected);
}

TEST(TimeBudget, PowerIterationsOfWeightDeltaSpectralAreCountedAtTheirCap) {
  const std::string base = R"({"version":1,"model":{"widths":[3]},"task":{"input_dim":2,"train_size":4},
      "schedule":{"steps":10,"record_every":5},"metrics":["train_loss")";
  const double without = estimate_flops(spec_of(base + "]}"));
  const double with = estimate_flops(spec_of(base + R"(,"weight_delta_spectral"]})"));
  EXPECT_DOUBLE_EQ(with - without, 4 * (4 * 9.0 * 300));
}

TEST(TimeBudget, TooLongIsRefusedWithTheEstimateAndTheLimit) {
  // 64 members × 10^6 full-batch steps of a 784-512-512-10 net on 2048 examples: ~1e19 FLOP, years at any rate.
  const std::string huge = R"({"version":1,"model":{"widths":[512,512]},"task":{"input_dim":784,"train_size":2048},
      "schedule":{"steps":1000000,"record_every":1000},"sweep":{"lr":[)" + std::string("0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8]") +
      R"(,"seeds":[0,1,2,3,4,5,6,7]}})";
  const SpecResult r = parse_spec_text(huge);
  ASSERT_FALSE(r.ok());
  const std::string all = joined(r.errors);
  EXPECT_NE(all.find("sweep: would train for about "), std::string::npos) << all;
  EXPECT_NE(all.find("days ("), std::string::npos) << all;
  EXPECT_NE(all.find("GFLOP, at an assumed 8 GFLOP/s), more than the limit of 24 h on the command line"), std::string::npos) << all;
}

TEST(TimeBudget, ThePageRefusesWhatTheCommandLineAccepts) {
  // The book-sized E2 sweep of examples/README.md without its n = 1024 members (which the memory budget refuses):
  // 4 widths × 9 learning rates, one epoch of 10 000 images, batch 128.
  const std::string e2 = R"({"version":1,"model":{"widths":[256,256]},"parametrization":{"preset":"mup"},
      "task":{"kind":"sin_regression","input_dim":784,"train_size":10000,"test_size":2000},
      "optimizer":{"kind":"adam"},"schedule":{"steps":78,"batch_size":128,"record_every":78},
      "sweep":{"width":[64,128,256,512],"lr":[0.0078125,0.011048543,0.015625,0.022097087,0.03125,
               0.044194174,0.0625,0.088388348,0.125]},"metrics":["train_loss","batch_loss_mean"]})";
  // Hand estimate for comparison: Σ_n 9 · (78·(3·F·128 + 10·P) + 3·F·10 000), P = 784n + n² + n weights and
  // F = 2·P + 2·2n FLOPs of one example's forward pass (products, and two layers of n ReLUs).
  double expected = 0;
  for (double n : {64.0, 128.0, 256.0, 512.0}) {
    const double p = 784 * n + n * n + n, forward = 2 * p + 2 * 2 * n;
    expected += 9 * (78 * (3 * forward * 128 + 10 * p) + 3 * forward * 10000);
  }
  const ExperimentSpec s = spec_of(e2);
  EXPECT_DOUBLE_EQ(estimate_flops(s), expected);
  EXPECT_TRUE(check_spec(s).empty()) << joined(check_spec(s));
  const std::string all = joined(check_spec(s, SpecLimits{TimeBudget{1.0e9, 60.0, "in the browser"}}));  // one minute
  EXPECT_NE(all.find("more than the limit of 60 s in the browser"), std::string::npos) << all;
}

TEST(TimeBudget, EveryPresetFitsThePagesBudget) {
  const SpecLimits page{kBrowserTimeBudget, MUPLAY_FASHION_MNIST_DIR};  // the presets 15-* read this build's subset
  const std::vector<PresetFile> presets = list_presets(MUPLAY_EXAMPLES_DIR, page);
  ASSERT_GE(presets.size(), 10u);
  for (const PresetFile& p : presets) {
    EXPECT_TRUE(p.errors.empty()) << p.path << ": " << joined(p.errors);
    const ExperimentSpec s = read_spec_text(p.text, page).spec;
    EXPECT_LT(estimate_seconds(s, kBrowserTimeBudget), kBrowserTimeBudget.max_seconds / 4) << p.path;
  }
}

TEST(TimeBudget, DurationsReadLikeAPersonWouldSayThem) {
  EXPECT_EQ(describe_duration(40), "40 s");
  EXPECT_EQ(describe_duration(14 * 60 + 10), "14 min");
  EXPECT_EQ(describe_duration(3600), "1 h");
  EXPECT_EQ(describe_duration(3.25 * 3600), "3.2 h");
  EXPECT_EQ(describe_duration(5 * 86400), "5 days");
}

TEST(TimeBudget, Float32IsAssumedFasterAndCountsItsPackingBuffers) {
  // The same MLP sweep in both precisions: the same FLOP count, the float32 one assumed float32_speedup times as
  // fast. Each member (dims 16-200-200-1; its buffers hold 128 rows, the probe batch, more than the batch of 64)
  // holds the float32 workspace instead of the float64 products' transpose of the largest matrix (200 × 200
  // doubles): A panels of at most 128 × 200 (m = rows, kc = k = 200), B panels of 200 × 200, and the largest
  // product output 200 × 200 (the hidden layer's weight gradient), in floats.
  const std::string base = R"({"version":1,"model":{"widths":[200,200]},"task":{"input_dim":16,"train_size":256},
      "schedule":{"steps":50,"batch_size":64},"sweep":{"seeds":[0,1]})";
  const ExperimentSpec f64 = spec_of(base + "}");
  const ExperimentSpec f32 = spec_of(base + R"(,"precision":"float32"})");
  EXPECT_DOUBLE_EQ(estimate_flops(f32), estimate_flops(f64));
  for (const TimeBudget& b : {kCommandLineTimeBudget, kBrowserTimeBudget}) {
    EXPECT_GT(b.float32_speedup, 1);
    EXPECT_DOUBLE_EQ(estimate_seconds(f32, b) * b.float32_speedup, estimate_seconds(f64, b));
  }
  EXPECT_DOUBLE_EQ(estimate_memory_bytes(f32) - estimate_memory_bytes(f64),
                   2 * (4 * (128 * 200 + 200 * 200 + 200 * 200.0) - 8 * 200 * 200.0));
  // Dropout holds a mask and a masked copy of each hidden layer's 128 rows (web and CLI count what the model holds).
  const std::string widths = "\"widths\":[200,200]";
  std::string with_dropout = base + "}";
  with_dropout.replace(with_dropout.find(widths), widths.size(), widths + ",\"dropout\":0.1");
  const ExperimentSpec dropout = spec_of(with_dropout);
  EXPECT_DOUBLE_EQ(estimate_memory_bytes(dropout) - estimate_memory_bytes(f64), 2 * 8 * 2 * (128 * 200 + 128 * 200.0));

  // 9 000 Adam-free steps of 784-512-512-1 at batch 128: ~4.6e12 FLOP, over the page's hour at 1 GFLOP/s in float64,
  // within it at the float32 rate.
  const SpecLimits page{kBrowserTimeBudget};
  const std::string sweep = R"({"version":1,"model":{"widths":[512,512]},"task":{"input_dim":784,"train_size":2048},
      "schedule":{"steps":9000,"batch_size":128,"record_every":1000})";
  const SpecResult r64 = parse_spec_text(sweep + "}", page);
  ASSERT_FALSE(r64.ok());
  EXPECT_NE(joined(r64.errors).find("at an assumed 1 GFLOP/s), more than the limit of 1 h"), std::string::npos)
      << joined(r64.errors);
  const SpecResult r32 = parse_spec_text(sweep + R"(,"precision":"float32"})", page);
  EXPECT_TRUE(r32.ok()) << joined(r32.errors);
  const SpecResult longer = parse_spec_text(replaced_steps(sweep, "20000") + R"(,"precision":"float32"})", page);
  ASSERT_FALSE(longer.ok());
  EXPECT_NE(joined(longer.errors).find("at an assumed 2 GFLOP/s in float32)"), std::string::npos)
      << joined(longer.errors);
}

TEST(TimeBudget, Float32TransformerIsAssumedFasterByItsOwnFactor) {
  const std::string base = R"({"version":1,"model":{"kind":"transformer","transformer":{"layers":2,"d_model":32,
      "heads":1,"d_ff":128,"norm":"pre","init":"pytorch"}},"task":{"kind":"anchor","train_size":1000,"test_size":200,
      "anchor":{"kind":"identity"}},"parametrization":{"preset":"sp"},"optimizer":{"kind":"adamw","lr":0.001},
      "schedule":{"steps":300,"batch_size":64})";
  const ExperimentSpec f64 = spec_of(base + "}");
  const ExperimentSpec f32 = spec_of(base + R"(,"precision":"float32"})");
  EXPECT_DOUBLE_EQ(estimate_flops(f32), estimate_flops(f64));
  for (const TimeBudget& b : {kCommandLineTimeBudget, kBrowserTimeBudget}) {
    EXPECT_GT(b.transformer_float32_speedup, 1);
    EXPECT_LT(b.transformer_float32_speedup, b.float32_speedup);
    EXPECT_DOUBLE_EQ(estimate_seconds(f32, b) * b.transformer_float32_speedup, estimate_seconds(f64, b));
  }
}

TEST(TimeBudget, EveryPhasePointIsAMember) {
  // Before the sweep's members came from one list (sweep_members), 9 phase points were estimated as one.
  const std::string base = R"({"version":1,"model":{"widths":[32],"activation":"tanh"},
      "parametrization":{"preset":"two_layer_gamma"},"task":{"kind":"function_1d","target":"sin135","input_dim":1,
      "train_size":16,"test_size":16},"optimizer":{"kind":"gd_auto","lr":0.5},"schedule":{"steps":50},
      "sweep":{"width":[16,32])";
  const double one = estimate_flops(spec_of(base + "}}"));
  const double nine = estimate_flops(spec_of(base + R"(,"phase_points":[[0,0],[0.5,0],[1,0],[1.5,0],[2,0],[0,0.5],
      [0.5,0.5],[1,0.5],[1.5,0.5]]}})"));
  EXPECT_DOUBLE_EQ(nine, 9 * one);
}

TEST(TimeBudget, SharpnessCountsItsHessianVectorProducts) {
  // Each record adds 20 power iterations (what they cost from the warm start) of two gradients (3 forward passes'
  // worth each) on the 64 train points: dims 1-32-32-1 with tanh, P = 32 + 1024 + 32 weights, a forward pass
  // 2·P + 100·64 FLOP-equivalents.
  const std::string base = R"({"version":1,"model":{"widths":[32,32],"activation":"tanh"},
      "task":{"kind":"function_1d","target":"sin135","input_dim":1,"train_size":64,"test_size":64},
      "optimizer":{"kind":"sgd","lr":0.1},"schedule":{"steps":10,"record_every":5},"metrics":["train_loss")";
  const double without = estimate_flops(spec_of(base + "]}"));
  const double with = estimate_flops(spec_of(base + R"(,"sharpness"]})"));
  const double forward = 2 * (32 + 1024 + 32.0) + 100 * 64;
  EXPECT_DOUBLE_EQ(with - without, (10 / 5 + 2) * 20 * 2 * 3 * forward * 64);
}

TEST(TimeBudget, SkipgramTrainsOnOneExamplePerWord) {
  // 40 words: the train set has 40 rows, whatever train_size (the corpus pairs) says.
  const ExperimentSpec s = spec_of(R"({"version":1,"model":{"widths":[16],"activation":"linear"},
      "task":{"kind":"skipgram","input_dim":40,"train_size":800,"test_size":200},"schedule":{"steps":4},
      "metrics":["train_loss"]})");
  const double p = 40 * 16 + 16 * 40.0, forward = 2 * p + 2 * 16;
  EXPECT_DOUBLE_EQ(estimate_flops(s), 4 * (3 * forward * 40 + 10 * p));
}
