// The runner end to end: determinism, complete records, divergence is a result, not a crash.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/run/runner.hpp"

namespace {

std::string run_to_text(const ExperimentSpec& spec) {
  Runner runner(spec);
  while (runner.step()) {}
  return json::write(runner.results());
}

ExperimentSpec small_spec() {
  ExperimentSpec s;
  s.model.widths = {32, 32};
  s.schedule.steps = 40;
  s.sweep.width = {16, 64};
  s.sweep.seeds = {0, 1};
  s.metrics = {"train_loss", "test_loss", "act_rms", "act_delta_rms"};
  return s;
}

}  // namespace

TEST(Runner, SameSpecAndSeedGiveBitIdenticalResults) {
  ExperimentSpec s = small_spec();
  s.schedule.batch_size = 16;  // exercise the seeded batch shuffling too
  EXPECT_EQ(run_to_text(s), run_to_text(s));
  ExperimentSpec other = s;
  other.sweep.seeds = {5, 1};
  EXPECT_NE(run_to_text(s), run_to_text(other));
}

TEST(Runner, SweepMembersAndRecordsAreComplete) {
  ExperimentSpec s = small_spec();
  s.schedule.record_every = 7;
  Runner runner(s);
  EXPECT_EQ(runner.members().size(), 4u);
  EXPECT_EQ(runner.planned_steps(), 160);
  while (runner.step()) {}
  EXPECT_EQ(runner.total_steps(), 160);
  for (const auto& run : runner.members()) {
    EXPECT_EQ(run->status(), RunStatus::finished);
    EXPECT_EQ(run->recorded_steps(), (std::vector<int>{0, 7, 14, 21, 28, 35, 40}));
    for (const Series& series : run->series()) EXPECT_EQ(series.values.size(), 7u) << series.name;
    ASSERT_NE(run->find_series("act_delta_rms/h2"), nullptr);
    EXPECT_EQ(run->find_series("act_delta_rms/h1")->values[0], 0.0);  // no change at init
    EXPECT_GT(run->find_series("act_delta_rms/f")->values.back(), 0.0);
  }
  EXPECT_EQ(runner.members()[0]->width(), 16);
  EXPECT_EQ(runner.members()[3]->mlp()->dims()[2], 64);
}

TEST(Runner, DivergenceIsRecordedNotACrash) {
  ExperimentSpec s = small_spec();
  s.parametrization.preset = Preset::sp;
  s.sweep.lr = {0.05, 200.0};
  s.sweep.seeds = {0};
  s.sweep.width = {64};
  Runner runner(s);
  while (runner.step()) {}
  ASSERT_EQ(runner.members().size(), 2u);
  EXPECT_EQ(runner.members()[0]->status(), RunStatus::finished);
  EXPECT_EQ(runner.progress_steps(), runner.planned_steps());  // the diverged run counts as complete
  EXPECT_LT(runner.total_steps(), runner.planned_steps());
  const ::Member& blown = *runner.members()[1];
  EXPECT_EQ(blown.status(), RunStatus::diverged);
  EXPECT_GE(blown.diverged_at(), 1);
  EXPECT_LT(blown.diverged_at(), s.schedule.steps);
  const std::string text = json::write(runner.results());
  EXPECT_NE(text.find("\"status\":\"diverged\""), std::string::npos);
  EXPECT_TRUE(json::parse(text).ok());
}

TEST(Runner, ClassifiesTheSectorsTask) {
  ExperimentSpec s;
  s.model = {{64, 64}, Activation::tanh, true};
  s.task.kind = TaskKind::sectors;
  s.task.input_dim = 2;
  s.task.train_size = 256;
  s.task.test_size = 256;
  s.optimizer.kind = OptimizerKind::adam;
  s.optimizer.lr = 0.01;
  s.schedule.steps = 300;
  s.schedule.batch_size = 32;
  s.schedule.record_every = 50;
  s.metrics = {"train_loss", "test_accuracy"};
  Runner runner(s);
  while (runner.step()) {}
  const ::Member& run = *runner.members()[0];
  EXPECT_GT(run.find_series("test_accuracy")->values.back(), 0.9);  // chance is 1/3
}
