// Faults: an exception in one sweep member ends that member as failed, with its message in the result document and
// the CSV, while the others train on to the same numbers as without the fault.
#include <gtest/gtest.h>

#include "engine/run/runner.hpp"
#include "engine/spec/result_files.hpp"

namespace {

ExperimentSpec three_widths() {
  ExperimentSpec s;
  s.model.widths = {16};
  s.task.train_size = 32;
  s.schedule.steps = 20;
  s.sweep.width = {8, 16, 32};
  return s;
}

json::Value run_all(Runner& runner) {
  while (runner.step()) {}
  return runner.results();
}

}  // namespace

TEST(RunnerFaults, AFailedMemberDoesNotStopTheOthers) {
  Runner clean(three_widths());
  const json::Value expected = run_all(clean);

  Runner faulty(three_widths());
  faulty.inject_fault(1, 5, "injected: device lost");
  const json::Value results = run_all(faulty);
  ASSERT_TRUE(faulty.done());
  EXPECT_EQ(faulty.progress_steps(), faulty.planned_steps());  // a failed member counts as complete

  const ::Member& failed = *faulty.members()[1];
  EXPECT_EQ(failed.status(), RunStatus::failed);
  EXPECT_EQ(failed.error(), "injected: device lost");
  EXPECT_EQ(failed.steps_done(), 5);
  const json::Value& runs = *results.find("runs");
  EXPECT_EQ(runs.array[1].find("status")->string, "failed");
  EXPECT_EQ(runs.array[1].find("error")->string, "injected: device lost");
  EXPECT_EQ(runs.array[1].find("steps_done")->number, 5);
  // The other members: finished, bit-identical to the fault-free sweep, and without an "error" field.
  for (size_t i : {size_t(0), size_t(2)}) {
    EXPECT_EQ(faulty.members()[i]->status(), RunStatus::finished);
    EXPECT_EQ(runs.array[i].find("error"), nullptr);
    EXPECT_EQ(json::write(runs.array[i]), json::write(expected.find("runs")->array[i]));
  }
  const std::string csv = results_csv(results);
  EXPECT_NE(csv.find("\n16,"), std::string::npos);
  EXPECT_NE(csv.find(",failed,"), std::string::npos) << csv.substr(0, 400);
}

TEST(RunnerFaults, AFaultAtTheFirstStepLeavesAnEmptyFailedRun) {
  Runner runner(three_widths());
  runner.inject_fault(0, 0, "at once");
  const json::Value results = run_all(runner);
  EXPECT_EQ(runner.members()[0]->status(), RunStatus::failed);
  EXPECT_EQ(runner.members()[0]->steps_done(), 0);
  EXPECT_EQ(results.find("runs")->array[0].find("recorded_steps")->array.size(), 0u);
  EXPECT_EQ(runner.members()[2]->status(), RunStatus::finished);
}
