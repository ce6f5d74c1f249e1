// The training step of an Mlp as a GPU kernel plan (engine/gpu/gpu_plan.hpp), in float32:
//   phase 0 (forward_backward): gather the mini-batch, forward (gemm_nt + bias_act per layer), the loss and its
//     gradient (mse or cross_entropy), the batch loss into its slot of the loss history (reduce_sum), backward
//     (gemm_tn for ∂L/∂W, reduce_rows for ∂L/∂b, gemm_nn + bias_act_backward for δ); a residual net's skips are
//     add_into, forward and backward, and its pre-norm the layernorm kernels;
//   phase 1 (update): one SGD or Adam dispatch per trained tensor, with its learning-rate multiplier.
// Two phases so that the host can copy θ_t, ∂L/∂θ_t and the optimizer state back between them on a record step:
// the same point at which MlpMember records on the CPU. The training set stays on the device; per step the host writes
// only the batch indices (mini-batches) and the step buffer {loss slot, 1 − β1^t, 1 − β2^t}.
#pragma once
#include <vector>

#include "engine/gpu/gpu_plan.hpp"
#include "engine/model/mlp.hpp"
#include "engine/model/optimizer.hpp"
#include "engine/spec/spec.hpp"

// The trained tensors are layer_slices' (the weight matrices layer by layer, then the biases with model.biases); the
// step buffer holds {loss slot, 1 − β1^t, 1 − β2^t}.
struct MlpGpuPlan : GpuTrainingPlan {
  int train_x = -1, train_targets = -1;  // the whole training set: inputs; targets (regression) or labels (f32)
  int ones = -1;  // n ones, the pre-norm's γ (a residual net with block_norm; else -1): the host writes it once
};

// `batch` rows per step from a training set of `train_size` rows (batch == train_size: full batch, no gather).
MlpGpuPlan build_mlp_gpu_plan(const Mlp& mlp, const OptimizerConfig& opt, const std::vector<TensorSlice>& slices,
                              int batch, int train_size, bool classification, int loss_slots);

