// Transformer experiments through the spec / run / runner path: JSON and link round trips, a precise message for
// every new field, MLP specs unchanged, the optimizer's schedule / clipping / decay exemption, and a short run
// that records every transformer metric.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/analysis/anchor_analysis.hpp"
#include "engine/export/torch_export.hpp"
#include "engine/run/runner.hpp"
#include "engine/spec/link.hpp"
#include "engine/spec/result_files.hpp"
#include "engine/spec/spec.hpp"

namespace {

const char* kSpec = R"({"version":1,"name":"tf","model":{"kind":"transformer","transformer":
  {"layers":2,"d_model":16,"heads":2,"d_ff":32,"norm":"post","activation":"gelu","attention_bias":true,
   "mlp_bias":true,"init":"gamma","gamma":0.7,"init_distribution":"uniform","zero_readout":true,
   "attention_scale":"linear"}},
  "parametrization":{"preset":"sp"},
  "task":{"kind":"anchor","train_size":300,"test_size":100,"seed":3,
          "anchor":{"kind":"two_anchor","vocab":120,"seq_len":9,"ood_test_size":50,"modulus":8}},
  "optimizer":{"kind":"adamw","lr":0.002,"weight_decay":0.01},
  "schedule":{"steps":6,"batch_size":32,"record_every":3,"warmup_fraction":0.5,"cosine":true,
              "final_lr_fraction":0.1,"clip_norm":1},
  "sweep":{"gamma":[0.3,0.8],"weight_decay":[0,0.1],"seeds":[0]},
  "metrics":["train_loss","test_loss","train_accuracy","id_accuracy","ood_accuracy","commutativity","wq_cosine",
              "embedding_order","plus_one_share"]})";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

void expect_error(const std::string& text, const std::string& needle) {
  SpecResult r = parse_spec_text(text);
  ASSERT_FALSE(r.ok()) << "accepted: " << text;
  std::string all;
  for (const auto& e : r.errors) all += e + "\n";
  EXPECT_NE(all.find(needle), std::string::npos) << "errors were:\n" << all << "wanted: " << needle;
}

TEST(AnchorExperiment, SpecAndLinkRoundTrips) {
  SpecResult r = parse_spec_text(kSpec);
  ASSERT_TRUE(r.ok()) << r.errors[0];
  EXPECT_EQ(r.spec.model.kind, ModelKind::transformer);
  EXPECT_FALSE(r.spec.model.transformer.pre_ln);
  EXPECT_EQ(r.spec.task.anchor.vocab, 120);
  const std::string once = json::write(spec_to_json(r.spec));
  SpecResult again = parse_spec(spec_to_json(r.spec));
  ASSERT_TRUE(again.ok()) << again.errors[0];
  EXPECT_EQ(json::write(spec_to_json(again.spec)), once);
  SpecResult linked = spec_from_link(spec_to_link(r.spec));
  ASSERT_TRUE(linked.ok()) << linked.errors[0];
  EXPECT_EQ(json::write(spec_to_json(linked.spec)), once);
}

TEST(AnchorExperiment, MlpSpecsKeepTheirForm) {
  const std::string text = json::write(spec_to_json(ExperimentSpec{}));
  for (const char* field : {"\"kind\":\"mlp\"", "transformer", "anchor", "gamma", "clip_norm", "warmup"})
    EXPECT_EQ(text.find(field), std::string::npos) << field;
}

