// Sweep members stepped side by side on threads (Runner::step_parallel) give the very numbers of one thread.
#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "engine/run/runner.hpp"
#include "engine/spec/spec_migrations.hpp"

namespace {

std::string serial_results(const ExperimentSpec& spec) {
  Runner runner(spec);
  while (runner.step()) {}
  return json::write(runner.results());
}

std::string parallel_results(const ExperimentSpec& spec, int threads, int steps_per_slice, int members = 1000) {
  Runner runner(spec);
  WorkerPool pool(threads);
  while (runner.step_parallel(pool, steps_per_slice, members)) {}
  EXPECT_EQ(runner.total_steps(), runner.planned_steps());
  return json::write(runner.results());
}

ExperimentSpec mlp_sweep() {
  ExperimentSpec s;
  s.model.widths = {32, 32};
  s.schedule.steps = 30;
  s.schedule.batch_size = 16;  // the seeded batch shuffling too
  s.sweep.width = {16, 48, 96};
  s.sweep.seeds = {0, 1};
  s.metrics = {"train_loss", "test_loss", "act_rms", "act_delta_rms"};
  return s;
}

ExperimentSpec transformer_sweep() {
  const SpecResult r = read_spec_text(R"({"version": 1, "model": {"kind": "transformer",
      "transformer": {"layers": 1, "d_model": 16, "heads": 2, "d_ff": 32, "norm": "pre", "init": "pytorch"}},
    "parametrization": {"preset": "sp"},
    "task": {"kind": "anchor", "train_size": 200, "test_size": 50, "seed": 0, "anchor": {"kind": "identity"}},
    "optimizer": {"kind": "adamw", "lr": 0.003, "weight_decay": 0.01},
    "schedule": {"steps": 12, "batch_size": 16, "record_every": 4},
    "sweep": {"seeds": [0, 1, 2]}, "metrics": ["train_loss", "test_loss", "id_accuracy"]})");
  EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0]);
  return r.spec;
}

}  // namespace

TEST(WorkerPool, RunsEveryJobOnceInEveryBatch) {
  WorkerPool pool(3);
  EXPECT_EQ(pool.threads(), 3);
  std::vector<std::atomic<int>> calls(997);
  for (int batch = 0; batch < 200; batch++)
    pool.run(int(calls.size()), [](void* c, int i) { (*static_cast<std::vector<std::atomic<int>>*>(c))[size_t(i)]++; },
             &calls);
  for (const auto& n : calls) EXPECT_EQ(n.load(), 200);
}

TEST(ParallelSweep, TwoThreadsGiveBitIdenticalResultsToOne) {
  const ExperimentSpec s = mlp_sweep();
  const std::string serial = serial_results(s);
  EXPECT_EQ(parallel_results(s, 1, 1), serial);
  EXPECT_EQ(parallel_results(s, 2, 1), serial);
  EXPECT_EQ(parallel_results(s, 2, 7), serial);  // slices that end between record steps
  EXPECT_EQ(parallel_results(s, 4, 30), serial);  // more threads than cores
  EXPECT_EQ(parallel_results(s, 2, 3, 2), serial);  // batches of a few members, round robin (the page's short slices)
}

TEST(ParallelSweep, TransformerMembersToo) {
  const ExperimentSpec s = transformer_sweep();
  EXPECT_EQ(parallel_results(s, 2, 5), serial_results(s));
  EXPECT_EQ(parallel_results(s, 2, 2, 2), serial_results(s));
}

TEST(ParallelSweep, DivergedAndFailedMembersEndAloneAsInOneThread) {
  ExperimentSpec s = mlp_sweep();
  s.parametrization.preset = Preset::sp;
  s.sweep.lr = {0.05, 200.0};  // the second learning rate diverges
  Runner serial(s), parallel(s);
  serial.inject_fault(1, 5, "injected");
  parallel.inject_fault(1, 5, "injected");
  while (serial.step()) {}
  WorkerPool pool(2);
  while (parallel.step_parallel(pool, 3, 3)) {}
  EXPECT_EQ(json::write(parallel.results()), json::write(serial.results()));
  int diverged = 0;
  for (const auto& r : parallel.members()) diverged += r->status() == RunStatus::diverged;
  EXPECT_GT(diverged, 0);
  EXPECT_EQ(parallel.members()[1]->status(), RunStatus::failed);
  EXPECT_EQ(parallel.members()[1]->error(), "injected");
}
