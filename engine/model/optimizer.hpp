// SGD (with momentum) and Adam / AdamW over a model's flat parameter buffer, one learning-rate
// multiplier per tensor (from the Parametrization). State is allocated once, at the first step; after it, step()
// allocates nothing.
#pragma once
#include <vector>

#include "engine/base/enum_names.hpp"

// gd_auto: full-batch gradient descent whose step is η = lr / λ_max (lr is the fraction, e.g. 0.5), λ_max the
// top Hessian eigenvalue, re-estimated by the MLP member (engine/metrics/hessian.hpp); the update itself is plain SGD.
enum class OptimizerKind { sgd, adam, adamw, gd_auto };
// gd_auto re-estimates λ_max every kGdAutoEstimateEvery steps, by at most kGdAutoEstimateIters power iterations
// (engine/run/mlp_member.cpp; the time budget counts them).
constexpr int kGdAutoEstimateEvery = 100, kGdAutoEstimateIters = 50;
inline constexpr EnumName<OptimizerKind> kOptimizerNames[] = {
    {OptimizerKind::sgd, "sgd"},
    {OptimizerKind::adam, "adam"},
    {OptimizerKind::adamw, "adamw"},
    {OptimizerKind::gd_auto, "gd_auto"},
};
inline const char* optimizer_name(OptimizerKind k) { return enum_name(kOptimizerNames, k); }

struct OptimizerConfig {
  OptimizerKind kind = OptimizerKind::sgd;
  double lr = 0.1;
  double momentum = 0;  // SGD only
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  double weight_decay = 0;  // L2 added to the gradient (sgd, adam); decoupled for adamw
};

struct TensorSlice {
  long offset = 0, size = 0;
  double lr_multiplier = 1;
  bool decay = true;  // weight decay applies (a Transformer decays matrices and embeddings, not LayerNorm or biases)
};

// Learning-rate factor at a step: linear warm-up from 1/warmup to 1 over `warmup_steps`, then a half cosine
// from 1 down to `final_fraction` at `total_steps` (cosine false: constant 1 after the warm-up).
struct LrSchedule {
  int warmup_steps = 0;
  int total_steps = 0;
  bool cosine = false;
  double final_fraction = 0;
};
double lr_schedule_factor(const LrSchedule& s, long step);

// Global gradient-norm clipping as torch.nn.utils.clip_grad_norm_: when ‖g‖₂ > max_norm, g *= max_norm/(‖g‖₂+1e-6).
// Returns ‖g‖₂ before clipping.
double clip_grad_norm(double* grads, long size, double max_norm);

class Optimizer {
 public:
  Optimizer(OptimizerConfig config, std::vector<TensorSlice> tensors, long total_size);
  void step(double* params, const double* grads);
  // The same step with the learning rate scaled by `lr_factor` (a schedule's value at this step).
  void step(double* params, const double* grads, double lr_factor);
  void set_lr(double lr) { config_.lr = lr; }  // gd_auto: the member sets η = fraction / λ_max
  // The state, for a run that trained on a device and continues here (engine/run/mlp_member_gpu.cpp).
  std::vector<double>& first_moment();   // empty for SGD without momentum
  std::vector<double>& second_moment();  // empty for SGD
  void set_steps_taken(long t) { t_ = t; }

 private:
  void size_state();

  OptimizerConfig config_;
  std::vector<TensorSlice> tensors_;
  long total_size_;
  bool state_sized_ = false;
  std::vector<double> m_, v_;
  long t_ = 0;
};
