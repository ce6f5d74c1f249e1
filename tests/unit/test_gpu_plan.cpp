// The GPU training plan, executed natively by the kernels' C++ references (ReferenceGpuDevice, float32), against the
// engine's CPU path (float64): the same records within float32 tolerance; the backend choice; a lost device
// continues on the CPU from the last step whose state came back; the spec field.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/gpu/gpu_device.hpp"
#include "engine/run/runner.hpp"

namespace {

ExperimentSpec regression_spec() {
  ExperimentSpec s;
  s.model.widths = {48, 48};
  s.schedule.steps = 40;
  s.sweep.width = {16, 67};
  s.optimizer.lr = 0.5;
  s.metrics = {"train_loss", "test_loss", "act_rms", "batch_loss_mean"};
  s.backend = Backend::webgpu;
  return s;
}

ExperimentSpec classification_spec() {
  ExperimentSpec s;
  s.model.widths = {40, 40};
  s.model.activation = Activation::gelu;
  s.task.kind = TaskKind::sectors;
  s.task.input_dim = 2;
  s.task.train_size = 96;
  s.optimizer.kind = OptimizerKind::adam;
  s.optimizer.lr = 0.01;
  s.optimizer.weight_decay = 1e-3;
  s.schedule.steps = 30;
  s.schedule.batch_size = 20;
  s.schedule.record_every = 7;
  s.metrics = {"train_loss", "test_loss", "test_accuracy", "batch_loss_mean"};
  s.backend = Backend::webgpu;
  return s;
}

// A residual MLP, μP in width and Depth-μP in depth, of width 40 (not a multiple of the GEMM tiles), L = 3 and 4
// blocks of `block_depth` weights; SGD on the sin toy or Adam on sectors, mini-batches of 16.
ExperimentSpec residual_spec(int block_depth, bool block_norm, OptimizerKind kind) {
  ExperimentSpec s = kind == OptimizerKind::sgd ? regression_spec() : classification_spec();
  s.model.kind = ModelKind::residual_mlp;
  s.model.widths = {40};
  s.model.depth = 3;
  s.model.block_depth = block_depth;
  s.model.block_norm = block_norm;
  s.parametrization.preset = Preset::mup;
  s.parametrization.depth_rule = DepthRule::depth_mup;
  s.optimizer.kind = kind;
  s.optimizer.momentum = kind == OptimizerKind::sgd ? 0.9 : 0.0;
  s.optimizer.lr = kind == OptimizerKind::sgd ? 0.05 : 0.01;
  s.schedule.steps = 30;
  s.schedule.batch_size = 16;
  s.schedule.record_every = 5;
  s.sweep = {};
  s.sweep.depth = {3, 4};
  // The RMS change of every stream since init, the last one included. No test_accuracy: it counts test points, and
  // one point on the decision boundary flips with float32's order of summation (Adam, block_depth 2 with the norm:
  // 0.957 on the CPU, 0.953 on the plan at step 30, while the losses agree to 1e-5).
  s.metrics = {"train_loss", "test_loss", "act_rms", "act_delta_rms", "batch_loss_mean"};
  return s;
}

void run_all(Runner& r) {
  while (r.step()) {}
}

// Largest |gpu − cpu| / max(|cpu|, 1e-3) over every recorded value of every series.
double max_rel_diff(const Runner& cpu, const Runner& gpu) {
  double worst = 0;
  for (size_t i = 0; i < cpu.members().size(); i++) {
    const ::Member& a = *cpu.members()[i];
    const ::Member& b = *gpu.members()[i];
    EXPECT_EQ(a.recorded_steps(), b.recorded_steps());
    for (size_t k = 0; k < a.series().size(); k++) {
      const auto& x = a.series()[k].values;
      const auto& y = b.series()[k].values;
      EXPECT_EQ(x.size(), y.size()) << a.series()[k].name;
      for (size_t j = 0; j < std::min(x.size(), y.size()); j++)
        worst = std::max(worst, std::fabs(x[j] - y[j]) / std::max(std::fabs(x[j]), 1e-3));
    }
  }
  return worst;
}

// float32 against float64 over 30-40 steps (the differences are printed); 1e-4 leaves room for other compilers.
constexpr double kTolerance = 1e-4;

}  // namespace

TEST(GpuPlan, RegressionWithSgdMatchesTheCpuPath) {
  ExperimentSpec s = regression_spec();
  ReferenceGpuDevice device;
  Runner gpu(s, "", &device, "");
  EXPECT_EQ(gpu.members_on_gpu(), 2);
  Runner cpu(s);
  EXPECT_EQ(cpu.members_on_gpu(), 0);
  run_all(gpu);
  run_all(cpu);
  EXPECT_EQ(gpu.total_steps(), 2 * 40);
  const double diff = max_rel_diff(cpu, gpu);
  std::printf("regression, SGD, full batch: max relative difference %.2e\n", diff);
  EXPECT_LT(diff, kTolerance);
  EXPECT_LT(gpu.members()[0]->series()[0].values.back(), 0.5 * gpu.members()[0]->series()[0].values.front());
}

