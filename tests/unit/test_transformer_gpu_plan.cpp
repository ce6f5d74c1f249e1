// The Transformer's GPU training plan (engine/gpu/transformer_gpu_plan.hpp), executed natively by the kernels' C++
// references (ReferenceGpuDevice, float32), against the CPU Transformer (float64): the same records and the same
// trained parameters within float32 tolerance, pre-LN and post-LN (biases, GELU, several heads, warm-up + cosine
// schedule, clipping, decoupled weight decay on matrices only); a lost device continues on the CPU; options the plan
// does not implement train on the CPU with a note.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/gpu/gpu_device.hpp"
#include "engine/model/anchor_trainer.hpp"
#include "engine/run/runner.hpp"
#include "engine/spec/spec.hpp"

namespace {

// Post-LN with every bias, GELU, 2 heads, uniform γ-init, 1/d_head attention, AdamW with warm-up, cosine and
// clipping (the anchor experiment test's spec), over a γ × weight-decay sweep.
const char* kPostLn = R"({"version":1,"name":"tf","backend":"webgpu","model":{"kind":"transformer","transformer":
  {"layers":2,"d_model":16,"heads":2,"d_ff":32,"norm":"post","activation":"gelu","attention_bias":true,
   "mlp_bias":true,"init":"gamma","gamma":0.7,"init_distribution":"uniform","attention_scale":"linear"}},
  "parametrization":{"preset":"sp"},
  "task":{"kind":"anchor","train_size":300,"test_size":100,"seed":3,
          "anchor":{"kind":"two_anchor","vocab":120,"seq_len":9,"ood_test_size":50,"modulus":8}},
  "optimizer":{"kind":"adamw","lr":0.002,"weight_decay":0.01},
  "schedule":{"steps":12,"batch_size":32,"record_every":4,"warmup_fraction":0.5,"cosine":true,
              "final_lr_fraction":0.1,"clip_norm":0.5},
  "sweep":{"gamma":[0.3,0.8],"weight_decay":[0,0.1],"seeds":[0]},
  "metrics":["train_loss","test_loss","train_accuracy","id_accuracy","ood_accuracy","commutativity","wq_cosine"]})";

// Pre-LN under muP with Adam (per-tensor multipliers and learning rates), the identity preset's task, 3 layers.
const char* kPreLn = R"({"version":1,"name":"tf","backend":"webgpu","model":{"kind":"transformer","transformer":
  {"layers":3,"d_model":24,"heads":3,"d_ff":40,"norm":"pre","init":"pytorch"}},
  "parametrization":{"preset":"mup"},
  "task":{"kind":"anchor","train_size":200,"test_size":60,"seed":1,"anchor":{"kind":"identity"}},
  "optimizer":{"kind":"adam","lr":0.01,"weight_decay":0.001},
  "schedule":{"steps":10,"batch_size":24,"record_every":5,"clip_norm":1},
  "sweep":{"seeds":[0]},
  "metrics":["train_loss","test_loss","train_accuracy","id_accuracy"]})";

ExperimentSpec spec(const char* text) {
  SpecResult r = parse_spec_text(text);
  EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0]);
  return r.spec;
}

void run_all(Runner& r) {
  while (r.step()) {}
}

bool is_accuracy(const std::string& name) { return name.find("accuracy") != std::string::npos || name == "commutativity"; }

// Largest |gpu − cpu| / max(|cpu|, 1e-3) over the continuous series, and the largest |gpu − cpu| of the accuracies
// (a fraction of sequences: one argmax that flips between two near-equal logits moves it by 1/count).
struct Diff {
  double continuous = 0, accuracy = 0, params = 0;
};

