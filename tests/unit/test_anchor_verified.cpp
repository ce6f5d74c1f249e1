// Chapter 13 (the initialization rate γ decides reasoning vs memorizing) at the configuration that a PyTorch
// reference verified on three seeds, trained by the engine as `muplay run examples/cli/31b-anchor-gamma-verified.json
// --threads 2` trains it (Runner::step_parallel on two threads; each member computes what it computes alone).
//
// Cost: the full sweep (γ 0.2, 0.5, 0.8 × seeds 0, 1, 2) is nine members of minutes of CPU each (one thread, float64),
// too long for the test budget; this test keeps every seed at γ = 0.8 (the claim "OOD ≥ 0.95 on every seed") and seed 0
// at γ = 0.2 and 0.5: five members, in two sweeps of the preset (γ 0.2, 0.5, 0.8 × seed 0; γ 0.8 × seeds 1, 2). The
// section "Chapter 13 at the verified configuration" of examples/README.md has the nine members' numbers. A second test
// trains γ 1.0 on seeds 0-2 against the reference's commutativity there (three more members).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <utility>

#include "engine/base/worker_pool.hpp"
#include "engine/run/runner.hpp"
#include "engine/spec/presets.hpp"

namespace {

ExperimentSpec verified_preset() {
  std::string text;
  const std::string path = std::string(MUPLAY_EXAMPLES_DIR) + "/cli/31b-anchor-gamma-verified.json";
  EXPECT_TRUE(read_text_file(path, text)) << path;
  SpecResult r = parse_spec_text(text);
  EXPECT_TRUE(r.ok()) << path << ": " << (r.ok() ? "" : r.errors[0]);
  return r.spec;
}

// (γ, seed) → the member's final value of each series.
using Finals = std::map<std::pair<double, uint64_t>, std::map<std::string, double>>;

// Trains the preset with these sweep axes on two threads, as muplay run --threads 2 does, and adds its members' final
// values to `out`.
void train(ExperimentSpec spec, std::vector<double> gammas, std::vector<uint64_t> seeds, Finals& out) {
  spec.sweep.gamma = std::move(gammas);
  spec.sweep.seeds = std::move(seeds);
  Runner runner(spec);
  WorkerPool pool(2);
  while (runner.step_parallel(pool, 50, pool.threads())) {  // two members at a time, round robin
  }
  for (const auto& run : runner.members()) {
    ASSERT_EQ(run->status(), RunStatus::finished) << run->label();
    auto& finals = out[{run->coords().gamma, run->coords().seed}];
    for (const Series& s : run->series()) finals[s.name] = s.values.back();
  }
}

TEST(AnchorVerified, Chapter13AtTheVerifiedConfiguration) {
  const ExperimentSpec spec = verified_preset();
  // The configuration under test (the preset's description states it): pre-LN, 3 layers, d_model 64, 1 head,
  // d_ff 256, γ-init, 10 000 / 2 000 / 1 000 sequences with data per seed, AdamW 1e-3, λ 0.01, batch 128, 1 500 steps.
  const TransformerSpec& t = spec.model.transformer;
  ASSERT_TRUE(t.pre_ln && t.layers == 3 && t.d_model == 64 && t.heads == 1 && t.d_ff == 256);
  ASSERT_TRUE(t.init == InitScheme::gamma && !t.attention_bias && !t.mlp_bias && t.output_bias);
  ASSERT_TRUE(spec.task.train_size == 10000 && spec.task.test_size == 2000 && spec.task.anchor.ood_test_size == 1000);
  ASSERT_TRUE(spec.task.data_per_seed && spec.task.anchor.vocab == 128);
  ASSERT_TRUE(spec.optimizer.kind == OptimizerKind::adamw && spec.optimizer.lr == 1e-3 &&
              spec.optimizer.weight_decay == 0.01);
  ASSERT_TRUE(spec.schedule.steps == 1500 && spec.schedule.batch_size == 128 && spec.schedule.clip_norm == 1 &&
              spec.schedule.warmup_fraction == 0.05 && spec.schedule.cosine && spec.schedule.final_lr_fraction == 0);

  Finals f;
  train(spec, {0.2, 0.5, 0.8}, {0}, f);
  train(spec, {0.8}, {1, 2}, f);
  for (const auto& [member, v] : f)
    std::printf("gamma %.1f seed %d: train %.3f  ID %.3f  OOD %.3f  commutativity %.3f  |cos| W_Q rows %.3f  "
                "embedding order %.3f\n",
                member.first, int(member.second), v.at("train_accuracy"), v.at("id_accuracy"), v.at("ood_accuracy"),
                v.at("commutativity"), v.at("wq_cosine"), v.at("embedding_order"));
  auto at = [&](double gamma, uint64_t seed, const char* name) { return f.at({gamma, seed}).at(name); };

  // Measured at this configuration (the test prints each member's numbers above):
  //   γ 0.2 seed 0: ID 0.016, OOD 0.011, commutativity 0.420, |cos| 0.099, embedding order 0.368
  //   γ 0.5 seed 0: ID 1.000, OOD 0.432, commutativity 0.612, |cos| 0.101, embedding order 0.749
  //   γ 0.8 seeds 0 / 1 / 2: ID 1.000 each, OOD 0.772 / 0.950 / 0.907, commutativity 0.831 / 0.983 / 0.905,
  //                          |cos| 0.200 / 0.273 / 0.325, embedding order 0.635 / 0.674 / 0.369
  // The reference's "OOD ≥ 0.95 on every seed" holds on seed 1 only (an independent PyTorch run of the same
  // configuration gave 0.943 / 0.877 / 0.852 on its seeds 0-2): asserted is what every seed reached, ≥ 0.75, and a
  // mean ≥ 0.85. The embedding order does not rise from γ 0.5 to 0.8 (0.75 vs 0.64 on seed 0): asserted is only
  // that the two fitted models order their key tokens more than γ 0.2's unfitted one does.
  double mean_ood = 0;
  for (uint64_t seed : {0, 1, 2}) {
    EXPECT_GE(at(0.8, seed, "id_accuracy"), 0.9) << "seed " << seed;
    EXPECT_GE(at(0.8, seed, "ood_accuracy"), 0.75) << "seed " << seed;
    EXPECT_GE(at(0.8, seed, "commutativity"), 0.8) << "seed " << seed;  // the book rings < 0.7 as low
    EXPECT_GE(at(0.8, seed, "wq_cosine"), at(0.5, 0, "wq_cosine") + 0.08) << "seed " << seed;
    mean_ood += at(0.8, seed, "ood_accuracy") / 3;
  }
  EXPECT_GE(mean_ood, 0.85);
  EXPECT_LT(at(0.2, 0, "id_accuracy"), 0.1);  // phase 1: nothing learned in 1 500 steps
  EXPECT_GE(at(0.5, 0, "id_accuracy"), 0.9);  // phase 2: fits the trained pairs ...
  EXPECT_GE(at(0.8, 0, "ood_accuracy"), at(0.5, 0, "ood_accuracy") + 0.3);  // ... without reasoning as γ 0.8 does
  EXPECT_GE(at(0.8, 0, "ood_accuracy"), at(0.2, 0, "ood_accuracy") + 0.7);
  EXPECT_GE(at(0.8, 0, "commutativity"), at(0.5, 0, "commutativity") + 0.15);
  EXPECT_GE(std::min(at(0.5, 0, "embedding_order"), at(0.8, 0, "embedding_order")),
            at(0.2, 0, "embedding_order") + 0.2);
}

// Chapter 13 at γ 1.0, where a reported seed-0 commutativity (0.885) fell below the three seeds of the report's
// independent PyTorch program (0.975, 0.939, 0.967 on its seeds 0-2, its own data and init). Both programs pair every
// OOD sequence with the same sequence, anchors swapped. The engine's seeds 0-2 differ
// from the reference's draws seed by seed, so asserted is that the two programs' seed means agree: their difference
// is within two standard errors of it (Welch), each seed fits (ID ≥ 0.95) and keeps commutativity ≥ 0.8.
TEST(AnchorVerified, Chapter13CommutativityAtGammaOneAgreesWithTheReference) {
  const double reference[] = {0.975, 0.939, 0.967};
  Finals f;
  train(verified_preset(), {1.0}, {0, 1, 2}, f);
  std::vector<double> engine;
  for (uint64_t seed : {0, 1, 2}) {
    const auto& v = f.at({1.0, seed});
    std::printf("gamma 1.0 seed %d: ID %.3f  OOD %.3f  commutativity %.3f\n", int(seed), v.at("id_accuracy"),
                v.at("ood_accuracy"), v.at("commutativity"));
    EXPECT_GE(v.at("id_accuracy"), 0.95) << "seed " << seed;
    EXPECT_GE(v.at("commutativity"), 0.8) << "seed " << seed;
    engine.push_back(v.at("commutativity"));
  }
  auto mean = [](const double* x, size_t n) { return std::accumulate(x, x + n, 0.0) / double(n); };
  auto variance = [&](const double* x, size_t n) {
    const double m = mean(x, n);
    double ss = 0;
    for (size_t i = 0; i < n; i++) ss += (x[i] - m) * (x[i] - m);
    return ss / double(n - 1);
  };
  const double difference = mean(engine.data(), 3) - mean(reference, 3);
  const double standard_error = std::sqrt(variance(engine.data(), 3) / 3 + variance(reference, 3) / 3);
  std::printf("commutativity at gamma 1.0: engine mean %.3f, reference mean %.3f, difference %+.3f, standard error "
              "%.3f\n", mean(engine.data(), 3), mean(reference, 3), difference, standard_error);
  EXPECT_LE(std::abs(difference), 2 * standard_error);
}

}  // namespace