TEST(AnchorExperiment, EveryNewFieldIsChecked) {
  const std::string s = kSpec;
  expect_error(replaced(s, "\"layers\":2", "\"layers\":0"), "model.transformer.layers: 0 is not in [1, 16]");
  expect_error(replaced(s, "\"norm\":\"post\"", "\"norm\":\"middle\""),
               "model.transformer.norm: \"middle\" is not one of pre, post");
  expect_error(replaced(s, "\"gamma\":0.7", "\"gamma\":-1"), "model.transformer.gamma: -1 is not in [0, 3]");
  expect_error(replaced(s, "\"heads\":2", "\"heads\":3"), "model.transformer.heads: d_model 16 is not divisible by 3");
  expect_error(replaced(s, "\"init\":\"gamma\"", "\"init\":\"pytorch\""), "sweep.gamma: only for model.kind \"transformer\" with model.transformer.init \"gamma\"");
  expect_error(replaced(s, "\"preset\":\"sp\"", "\"preset\":\"ntp\""),
               "parametrization.preset: \"ntp\" is not defined for a transformer");
  expect_error(replaced(s, "\"preset\":\"sp\"", "\"preset\":\"mup\""), "model.transformer.init: \"gamma\" sets every");
  expect_error(replaced(s, "\"preset\":\"sp\"", "\"preset\":\"sp\",\"init_scale_layers\":\"first\""),
               "parametrization.init_scale_layers: only for MLPs");
  expect_error(replaced(s, "\"vocab\":120", "\"vocab\":100"), "task.anchor.vocab: 100 is not in [112, 1024]");
  expect_error(replaced(s, "\"kind\":\"two_anchor\"", "\"kind\":\"reading\""),
               "metrics[4]: ood_accuracy needs held-out anchor pairs");
  expect_error(replaced(s, "\"kind\":\"two_anchor\"", "\"kind\":\"three\""), "task.anchor.kind: \"three\" is not one of");
  expect_error(replaced(replaced(s, "\"kind\":\"two_anchor\"", "\"kind\":\"reading\""), "\"seq_len\":9", "\"seq_len\":7"),
               "task.anchor.seq_len: 7 is not 9");
  expect_error(replaced(s, "\"kind\":\"anchor\"", "\"kind\":\"sectors\""), "task.kind: \"sectors\" is not a token task");
  expect_error(replaced(s, "\"kind\":\"transformer\"", "\"kind\":\"mlp\""), "task.kind: \"anchor\" needs model.kind");
  expect_error(replaced(s, "\"wq_cosine\"", "\"act_rms\""), "metrics[6]: \"act_rms\" is an MLP measurement");
  expect_error(replaced(s, "\"clip_norm\":1", "\"clip_norm\":-1"), "schedule.clip_norm: -1 is not in [0, 1000000]");
  expect_error(replaced(s, "\"d_model\":16", "\"d_model\":4000,\"d_head\":64"), "needs about");
  expect_error(R"({"version":1,"schedule":{"clip_norm":1}})", "schedule.clip_norm: only for model.kind \"transformer\"");
  expect_error(R"({"version":1,"sweep":{"gamma":[0.5]}})", "sweep.gamma: only for model.kind \"transformer\"");
  expect_error(R"({"version":1,"metrics":["ood_accuracy"]})", "metrics[0]: \"ood_accuracy\" needs model.kind");
}