Diff compare(const Runner& cpu, const Runner& gpu) {
  Diff d;
  EXPECT_EQ(cpu.members().size(), gpu.members().size());
  for (size_t i = 0; i < cpu.members().size(); i++) {
    const ::Member& a = *cpu.members()[i];
    const ::Member& b = *gpu.members()[i];
    EXPECT_EQ(a.status(), RunStatus::finished);
    EXPECT_EQ(b.status(), RunStatus::finished);
    EXPECT_EQ(a.recorded_steps(), b.recorded_steps());
    for (size_t k = 0; k < a.series().size(); k++) {
      const auto& x = a.series()[k].values;
      const auto& y = b.series()[k].values;
      EXPECT_EQ(x.size(), y.size()) << a.series()[k].name;
      for (size_t j = 0; j < std::min(x.size(), y.size()); j++) {
        if (is_accuracy(a.series()[k].name)) d.accuracy = std::max(d.accuracy, std::fabs(x[j] - y[j]));
        else d.continuous = std::max(d.continuous, std::fabs(x[j] - y[j]) / std::max(std::fabs(x[j]), 1e-3));
      }
    }
    // The trained parameters themselves, relative to the tensor's largest entry.
    const Transformer& ma = a.transformer()->model();
    const Transformer& mb = b.transformer()->model();
    for (const TransformerTensor& t : ma.tensors()) {
      // A key bias adds the same score to every key of a query, which the softmax cancels: its gradient is exactly
      // 0 in float64 and float32 rounding in float32, which Adam's normalization turns into steps of up to lr.
      // Their difference says nothing about the plan; both must merely stay within lr × steps of their zero init.
      if (t.name.size() > 3 && t.name.compare(t.name.size() - 3, 3, ".bk") == 0) {
        const double reach = 1.5 * a.coords().lr * a.steps_done();
        for (long e = t.offset; e < t.offset + t.size(); e++) {
          EXPECT_LE(std::fabs(ma.params()[size_t(e)]), reach) << t.name;
          EXPECT_LE(std::fabs(mb.params()[size_t(e)]), reach) << t.name;
        }
        continue;
      }
      double scale = 1e-6, worst = 0;
      for (long e = t.offset; e < t.offset + t.size(); e++) {
        scale = std::max(scale, std::fabs(ma.params()[size_t(e)]));
        worst = std::max(worst, std::fabs(ma.params()[size_t(e)] - mb.params()[size_t(e)]));
      }
      d.params = std::max(d.params, worst / scale);
    }
  }
  return d;
}

// float32 against float64 over 10-12 Adam steps: losses and metrics, parameters (relative to their tensor's largest
// entry) and accuracies (the differences are printed); the bounds leave room for other compilers (FMA contraction).
constexpr double kLossTolerance = 1e-4, kParamTolerance = 1e-3, kAccuracyTolerance = 0.03;

void expect_match(const char* text) {
  const ExperimentSpec s = spec(text);
  ReferenceGpuDevice device;
  Runner gpu(s, "", &device, "");
  EXPECT_EQ(gpu.members_on_gpu(), int(gpu.members().size()));
  ExperimentSpec on_cpu = s;
  on_cpu.backend = Backend::cpu;
  Runner cpu(on_cpu);
  EXPECT_EQ(cpu.members_on_gpu(), 0);
  run_all(gpu);
  run_all(cpu);
  const Diff d = compare(cpu, gpu);
  std::printf("loss/metric rel diff %.3g, accuracy diff %.3g, parameter rel diff %.3g\n", d.continuous, d.accuracy,
              d.params);
  EXPECT_LT(d.continuous, kLossTolerance);
  EXPECT_LT(d.accuracy, kAccuracyTolerance);
  EXPECT_LT(d.params, kParamTolerance);
  EXPECT_GT(d.params, 0);  // it really trained in float32 on the device, not on the CPU
}

}  // namespace

TEST(TransformerGpuPlan, PostLnWithBiasesScheduleAndClippingMatchesTheCpu) { expect_match(kPostLn); }

TEST(TransformerGpuPlan, PreLnMupWithAdamMatchesTheCpu) { expect_match(kPreLn); }

TEST(TransformerGpuPlan, ALostDeviceContinuesOnTheCpuFromTheLastRecord) {
  ExperimentSpec s = spec(kPreLn);
  ReferenceGpuDevice device;
  Runner gpu(s, "", &device, "");
  // Steps 0-6 issued: the record read of step 5 came back, so the CPU finishes update 5 and goes on from 6.
  for (int i = 0; i < 40 && gpu.members()[0]->steps_done() < 7; i++) gpu.step();
  device.lose();
  run_all(gpu);
  const ::Member& r = *gpu.members()[0];
  EXPECT_TRUE(r.moved_to_cpu());
  EXPECT_NE(r.backend_note().find("continued on the CPU from step 6"), std::string::npos) << r.backend_note();
  s.backend = Backend::cpu;
  Runner cpu(s);
  run_all(cpu);
  const Diff d = compare(cpu, gpu);
  EXPECT_LT(d.continuous, kLossTolerance);
  EXPECT_LT(d.params, kParamTolerance);
}

TEST(TransformerGpuPlan, SgdTrainsOnTheCpuWithANote) {
  std::string text = kPreLn;
  text.replace(text.find("\"mup\""), 5, "\"sp\"");
  text.replace(text.find("\"adam\""), 6, "\"sgd\"");
  ReferenceGpuDevice device;
  Runner r(spec(text.c_str()), "", &device, "");
  EXPECT_EQ(r.members_on_gpu(), 0);
  EXPECT_NE(r.members()[0]->backend_note().find("implements Adam and AdamW, not sgd"), std::string::npos)
      << r.members()[0]->backend_note();
}
