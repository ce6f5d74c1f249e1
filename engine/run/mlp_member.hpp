// A sweep member whose model is an Mlp: the training step (mini-batches, dropout, the gradient-augmented loss,
// gd_auto's step-size search, stop at a target loss), its record steps, and the same step as a kernel plan on a
// GpuDevice in float32 (engine/run/mlp_member_gpu.cpp).
#pragma once
#include <algorithm>
#include <memory>
#include <string>

#include "engine/base/rng.hpp"
#include "engine/model/batch_order.hpp"
#include "engine/metrics/hessian.hpp"
#include "engine/model/gradient_loss.hpp"
#include "engine/model/mlp.hpp"
#include "engine/model/mlp_loss.hpp"
#include "engine/model/optimizer.hpp"
#include "engine/run/member.hpp"

// What of the spec the device kernel plan does not do, as a phrase for the backend note: the first field whose row
// says it runs on the CPU only (engine/spec/spec_fields.cpp: gd_auto, stop_loss_ratio, the newer activations, ASI,
// dropout, the gradient-augmented loss), else the first metric whose row says so (sharpness); "" when a spec can
// train on a device.
std::string mlp_cpu_only(const ExperimentSpec& s);

class MlpMember : public Member {
 public:
  MlpMember(const ExperimentSpec& spec, const TaskData& data, MemberCoords coords);
  // Starts training on `device` where the spec's backend picks it.
  void start_on(GpuDevice* device, const std::string& why_none);

  void step() override;
  int width() const override;
  std::string label() const override;
  const std::vector<double>& parameters() const override { return mlp_.params(); }
  const Mlp* mlp() const override { return &mlp_; }

 private:
  Rows next_batch();
  // Records step t; the train loss is measured on the train set when `train_loss` is NaN.
  void record_step(int t, double train_loss);
  void finish() override;
  // gd_auto: one GD step at η = lr / λ_max; a step that raises the loss by more than 1% is undone and retried
  // at half the step. Returns false if no step could be taken.
  bool auto_step(int t, double loss);
  void estimate_step_size();
  HostState host_state() override;
  void load_parameters(const double* params) override { std::copy_n(params, mlp_.params().size(), mlp_.params().begin()); }
  BatchOrder& batch_order() override { return batches_; }
  void record_read(int t, double last_batch_loss) override;
  void finish_update(int t) override;

  Mlp mlp_;
  Optimizer optimizer_;
  Record record_{mlp_, data_};
  int batch_size_;
  BatchOrder batches_;  // mini-batch SGD: shuffled epochs of the train rows
  std::vector<double> batch_x_, batch_y_;
  std::vector<int> batch_labels_;
  std::vector<double> dout_;
  double zero_loss_ = 0;  // train loss of the zero predictor (stop_loss_ratio)
  std::unique_ptr<HessianProbe> hessian_;  // on the train set (sharpness, gd_auto)
  double eta_ = 0;                         // gd_auto: the step in use
  std::vector<double> params_before_, grads_before_;
  std::unique_ptr<GradientLoss> gradient_loss_;  // task.gradient_loss
  std::vector<double> target_slope_;              // the target's derivative at the train points
  Rng dropout_rng_{0};                            // model.dropout: the masks of the training steps
};
