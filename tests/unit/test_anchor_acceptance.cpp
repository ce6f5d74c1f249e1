// The results of the book's anchor-function chapters (12 and 13) checked on the real engine, at the sizes of the
// page's presets (examples/30-anchor-identity.json, 31-anchor-gamma-sweep.json, 32-anchor-reading.json,
// 33-anchor-classification.json, 38-anchor-working-memory.json, 39-anchor-synonyms.json, 40-anchor-recite-*.json),
// fixed seeds.
//
// Sizes (why they are smaller than the 165 k-parameter pre-LN model, 3 layers of d_model 64, that shows chapter 13's
// effect in a PyTorch reference): the engine trains ~5 GFLOP/s in float64 on one core, so that model (1 500 steps of
// batch 128) costs ~5 minutes per run. The γ-sweep preset uses 2 pre-LN layers, d_model 32, 1 head, d_ff 128 and
// batches of 64 (~30 s of CPU per γ); its numbers are stated in the preset.
// That model itself, on three seeds: tests/unit/test_anchor_verified.cpp.
#include <gtest/gtest.h>

#include <initializer_list>
#include <map>

#include "engine/analysis/attention_cut.hpp"
#include "engine/analysis/identity_mechanism.hpp"
#include "engine/run/runner.hpp"
#include "engine/spec/presets.hpp"