// model.transformer.attention_cut (the masking analysis): written only when given, through JSON and the share link,
// its layer and head checked against the model, refused by the PyTorch export.
TEST(AnchorExperiment, AttentionCutFieldRoundTripsAndIsChecked) {
  EXPECT_EQ(json::write(spec_to_json(parse_spec_text(kSpec).spec)).find("attention_cut"), std::string::npos);
  const std::string s = replaced(kSpec, "\"attention_scale\":\"linear\"",
                                 "\"attention_scale\":\"linear\",\"attention_cut\":{\"layer\":2,\"head\":1,\"target\":\"anchor\"}");
  SpecResult r = parse_spec_text(s);
  ASSERT_TRUE(r.ok()) << r.errors[0];
  const TransformerSpec& t = r.spec.model.transformer;
  EXPECT_TRUE(t.has_attention_cut);
  EXPECT_EQ(t.attention_cut.layer, 2);
  EXPECT_EQ(t.attention_cut.head, 1);
  EXPECT_EQ(t.attention_cut.target, CutTarget::anchor);
  const std::string once = json::write(spec_to_json(r.spec));
  EXPECT_NE(once.find("\"attention_cut\":{\"layer\":2,\"head\":1,\"target\":\"anchor\"}"), std::string::npos);
  SpecResult linked = spec_from_link(spec_to_link(r.spec));
  ASSERT_TRUE(linked.ok()) << linked.errors[0];
  EXPECT_EQ(json::write(spec_to_json(linked.spec)), once);
  expect_error(replaced(s, "\"layer\":2", "\"layer\":3"), "model.transformer.attention_cut.layer: 3 is past");
  expect_error(replaced(s, "\"head\":1", "\"head\":3"), "model.transformer.attention_cut.head: 3 is past");
  expect_error(replaced(s, "\"target\":\"anchor\"", "\"target\":\"query\""),
               "model.transformer.attention_cut.target: \"query\" is not one of key, anchor");
  expect_error(replaced(s, "\"target\":\"anchor\"", "\"target\":\"anchor\",\"row\":1"),
               "model.transformer.attention_cut.row: unknown field");
  expect_error(R"({"version":1,"model":{"transformer":{"attention_cut":{}}}})",
               "model.transformer.attention_cut: only for model.kind \"transformer\"");
  std::vector<std::string> errors;
  export_torch_project(r.spec, errors);
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors[0].find("model.transformer.attention_cut"), std::string::npos) << errors[0];
}

TEST(AnchorExperiment, ScheduleClippingAndDecayExemption) {
  const LrSchedule s{4, 12, true, 0.1};
  EXPECT_DOUBLE_EQ(lr_schedule_factor(s, 0), 0.25);
  EXPECT_DOUBLE_EQ(lr_schedule_factor(s, 3), 1.0);
  EXPECT_DOUBLE_EQ(lr_schedule_factor(s, 4), 1.0);
  EXPECT_NEAR(lr_schedule_factor(s, 8), 0.1 + 0.9 * 0.5, 1e-15);
  EXPECT_NEAR(lr_schedule_factor(s, 12), 0.1, 1e-15);
  std::vector<double> g{3, 4};
  EXPECT_DOUBLE_EQ(clip_grad_norm(g.data(), 2, 1.0), 5.0);
  EXPECT_NEAR(g[0], 3 / (5 + 1e-6), 1e-15);
  std::vector<double> small{0.3, 0.4};
  clip_grad_norm(small.data(), 2, 1.0);
  EXPECT_EQ(small[0], 0.3);  // below the limit: untouched
  // Decoupled decay acts on a decayed slice only: zero gradients leave the exempt slice exactly in place.
  OptimizerConfig c;
  c.kind = OptimizerKind::adamw;
  c.lr = 0.1;
  c.weight_decay = 0.5;
  Optimizer opt(c, {{0, 1, 1, true}, {1, 1, 1, false}}, 2);
  std::vector<double> w{1, 1}, zero{0, 0};
  opt.step(w.data(), zero.data());
  EXPECT_DOUBLE_EQ(w[0], 1 - 0.1 * 0.5);
  EXPECT_EQ(w[1], 1.0);
}