// The zero readout (parametrization.readout_init) reaches the plan with the weights the CPU drew: the output is 0 at
// init on the device too, and the run follows the CPU's.
TEST(GpuPlan, ZeroReadoutMatchesTheCpuPath) {
  ExperimentSpec s = regression_spec();
  s.parametrization.readout_init = ReadoutInit::zero;
  s.metrics = {"train_loss", "act_rms"};
  ReferenceGpuDevice device;
  Runner gpu(s, "", &device, "");
  EXPECT_EQ(gpu.members_on_gpu(), 2);
  Runner cpu(s);
  run_all(gpu);
  run_all(cpu);
  const double diff = max_rel_diff(cpu, gpu);
  std::printf("zero readout, SGD: max relative difference %.2e\n", diff);
  EXPECT_LT(diff, kTolerance);
  for (const auto& run : gpu.members()) EXPECT_EQ(run->find_series("act_rms/f")->values[0], 0.0);
}

TEST(GpuPlan, ClassificationWithAdamAndMiniBatchesMatchesTheCpuPath) {
  for (OptimizerKind kind : {OptimizerKind::adam, OptimizerKind::adamw}) {
    ExperimentSpec s = classification_spec();
    s.optimizer.kind = kind;
    ReferenceGpuDevice device;
    Runner gpu(s, "", &device, "");
    Runner cpu(s);
    run_all(gpu);
    run_all(cpu);
    const double diff = max_rel_diff(cpu, gpu);
    std::printf("sectors, %s, batch 20, record every 7: max relative difference %.2e\n", optimizer_name(kind), diff);
    EXPECT_LT(diff, kTolerance);
    EXPECT_EQ(gpu.members()[0]->status(), RunStatus::finished);
  }
}

TEST(GpuPlan, SgdWithMomentumAndWeightDecayMatchesTheCpuPath) {
  ExperimentSpec s = regression_spec();
  s.optimizer.momentum = 0.9;
  s.optimizer.weight_decay = 0.01;
  s.model.activation = Activation::tanh;
  s.schedule.batch_size = 16;
  ReferenceGpuDevice device;
  Runner gpu(s, "", &device, "");
  Runner cpu(s);
  run_all(gpu);
  run_all(cpu);
  EXPECT_LT(max_rel_diff(cpu, gpu), kTolerance);
}

// model.biases: bias_act_forward adds m'·b (the output layer's too), reduce_rows gives m'·Σ_rows δ, and the update
// skips weight decay on biases. μP's hidden biases have m' = √n, so a wrong multiplier shows at once.
TEST(GpuPlan, BiasesInEveryLayerMatchTheCpuPath) {
  for (OptimizerKind kind : {OptimizerKind::sgd, OptimizerKind::adam}) {
    ExperimentSpec s = kind == OptimizerKind::sgd ? regression_spec() : classification_spec();
    s.model.biases = true;
    ReferenceGpuDevice device;
    Runner gpu(s, "", &device, "");
    EXPECT_EQ(gpu.members_on_gpu(), int(gpu.members().size()));
    Runner cpu(s);
    run_all(gpu);
    run_all(cpu);
    const double diff = max_rel_diff(cpu, gpu);
    std::printf("biases, %s: max relative difference %.2e\n", optimizer_name(kind), diff);
    EXPECT_LT(diff, kTolerance);
    const Mlp& trained = *gpu.members()[0]->mlp();
    double moved = 0;  // the biases trained (they start at 0)
    for (int l = 0; l < trained.layers(); l++)
      for (int i = 0; i < trained.dims()[size_t(l) + 1]; i++) moved = std::max(moved, std::fabs(trained.bias(l)[i]));
    EXPECT_GT(moved, 1e-3) << optimizer_name(kind);
  }
}

// A residual net's plan (skips by add_into forward and backward, the readout reading the last stream, the pre-norm by
// the layernorm kernels with γ = 1) against Mlp::forward/backward: one- and two-weight blocks, with and without the
// norm, SGD with momentum on regression and Adam on classification.
TEST(GpuPlan, ResidualMlpMatchesTheCpuPath) {
  for (OptimizerKind kind : {OptimizerKind::sgd, OptimizerKind::adam})
    for (int block_depth : {1, 2})
      for (bool block_norm : {false, true}) {
        const ExperimentSpec s = residual_spec(block_depth, block_norm, kind);
        ASSERT_TRUE(check_spec(s).empty()) << check_spec(s)[0];
        ReferenceGpuDevice device;
        Runner gpu(s, "", &device, "");
        EXPECT_EQ(gpu.members_on_gpu(), 2);
        Runner cpu(s);
        run_all(gpu);
        run_all(cpu);
        const double diff = max_rel_diff(cpu, gpu);
        std::printf("residual, %s, block_depth %d, block_norm %d, L = 3 and 4: max relative difference %.2e\n",
                    optimizer_name(kind), block_depth, int(block_norm), diff);
        EXPECT_LT(diff, kTolerance) << optimizer_name(kind) << " block_depth " << block_depth << " norm " << block_norm;
        for (const auto& run : gpu.members()) {
          EXPECT_EQ(run->status(), RunStatus::finished);
          EXPECT_TRUE(run->backend_note().empty()) << run->backend_note();
          const std::vector<double>& loss = run->series()[0].values;  // train_loss: it trained
          EXPECT_LT(loss.back(), 0.9 * loss.front()) << optimizer_name(kind) << " block_depth " << block_depth;
        }
      }
}