namespace {

ExperimentSpec preset(const std::string& file) {
  std::string text;
  EXPECT_TRUE(read_text_file(std::string(MUPLAY_EXAMPLES_DIR) + "/" + file, text)) << file;
  SpecResult r = parse_spec_text(text);
  EXPECT_TRUE(r.ok()) << file << ": " << (r.ok() ? "" : r.errors[0]);
  return r.spec;
}

double final_value(const Member& run, const char* series) {
  const Series* s = run.find_series(series);
  EXPECT_NE(s, nullptr) << series;
  return s ? s->values.back() : NAN;
}

// Trains a preset to the end: every run finishes, with each of `accuracies` at least `at_least`.
void expect_preset_reaches(const char* file, std::initializer_list<const char*> accuracies, double at_least) {
  Runner runner(preset(file));
  while (runner.step()) {
  }
  for (const auto& run : runner.members()) {
    ASSERT_EQ(run->status(), RunStatus::finished) << run->label();
    for (const char* a : accuracies) EXPECT_GE(final_value(*run, a), at_least) << run->label() << ": " << a;
  }
}

// The identity task's mechanism model (the book's §12.7; the preset's settings: 2 pre-LN layers, d_model 64, 2 heads,
// d_ff 256, PyTorch-default init, 2 000 sequences of the mod-8 split, batch 128, AdamW 1e-3, weight decay 0.01, 5%
// warm-up + cosine, clip 1, 500 steps) on seeds 0, 1, 2, each run checked four ways on its 500 test sequences:
//   accuracy   ≥ 0.98 (a PyTorch reference at these settings reaches ≥ 0.98 on every seed);
//   broadcast  layer 2's last row, averaged over heads, puts ≥ 0.5 on the key in ≥ 95% of sequences;
//   shift      at the key's row some layer-1 head has its argmax on the anchor in ≥ 95% of sequences;
//   cut        cutting layer 2's attention to the key (every head) changes the answer of most sequences: the
//              right answer comes from the broadcast, so without it accuracy falls below 0.5.
// Measured numbers per seed: README, "Chapter 12: mechanisms and tasks 5–7".
TEST(AnchorAcceptance, IdentityShiftsBroadcastsAndNeedsTheKey) {
  ExperimentSpec spec = preset("30-anchor-identity.json");
  spec.sweep.seeds = {0, 1, 2};
  spec.schedule.record_every = spec.schedule.steps;  // the checks read the end
  Runner runner(spec);
  while (runner.step()) {
  }
  ASSERT_EQ(runner.members().size(), 3u);
  for (const auto& run : runner.members()) {
    ASSERT_EQ(run->status(), RunStatus::finished) << run->label();
    AnchorTrainer& trainer = *run->transformer();
    const AnchorSet& test = trainer.data().test;
    const IdentityMechanism mechanism = identity_mechanism(trainer.model(), test);
    const CutResult cut = attention_cut_experiment(trainer.model(), test, {2, 0, CutTarget::key});
    const double accuracy = final_value(*run, "id_accuracy");
    std::printf("%s: accuracy %.3f  broadcast %.3f  shift %.3f  cut: accuracy %.3f -> %.3f, changed %.3f, "
                "other token %.3f, elsewhere %.3f\n",
                run->label().c_str(), accuracy, mechanism.broadcast, mechanism.shift, cut.intact.label,
                cut.cut.label, cut.changed, cut.cut.other_token, cut.cut.elsewhere);
    EXPECT_EQ(mechanism.sequences, test.size);
    EXPECT_GE(accuracy, 0.98) << run->label();
    EXPECT_NEAR(cut.intact.label, accuracy, 1e-12) << run->label();  // the analysis sees the trained model
    EXPECT_GE(mechanism.broadcast, 0.95) << run->label();
    EXPECT_GE(mechanism.shift, 0.95) << run->label();
    EXPECT_LT(cut.cut.label, 0.5) << run->label();
    EXPECT_GT(cut.changed, 0.5) << run->label();
  }
}

// The book reaches 100% on reading comprehension and classification (at its sizes). At the presets' browser
// scale, seed 0, measured: reading 0.988 test (train 1.00), classification 0.98 test (train 1.00; seed 1: 0.93);
// asserted: ≥ 0.95 on the presets' own seed. Classification costs ~100 s on one core (6 000 steps; 98 s in a
// full ctest -j2 run).
TEST(AnchorAcceptance, ReadingPresetReaches95PercentTestAccuracy) {
  expect_preset_reaches("32-anchor-reading.json", {"id_accuracy"}, 0.95);
}

TEST(AnchorAcceptance, ClassificationPresetReaches95PercentTestAccuracy) {
  expect_preset_reaches("33-anchor-classification.json", {"id_accuracy", "train_accuracy"}, 0.95);
}

// Chapter 12's tasks 5–7 (the book's §12.6.5–12.6.7) at the presets' sizes, seed 0; measured numbers for seeds 0–2 in
// README, "Chapter 12: mechanisms and tasks 5–7". Working memory: the intermediate result is held over 1–3 keys.
TEST(AnchorAcceptance, WorkingMemoryPresetReaches95PercentTestAccuracy) {
  expect_preset_reaches("38-anchor-working-memory.json", {"id_accuracy"}, 0.95);
}

// Synonyms: the never-trained pairs (4, 9) and (9, 4) are answered through the synonym 3 (OOD accuracy).
TEST(AnchorAcceptance, SynonymsPresetAnswersTheHeldOutPairs) {
  expect_preset_reaches("39-anchor-synonyms.json", {"id_accuracy", "ood_accuracy"}, 0.9);
}

// Recitation, both directions (the book's "forward": the token before the anchor; "backward": the one after).
TEST(AnchorAcceptance, RecitationPresetsReach95PercentTestAccuracy) {
  expect_preset_reaches("40-anchor-recite-previous.json", {"id_accuracy"}, 0.95);
  expect_preset_reaches("40-anchor-recite-next.json", {"id_accuracy"}, 0.95);
}

// Chapter 13 at λ = 0.01, the γ-sweep preset at batch 128 (seed 0, recorded at the start and the end only): γ = 0.2
// learns nothing; γ = 0.5 fits the trained pairs (ID ≥ 90%) without reasoning; γ = 0.8 fits and reasons (OOD far
// above γ = 0.2 and 0.5); the rows of layer 1's W_Q condense (mean |cos| rises from γ = 0.2 to 0.8).
// Measured (seed 0, batch 128): γ 0.2 / 0.5 / 0.8 → ID 0.032 / 0.997 / 0.999, OOD 0.012 / 0.124 / 0.773,
// |cos| 0.139 / 0.165 / 0.400 (~200 s on one core; 202 s in a full ctest -j2 run).
//
// Robustness over seeds, and why this batch (2 pre-LN layers, d_model 32, 1 head, d_ff 128, 10 000 sequences,
// 5% warm-up + cosine, clip 1, λ 0.01; ID / OOD accuracy at the end):
//   configuration                          seed  γ = 0.2       γ = 0.5       γ = 0.8
//   lr 2e-3, 1 500 steps, batch 64         0     0.016 / 0.012  0.743 / 0.103  0.977 / 0.495
//   lr 4e-3,   750 steps, batch 64         0                    0.291 / 0.066  0.441 / 0.317
//                                          1                    0.317 / 0.124  0.391 / 0.260
//   lr 2e-3, 1 500 steps, 2 heads          0                    0.771 / 0.201  0.993 / 0.740
//                                          1                    0.817 / 0.256  0.989 / 0.447
//   lr 4e-3, 1 500 steps, batch 64         0     0.025 / 0.006  0.942 / 0.066  0.986 / 0.634
//     (the preset, for the page's time)    1     0.014 / 0.014  0.897 / 0.243  0.947 / 0.645
//   lr 4e-3, 1 500 steps, batch 128        0     0.032 / 0.012  0.997 / 0.124  0.999 / 0.773
//     (this test)                          1                    1.000 / 0.424  1.000 / 0.887
//                                          2                    0.993 / 0.475  1.000 / 0.727
// At batch 64 seed 1 misses "ID ≥ 90% at γ = 0.5" by 0.003; at batch 128 every check holds on seeds 0-2 (|cos| at
// γ = 0.5 / 0.8: 0.165 / 0.400, 0.175 / 0.381, 0.195 / 0.403), the closest margin being seed 2's OOD gap between
// γ = 0.8 and 0.5 (0.25 against the asserted 0.2). Halving the steps leaves both γ unfitted.
TEST(AnchorAcceptance, Chapter13InitRateDecidesReasoning) {
  ExperimentSpec spec = preset("31-anchor-gamma-sweep.json");
  ASSERT_EQ(spec.optimizer.weight_decay, 0.01);
  spec.schedule.batch_size = 128;                    // robust over seeds (table above); the preset keeps 64
  spec.schedule.record_every = spec.schedule.steps;  // evaluations cost time; the checks read the end
  Runner runner(spec);
  while (runner.step()) {
  }
  std::map<double, const ::Member*> by_gamma;
  for (const auto& run : runner.members()) by_gamma[run->coords().gamma] = run.get();
  ASSERT_TRUE(by_gamma.count(0.2) && by_gamma.count(0.5) && by_gamma.count(0.8));
  auto at = [&](double gamma, const char* series) { return final_value(*by_gamma[gamma], series); };
  for (double g : {0.2, 0.5, 0.8})
    std::printf("gamma %.1f: train %.3f  ID %.3f  OOD %.3f  commutativity %.3f  |cos| W_Q rows %.3f\n", g,
                at(g, "train_accuracy"), at(g, "id_accuracy"), at(g, "ood_accuracy"), at(g, "commutativity"),
                at(g, "wq_cosine"));
  EXPECT_GE(at(0.8, "ood_accuracy"), at(0.5, "ood_accuracy") + 0.2);
  EXPECT_GE(at(0.8, "ood_accuracy"), at(0.2, "ood_accuracy") + 0.2);
  EXPECT_GE(at(0.8, "id_accuracy"), 0.9);
  EXPECT_LT(at(0.2, "id_accuracy"), 0.1);
  EXPECT_GE(at(0.5, "id_accuracy"), 0.9);
  EXPECT_GE(at(0.5, "id_accuracy"), at(0.5, "ood_accuracy") + 0.4);
  EXPECT_GT(at(0.8, "wq_cosine"), at(0.2, "wq_cosine") + 0.1);
}

}  // namespace
