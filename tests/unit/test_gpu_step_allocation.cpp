// The GPU path's step allocates nothing once warm, record steps included: a member training on a ReferenceGpuDevice
// issues its steps, the device copies θ_t, ∂L/∂θ_t and the optimizer state back on every record step, and the CPU
// records the metrics from them. The first record step sizes the read buffers. Counted with a replaced global
// operator new, in this test binary only (as in test_no_allocation.cpp).
#include <gtest/gtest.h>

#include "engine/gpu/gpu_device.hpp"
#include "engine/run/runner.hpp"
#include "engine/spec/spec.hpp"
#include "allocation_counter.hpp"

namespace {

ExperimentSpec spec_from(const char* text) {
  SpecResult r = parse_spec_text(text);
  EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0]);
  return r.spec;
}

// Allocations over `calls` calls of Member::step (a record step takes two: one issues it, one takes its state back)
// of the first member, on a reference device, after its first two record steps came back.
long allocations_while_stepping(const ExperimentSpec& spec, int calls) {
  ReferenceGpuDevice device;
  Runner runner(spec, "", &device, "");
  Member& run = *runner.members()[0];
  while (run.recorded_steps().size() < 2) run.step();
  const size_t records_before = run.recorded_steps().size();
  const long before = g_allocations;
  for (int i = 0; i < calls; i++) run.step();
  const long allocations = g_allocations - before;
  EXPECT_TRUE(run.on_gpu());
  EXPECT_GE(run.recorded_steps().size() - records_before, 5u);  // record steps were counted too
  return allocations;
}

}  // namespace

TEST(GpuStepAllocation, MlpAllocatesNothing) {
  // Classification, Adam, mini-batches (batch indices written every step), every metric the MLP plan supports.
  const ExperimentSpec classification = spec_from(R"({"version":1,"backend":"webgpu","model":{"widths":[24,24]},
    "task":{"kind":"sectors","input_dim":2,"train_size":96,"test_size":64},
    "optimizer":{"kind":"adam","lr":0.01},"schedule":{"steps":200,"batch_size":16,"record_every":5},
    "metrics":["train_loss","test_loss","test_accuracy","act_rms","act_delta_rms","weight_delta_spectral",
               "batch_loss_mean"]})");
  EXPECT_EQ(allocations_while_stepping(classification, 60), 0);
  // Regression, SGD with momentum, full batch.
  const ExperimentSpec regression = spec_from(R"({"version":1,"backend":"webgpu","model":{"widths":[32]},
    "optimizer":{"kind":"sgd","lr":0.05,"momentum":0.9},"schedule":{"steps":200,"record_every":4},
    "metrics":["train_loss","test_loss","act_rms"]})");
  EXPECT_EQ(allocations_while_stepping(regression, 60), 0);
}

TEST(GpuStepAllocation, TransformerAllocatesNothing) {
  const ExperimentSpec s = spec_from(R"({"version":1,"backend":"webgpu","model":{"kind":"transformer","transformer":
    {"layers":2,"d_model":16,"heads":2,"d_ff":32,"norm":"pre","init":"pytorch"}},
    "parametrization":{"preset":"mup"},
    "task":{"kind":"anchor","train_size":120,"test_size":40,"seed":1,"anchor":{"kind":"identity"}},
    "optimizer":{"kind":"adamw","lr":0.01,"weight_decay":0.01},
    "schedule":{"steps":200,"batch_size":24,"record_every":5,"clip_norm":1},
    "metrics":["train_loss","test_loss","train_accuracy","id_accuracy"]})");
  EXPECT_EQ(allocations_while_stepping(s, 60), 0);
}
