// ExperimentSpec: JSON round trip and every validation error path (field path, value, allowed range).
#include <gtest/gtest.h>

#include "engine/spec/spec.hpp"

namespace {

// Parse `text`; expect it invalid with an error containing `needle`.
void expect_error(const std::string& text, const std::string& needle) {
  SpecResult r = parse_spec_text(text);
  ASSERT_FALSE(r.ok()) << "accepted: " << text;
  std::string all;
  for (const auto& e : r.errors) all += e + "\n";
  EXPECT_NE(all.find(needle), std::string::npos) << "errors were:\n" << all << "wanted: " << needle;
}

std::string with(const std::string& fields) { return "{\"version\":1" + (fields.empty() ? "" : "," + fields) + "}"; }

}  // namespace

TEST(Spec, DefaultsAreValid) {
  SpecResult r = parse_spec_text(with(""));
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(check_spec(ExperimentSpec{}).empty());
}

TEST(Spec, JsonRoundTripIsExact) {
  SpecResult r = parse_spec_text(with(
      R"("name":"x","description":"d","model":{"widths":[3,5],"activation":"gelu","input_bias":true},
         "parametrization":{"preset":"custom","theta":0.25,"custom":[{"a":0,"b":0,"c":0},{"a":0.5,"b":0,"c":0},{"a":0.5,"b":0,"c":0.1}]},
         "task":{"kind":"sectors","input_dim":2,"classes":4,"twist":1.5,"seed":9,"train_size":40,"test_size":30},
         "optimizer":{"kind":"adamw","lr":0.003,"beta1":0.8,"beta2":0.99,"eps":1e-7,"weight_decay":0.01},
         "schedule":{"steps":77,"batch_size":8,"record_every":7,"divergence_loss":1000},
         "sweep":{"width":[4,8],"lr":[0.1,0.01],"seeds":[1,2,3]},
         "metrics":["train_loss","test_accuracy","act_rms"])"));
  ASSERT_TRUE(r.ok()) << r.errors[0];
  const std::string once = json::write(spec_to_json(r.spec));
  SpecResult again = parse_spec(spec_to_json(r.spec));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(json::write(spec_to_json(again.spec)), once);
  EXPECT_EQ(again.spec.parametrization.custom[2].c, 0.1);
  EXPECT_EQ(again.spec.sweep.seeds.size(), 3u);
  EXPECT_EQ(again.spec.optimizer.kind, OptimizerKind::adamw);
}

TEST(Spec, ReportsEveryBadFieldWithItsPath) {
  expect_error(with(R"("model":{"widths":[8,8,0]})"), "model.widths[2]: 0 is not in [1, 16384]");
  expect_error(with(R"("model":{"widths":[8,20000]})"), "model.widths[1]: 20000 is not in [1, 16384]");
  expect_error(with(R"("model":{"widths":[8.5]})"), "model.widths[0]: 8.5 is not an integer");
  expect_error(with(R"("model":{"widths":[]})"), "model.widths: needs at least one hidden layer");
  expect_error(with(R"("model":{"widths":"wide"})"), "model.widths: expected an array, got string");
  expect_error(with(R"("model":{"activation":"swish"})"), "model.activation: \"swish\" is not one of relu, tanh");
  expect_error(with(R"("model":{"input_bias":1})"), "model.input_bias: expected true or false");
  expect_error(with(R"("model":{"layers":3})"), "model.layers: unknown field");
  expect_error(with(R"("model":{"depth":3})"), "model.depth: only for model.kind \"residual_mlp\"");
  expect_error(with(R"("colour":"red")"), "colour: unknown field");
  expect_error(with(R"("model":[])"), "model: expected an object, got array");
  expect_error(with(R"("parametrization":{"preset":"xp"})"), "parametrization.preset: \"xp\" is not one of sp,");
  expect_error(with(R"("parametrization":{"theta":9})"), "parametrization.theta: 9 is not in [-2, 2]");
  expect_error(with(R"("parametrization":{"preset":"custom","custom":[{"a":0,"b":0,"c":0}]})"),
               "parametrization.custom: has 1 layers, the model has 3 weight matrices");
  expect_error(with(R"("parametrization":{"preset":"custom","custom":[{"a":0,"q":1},{},{}]})"),
               "parametrization.custom[0].q: unknown field");
  expect_error(with(R"("parametrization":{"preset":"mfp"})"), "mfp is defined for exactly 1 hidden layer");
  expect_error(with(R"("task":{"kind":"sectors"})"), "task.input_dim: 8 is not 2");
  expect_error(with(R"("task":{"train_size":0})"), "task.train_size: 0 is not in [1, 100000]");
  expect_error(with(R"("task":{"seed":-1})"), "task.seed: -1 is not in [0, ");
  expect_error(with(R"("optimizer":{"lr":0})"), "optimizer.lr: 0 is not in [1e-12, 1000000]");
  expect_error(with(R"("optimizer":{"lr":"fast"})"), "optimizer.lr: expected a number, got \"fast\"");
  expect_error(with(R"("optimizer":{"kind":"lion"})"), "optimizer.kind: \"lion\" is not one of sgd, adam, adamw");
  expect_error(with(R"("optimizer":{"beta1":1})"), "optimizer.beta1: 1 is not in [0, 0.9999]");
  expect_error(with(R"("schedule":{"steps":0})"), "schedule.steps: 0 is not in [1, 1000000]");
  expect_error(with(R"("schedule":{"batch_size":100})"), "schedule.batch_size: 100 is larger than task.train_size 64");
  expect_error(with(R"("sweep":{"width":[0]})"), "sweep.width[0]: 0 is not in [1, 16384]");
  expect_error(with(R"("sweep":{"seeds":[]})"), "sweep.seeds: needs at least one seed");
  expect_error(with(R"("sweep":{"lr":[0.1,0.2,0.3,0.4,0.5,0.6,0.7],"seeds":[1,2,3,4,5,6,7,8,9,10],"width":[1,2,3,4]})"),
               "sweep: 280 runs (width × lr × seeds), more than 256");
  expect_error(with(R"("sweep":{"width":[16384]},"model":{"widths":[8,8,8]})"), "MB of memory, more than the limit");
  expect_error(with(R"("metrics":["loss"])"), "metrics[0]: \"loss\" is not one of train_loss");
  expect_error(with(R"("metrics":["test_accuracy"])"), "metrics[0]: test_accuracy needs a classification task");
  expect_error("{}", "version: missing");
  expect_error(R"({"version":2})", "version: 2 is not supported");
  expect_error("{\"version\":1,", "not valid JSON: expected a quoted key at byte 13");
  expect_error("[1,2]", ": expected an object, got array");
}

TEST(Spec, BiasesAreWrittenOnlyWhenOnAndRefusedWhereUndefined) {
  expect_error(with(R"("model":{"biases":"yes"})"), "model.biases: expected true or false");
  expect_error(with(R"("model":{"biases":true,"asi":true})"),
               "model.biases: not with model.asi (the two copies would share one readout bias)");
  expect_error(with(R"("model":{"biases":true,"kind":"transformer"})"), "model.biases: only for model.kind \"mlp\"");
  EXPECT_EQ(json::write(spec_to_json(ExperimentSpec{})).find("biases"), std::string::npos);
  ExperimentSpec s;
  s.model.biases = true;
  const SpecResult back = parse_spec_text(json::write(spec_to_json(s)));
  ASSERT_TRUE(back.ok()) << back.errors[0];
  EXPECT_TRUE(back.spec.model.biases);
}

TEST(Spec, CollectsAllErrorsAtOnce) {
  SpecResult r = parse_spec_text(with(R"("model":{"widths":[0]},"optimizer":{"lr":-1},"bogus":1)"));
  EXPECT_EQ(r.errors.size(), 3u);
}

TEST(Spec, ModelDimsFollowTheSweepWidth) {
  ExperimentSpec s;
  s.model.widths = {10, 20, 30};
  s.model.input_bias = true;
  EXPECT_EQ(model_dims(s, 0), (std::vector<int>{9, 10, 20, 30, 1}));
  EXPECT_EQ(model_dims(s, 64), (std::vector<int>{9, 64, 64, 64, 1}));
}

// The rules of settings that do not combine (kRules, engine/spec/spec.cpp), one spec breaking each that the other
// tests leave out.
TEST(Spec, SettingsThatDoNotCombineAreRefusedWithTheirRule) {
  const std::pair<const char*, const char*> cases[] = {
      {R"("task":{"kind":"anchor"})", "task.kind: \"anchor\" needs model.kind \"transformer\""},
      {R"("model":{"kind":"transformer","transformer":{"init":"pytorch"}},"task":{"kind":"anchor"},)"
       R"("optimizer":{"kind":"sgd"})",
       "parametrization.preset: muP for a transformer follows the Adam table"},
      {R"("model":{"kind":"transformer","transformer":{"init":"gamma"}},"task":{"kind":"anchor"},)"
       R"("optimizer":{"kind":"adam"})",
       "model.transformer.init: \"gamma\" sets every init itself"},
      {R"("task":{"kind":"sectors","input_dim":2,"center_target":true})", "task.center_target: needs a regression task"},
      {R"("task":{"kind":"sectors","input_dim":2},"optimizer":{"kind":"gd_auto","lr":1})",
       "optimizer.kind: gd_auto needs a regression task (MSE)"},
      {R"("model":{"activation":"tanh","biases":true},"task":{"kind":"function_1d","input_dim":1,"target":"sin135",)"
       R"("gradient_loss":true})",
       "model.biases: not with task.gradient_loss"},
      {R"("model":{"kind":"residual_mlp","widths":[16],"activation":"tanh"},)"
       R"("task":{"kind":"function_1d","input_dim":1,"target":"sin135","gradient_loss":true})",
       "task.gradient_loss: not for a residual_mlp"},
      {R"("model":{"activation":"tanh"},"task":{"kind":"function_1d","input_dim":1,"target":"sin135",)"
       R"("gradient_loss":true},"optimizer":{"kind":"gd_auto","lr":1})",
       "task.gradient_loss: not with gd_auto (its Hessian is that of the plain MSE)"},
  };
  for (const auto& [fields, message] : cases) expect_error(with(fields), message);
}