TEST(GpuPlan, BackendChoice) {
  ReferenceGpuDevice hw, sw;
  sw.set_fallback(true);
  const BackendChoice auto_hw = choose_backend(Backend::auto_, &hw, "");
  EXPECT_FALSE(auto_hw.gpu);  // no size is measured to be faster on a GPU yet: auto stays on the CPU
  EXPECT_NE(auto_hw.note.find("not yet measured"), std::string::npos) << auto_hw.note;
  EXPECT_TRUE(choose_backend(Backend::webgpu, &hw, "").gpu);
  EXPECT_FALSE(choose_backend(Backend::auto_, nullptr, "no adapter").gpu);
  EXPECT_EQ(choose_backend(Backend::auto_, nullptr, "no adapter").note, "");
  const BackendChoice auto_sw = choose_backend(Backend::auto_, &sw, "");
  EXPECT_FALSE(auto_sw.gpu);  // auto never picks a software fallback
  EXPECT_NE(auto_sw.note.find("software fallback"), std::string::npos) << auto_sw.note;
  EXPECT_TRUE(choose_backend(Backend::webgpu, &sw, "").gpu);  // forced
  EXPECT_FALSE(choose_backend(Backend::cpu, &hw, "").gpu);
  const BackendChoice none = choose_backend(Backend::webgpu, nullptr, "no WebGPU adapter is available");
  EXPECT_FALSE(none.gpu);
  EXPECT_NE(none.note.find("no WebGPU adapter is available"), std::string::npos) << none.note;
  hw.lose();
  EXPECT_FALSE(choose_backend(Backend::auto_, &hw, "").gpu);
}

TEST(GpuPlan, LostDeviceContinuesOnTheCpuFromTheLastStepThatCameBack) {
  ExperimentSpec s = regression_spec();
  s.sweep.width = {};
  s.schedule.record_every = 5;
  ReferenceGpuDevice device;
  Runner gpu(s, "", &device, "");
  while (gpu.members()[0]->steps_done() < 13) gpu.step();
  device.lose();
  run_all(gpu);
  const ::Member& run = *gpu.members()[0];
  EXPECT_FALSE(run.on_gpu());
  EXPECT_EQ(run.status(), RunStatus::finished);
  EXPECT_EQ(run.steps_done(), 40);
  // Record step 10 was the last state read back: update 10 is finished on the CPU, which goes on from step 11.
  EXPECT_NE(run.backend_note().find("lost"), std::string::npos) << run.backend_note();
  EXPECT_NE(run.backend_note().find("from step 11"), std::string::npos) << run.backend_note();
  Runner cpu(s);
  run_all(cpu);
  EXPECT_LT(max_rel_diff(cpu, gpu), kTolerance);
  EXPECT_EQ(gpu.total_steps(), 40);
}

TEST(GpuPlan, DeviceLostBeforeAnythingCameBackStartsOverOnTheCpu) {
  ExperimentSpec s = regression_spec();
  s.sweep.width = {};
  ReferenceGpuDevice device;
  Runner gpu(s, "", &device, "");
  device.lose();
  run_all(gpu);
  EXPECT_NE(gpu.members()[0]->backend_note().find("from step 0"), std::string::npos) << gpu.members()[0]->backend_note();
  Runner cpu(s);
  run_all(cpu);
  // All on the CPU, in float32 (backend webgpu computes in float32 wherever it runs): bit-identical numbers; the
  // result file says where they came from.
  const json::Value on_cpu = cpu.results().find("runs")->array[0], moved = gpu.results().find("runs")->array[0];
  for (const char* key : {"series", "summary", "status"})
    EXPECT_EQ(json::write(*on_cpu.find(key)), json::write(*moved.find(key))) << key;
  EXPECT_EQ(on_cpu.find("backend")->string, "cpu");
  EXPECT_EQ(moved.find("backend")->string, "webgpu");
  EXPECT_TRUE(moved.find("moved_to_cpu")->boolean);
  EXPECT_EQ(moved.find("precision")->string, "float32");
}

TEST(GpuPlan, SpecBackendFieldIsValidatedAndOnlyWrittenWhenChosen) {
  EXPECT_EQ(spec_to_json(ExperimentSpec{}).find("backend"), nullptr);  // old documents and links unchanged
  SpecResult r = parse_spec_text(R"({"version": 1, "backend": "webgpu"})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.spec.backend, Backend::webgpu);
  EXPECT_EQ(spec_to_json(r.spec).find("backend")->string, "webgpu");
  SpecResult bad = parse_spec_text(R"({"version": 1, "backend": "cuda"})");
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_EQ(bad.errors[0], "backend: \"cuda\" is not one of auto, cpu, webgpu");
}
