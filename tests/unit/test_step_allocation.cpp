// The step loop allocates nothing (buffers sized once, llm.c style), including the records of the phenomena metrics
// that look at every neuron (condensation) or at a second pass (gradient-augmented loss, dropout masks). Counted with
// a replaced global operator new, in this test binary only.
#include <gtest/gtest.h>

#include "phenomena_util.hpp"
#include "allocation_counter.hpp"

namespace {

// Allocations during `steps` steps of the first run, every step a record step, after the run is built.
long allocations_while_stepping(const std::string& model_extra, const std::string& task_extra,
                                const std::string& metrics, int steps) {
  const ExperimentSpec spec = spec_from(R"({"version":1,
    "model":{"widths":[20],"activation":"tanh","input_bias":true)" + model_extra + R"(},
    "parametrization":{"preset":"sp"},
    "task":{"kind":"function_1d","target":"sin135","input_dim":1,"train_size":32,"test_size":32)" + task_extra + R"(},
    "optimizer":{"kind":"adam","lr":0.001},"schedule":{"steps":1000,"record_every":1},
    "sweep":{"seeds":[0]},"metrics":[)" + metrics + "]}");
  Runner runner(spec);
  Member& run = *runner.members()[0];
  run.step();  // the first step may size lazily built state
  const long before = g_allocations;
  for (int i = 0; i < steps; i++) run.step();
  return g_allocations - before;
}

}  // namespace

TEST(StepAllocation, CondensationRecordsAllocateNothing) {
  EXPECT_EQ(allocations_while_stepping("", "", R"("train_loss","condensation","neuron_paths")", 20), 0);
}

TEST(StepAllocation, FrequencyToggleStepsAllocateNothing) {
  EXPECT_EQ(allocations_while_stepping(R"(,"asi":true)", R"(,"gradient_loss":true)", R"("train_loss","fp_delta")", 20),
            0);
  EXPECT_EQ(allocations_while_stepping(R"(,"dropout":0.2)", "", R"("train_loss","test_loss","condensation")", 20), 0);
}