TEST(AnchorExperiment, RunnerRecordsEveryTransformerSeries) {
  SpecResult r = parse_spec_text(kSpec);
  ASSERT_TRUE(r.ok());
  Runner runner(r.spec);
  ASSERT_EQ(runner.members().size(), 4u);  // gamma × weight_decay
  while (runner.step()) {
  }
  for (const auto& run : runner.members()) {
    EXPECT_EQ(run->status(), RunStatus::finished) << run->label();
    EXPECT_EQ(run->recorded_steps(), (std::vector<int>{0, 3, 6}));
    for (const char* name : {"train_loss", "test_loss", "train_accuracy", "id_accuracy", "ood_accuracy",
                             "commutativity", "wq_cosine", "embedding_order", "plus_one_share"}) {
      const Series* s = run->find_series(name);
      ASSERT_NE(s, nullptr) << name;
      ASSERT_EQ(s->values.size(), 3u) << name;
      for (double v : s->values) EXPECT_TRUE(std::isfinite(v)) << name;
    }
    EXPECT_EQ(run->width(), 16);
    EXPECT_NE(run->label().find("gamma="), std::string::npos);
  }
  EXPECT_EQ(runner.members()[0]->coords().gamma, 0.3);
  EXPECT_EQ(runner.members()[1]->coords().gamma, 0.8);
  EXPECT_EQ(runner.members()[2]->coords().weight_decay, 0.1);
  // Zero readout: every member starts at the uniform prediction, loss log(120).
  EXPECT_NEAR(runner.members()[0]->find_series("train_loss")->values[0], std::log(120.0), 1e-12);
  // ... and p(y+1) / (p(y) + p(y+1)) = 1/2 (the statistical tasks' x+1 share starts at even odds).
  EXPECT_NEAR(runner.members()[0]->find_series("plus_one_share")->values[0], 0.5, 1e-12);
  const std::string csv = results_csv(runner.results());
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "width,lr,seed,gamma,weight_decay,status,step,train_loss,test_loss,train_accuracy,id_accuracy,"
            "ood_accuracy,commutativity,wq_cosine,embedding_order,plus_one_share");
}

// task.data_per_seed: each sweep seed draws its data with that seed in place of task.seed; members of one seed
// share it. Only anchor tasks take it; it round-trips through JSON and links, and is written only when set.
TEST(AnchorExperiment, DataPerSeed) {
  std::string text = replaced(kSpec, "\"seed\":3,", "\"seed\":3,\"data_per_seed\":true,");
  text = replaced(text, "\"seeds\":[0]", "\"seeds\":[0,1]");
  text = replaced(text, "\"weight_decay\":[0,0.1],", "");
  SpecResult r = parse_spec_text(text);
  ASSERT_TRUE(r.ok()) << r.errors[0];
  EXPECT_TRUE(r.spec.task.data_per_seed);
  SpecResult linked = spec_from_link(spec_to_link(r.spec));
  ASSERT_TRUE(linked.ok()) << linked.errors[0];
  EXPECT_TRUE(linked.spec.task.data_per_seed);
  EXPECT_EQ(json::write(spec_to_json(parse_spec_text(kSpec).spec)).find("data_per_seed"), std::string::npos);

  Runner runner(r.spec);
  ASSERT_EQ(runner.members().size(), 4u);  // gamma (0.3, 0.8) × seed (0, 1), the seed fastest
  auto tokens = [&](int member) { return runner.members()[size_t(member)]->transformer()->data().train.tokens; };
  EXPECT_NE(tokens(0), tokens(1));  // seeds 0 and 1
  EXPECT_EQ(tokens(0), tokens(2));  // seed 0 at both γ
  EXPECT_EQ(tokens(1), tokens(3));
  ExperimentSpec seed1 = r.spec;
  seed1.task.data_per_seed = false;
  seed1.task.seed = 1;
  EXPECT_EQ(tokens(1), Runner(seed1).data().anchor.train.tokens);
  expect_error(R"({"version":1,"task":{"kind":"sectors","data_per_seed":true}})",
               "task.data_per_seed: only for task.kind \"anchor\"");
}

TEST(AnchorExperiment, SameSeedSameRun) {
  SpecResult r = parse_spec_text(kSpec);
  Runner a(r.spec), b(r.spec);
  while (a.step()) {
  }
  while (b.step()) {
  }
  EXPECT_EQ(a.members()[3]->find_series("train_loss")->values, b.members()[3]->find_series("train_loss")->values);
}

