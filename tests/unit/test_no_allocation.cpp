// The training step loop allocates nothing once each member has taken its first step (buffers are sized when a run
// is built, as in llm.c, or at a model's first pass): count every operator new while stepping after that.
#include <gtest/gtest.h>

#include "engine/run/runner.hpp"
#include "engine/spec/spec.hpp"
#include "allocation_counter.hpp"

TEST(StepLoop, AllocatesNothing) {
  for (OptimizerKind kind : {OptimizerKind::sgd, OptimizerKind::adam}) {
    ExperimentSpec s;
    s.model.widths = {32, 32};
    s.optimizer.kind = kind;
    s.optimizer.lr = 0.01;
    s.schedule.steps = 100;
    s.schedule.batch_size = 16;  // mini-batches: exercises shuffling and gathering
    s.sweep.width = {16, 32};
    s.metrics = {"train_loss", "test_loss", "act_rms", "act_delta_rms", "weight_delta_spectral"};
    Runner runner(s);
    for (size_t i = 0; i < runner.members().size(); i++) runner.step();  // each member's first step
    const long before = g_allocations.load();
    long steps = long(runner.members().size());
    while (runner.step()) steps++;
    EXPECT_EQ(steps, 200);
    EXPECT_EQ(g_allocations.load() - before, 0) << optimizer_name(kind);
  }
}

// float32 mode (engine/kernels/gemm_f32.hpp): its packing buffers are sized at the first forward pass, not after.
TEST(StepLoop, Float32AllocatesNothing) {
  ExperimentSpec s;
  s.model.widths = {32, 300};
  s.optimizer.kind = OptimizerKind::adam;
  s.optimizer.lr = 0.01;
  s.schedule.steps = 50;
  s.schedule.batch_size = 16;
  s.precision = Precision::float32;
  s.metrics = {"train_loss", "test_loss", "act_rms"};
  Runner runner(s);
  runner.step();
  const long before = g_allocations.load();
  long steps = 1;
  while (runner.step()) steps++;
  EXPECT_EQ(steps, 50);
  EXPECT_EQ(g_allocations.load() - before, 0);
}

// The Transformer's float32 mode: its packing buffers are sized with its activations at the first forward pass
// (Transformer::size_activations), so every step after the first allocates nothing.
TEST(StepLoop, TransformerFloat32AllocatesNothing) {
  SpecResult r = parse_spec_text(R"({"version":1,"precision":"float32","model":{"kind":"transformer","transformer":
    {"layers":2,"d_model":16,"heads":2,"d_ff":32,"norm":"pre","init":"pytorch"}},
    "task":{"kind":"anchor","train_size":120,"test_size":40,"seed":1,"anchor":{"kind":"identity"}},
    "optimizer":{"kind":"adamw","lr":0.01,"weight_decay":0.01},
    "schedule":{"steps":60,"batch_size":24,"record_every":5,"clip_norm":1},
    "metrics":["train_loss","test_loss","train_accuracy","id_accuracy"]})");
  ASSERT_TRUE(r.ok()) << r.errors[0];
  Runner runner(r.spec);
  runner.step();
  const long before = g_allocations.load();
  long steps = 1;
  while (runner.step()) steps++;
  EXPECT_EQ(steps, 60);
  EXPECT_EQ(g_allocations.load() - before, 0);
}

// A Transformer that never runs a forward pass (the page's replica of a run trained in a worker) holds its
// parameters and gradients only: the activations for its evaluation chunk (128 sequences) come with the first pass.
TEST(StepLoop, TransformerSizesItsActivationsAtTheFirstPass) {
  SpecResult r = parse_spec_text(R"({"version":1,"precision":"float32","model":{"kind":"transformer","transformer":
    {"layers":2,"d_model":128,"heads":2,"d_ff":512,"norm":"pre","init":"pytorch"}},
    "task":{"kind":"anchor","train_size":120,"test_size":40,"seed":1,"anchor":{"kind":"identity"}},
    "optimizer":{"kind":"adam","lr":0.01},"schedule":{"steps":2,"batch_size":24}})");
  ASSERT_TRUE(r.ok()) << r.errors[0];
  const long bytes_before = g_allocated_bytes.load();
  Runner runner(r.spec);
  const long built = g_allocated_bytes.load() - bytes_before;
  runner.step();
  const long first_step = g_allocated_bytes.load() - bytes_before - built;
  EXPECT_GT(first_step, 4 * built) << built << " bytes to build, " << first_step << " at the first step";
}

// An MLP that never trains (the page's replica) holds θ: the gradient (θ's size) and the products' scratch (the
// 512 × 512 layer transposed, about θ's size) come with the first step. Built with them, it would hold about 3 × θ's
// bytes.
TEST(StepLoop, MlpSizesItsGradientAndScratchAtTheFirstStep) {
  ExperimentSpec s;
  s.model.widths = {512, 512};
  s.optimizer.lr = 0.01;
  s.schedule.steps = 2;
  s.metrics = {"train_loss"};
  const long bytes_before = g_allocated_bytes.load();
  Runner runner(s);
  const long built = g_allocated_bytes.load() - bytes_before;
  const long theta = long(runner.members()[0]->parameters().size() * sizeof(double));
  runner.step();
  const long first_step = g_allocated_bytes.load() - bytes_before - built;
  EXPECT_LT(built, 2.5 * double(theta)) << built << " bytes to build, θ " << theta;
  EXPECT_GT(first_step, theta) << first_step << " bytes at the first step, θ " << theta;
}