// parametrization.init_scale multiplies every random tensor (PyTorch-like and γ init alike) and leaves the
// LayerNorm gains at 1: the same draws, scaled.
TEST(AnchorExperiment, InitScaleScalesEveryRandomTensor) {
  TransformerConfig c;
  c.layers = 2, c.d_model = 8, c.heads = 2, c.d_ff = 16;
  for (InitScheme scheme : {InitScheme::pytorch, InitScheme::gamma}) {
    TransformerInit plain, scaled;
    plain.scheme = scaled.scheme = scheme;
    scaled.init_scale = 0.3;
    Transformer a(c, plain, 1), b(c, scaled, 1);
    Rng ra(7), rb(7);
    a.init(ra);
    b.init(rb);
    for (const TransformerTensor& t : a.tensors()) {
      const bool random = t.init.scale > 0;
      for (long i = t.offset; i < t.offset + t.size(); i++) {
        const double want = random ? 0.3 * a.params()[size_t(i)] : a.params()[size_t(i)];
        ASSERT_NEAR(b.params()[size_t(i)], want, 1e-12 * (1 + std::fabs(want))) << t.name;
      }
    }
  }
}

TEST(AnchorExperiment, AnalysesOfTheModel) {
  TransformerConfig c;
  c.layers = 1, c.d_model = 4, c.d_ff = 4;
  Transformer m(c, TransformerInit{}, 1);
  Rng rng(1);
  m.init(rng);
  // Embeddings of 20..100 on a line along (1, 2, 0, 0) plus a small wiggle along (0, 0, 1, 0): PCA finds both.
  double* wte = m.params().data() + m.find_tensor("wte")->offset;
  for (int t = 20; t <= 100; t++) {
    const double x = t - 60.0, y = (t % 2 ? 1.0 : -1.0);
    const double row[4] = {x, 2 * x, y, 0};
    std::copy(row, row + 4, wte + t * 4);
  }
  const EmbeddingProjection p = embedding_pca(m, 20, 100);
  EXPECT_NEAR(std::fabs(p.xy[0] - p.xy[2 * 80]), 80 * std::sqrt(5.0), 1e-6);  // the line's length
  EXPECT_NEAR(p.explained[0] + p.explained[1], 1.0, 1e-9);
  EXPECT_GT(p.explained[0], 0.99);
  EXPECT_NEAR(embedding_order(m), 1.0, 1e-12);  // the first axis lists 20..100 in order
  // Swapping the two ends of the line breaks the order a little: the ranks of 20 and 100 trade places.
  for (int i = 0; i < 4; i++) std::swap(wte[20 * 4 + i], wte[100 * 4 + i]);
  const double d = 80, n = 81;  // Spearman: 1 − 6 Σ d² / (n (n² − 1)), two tokens off by d = 80
  EXPECT_NEAR(embedding_order(m), 1 - 6 * 2 * d * d / (n * (n * n - 1)), 1e-12);
  // W_Q rows: the cosine matrix has a unit diagonal, is symmetric, and its mean |off-diagonal| is query_row_cosine.
  const std::vector<double> cos = query_cosine_matrix(m, 0);
  ASSERT_EQ(cos.size(), 16u);
  double off = 0;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      if (i == j) EXPECT_NEAR(cos[size_t(5 * i)], 1.0, 1e-12);
      EXPECT_DOUBLE_EQ(cos[size_t(4 * i + j)], cos[size_t(4 * j + i)]);
      if (i < j) off += std::fabs(cos[size_t(4 * i + j)]) / 6;
    }
  AnchorTrainerConfig tc;
  tc.model = c;
  AnchorData data;
  data.train.size = 1;
  data.train.seq_len = c.seq_len;
  data.train.tokens.assign(size_t(c.seq_len), 20);
  data.train.labels = {21};
  AnchorTrainer trainer(tc, data, 0);
  std::copy(m.params().begin(), m.params().end(), trainer.model().params().begin());
  EXPECT_NEAR(trainer.query_row_cosine(0), off, 1e-12);
}

}  // namespace
