// The training step of a Transformer (engine/model/transformer.hpp) with AdamW as a GPU kernel plan
// (engine/gpu/gpu_plan.hpp), in float32: the same step as AnchorTrainer::train_step, built from the same kernels as the
// MLP's plus a few of its own (embeddings, the last position, residual adds, gradient clipping).
//   phase 0 (forward_backward): gather the mini-batch's tokens and labels, embeddings, every block (pre-LN or post-LN:
//     LayerNorm, Q/K/V, causal multi-head attention, W_O, residual, FFN), the last position, the final LayerNorm,
//     the head, cross-entropy and its batch loss into the loss history, then backward in reverse;
//   phase 1 (update): gradient-norm clipping (when clip_norm > 0), then one Adam/AdamW dispatch per tensor with its
//     learning-rate multiplier, weight decay on matrices only, and the schedule's factor from the step buffer.
// As in the MLP's plan the host writes only the batch indices and the step buffer {loss slot, 1 − β1^t, 1 − β2^t,
// lr factor} per step, and reads θ, ∂L/∂θ (before clipping) and the moments back between the phases on record steps.
#pragma once
#include <string>
#include <vector>

#include "engine/gpu/gpu_plan.hpp"
#include "engine/model/optimizer.hpp"
#include "engine/model/transformer.hpp"
#include "engine/spec/spec.hpp"

// The trained tensors are Transformer::tensors(), in order; the step buffer holds {loss slot, bias1, bias2, lr factor}.
struct TransformerGpuPlan : GpuTrainingPlan {
  int train_tokens = -1, train_labels = -1;  // the whole training set: seq_len token ids and one label per row (f32)
};

// Why this configuration cannot train on the device ("" when it can): the plan implements Adam/AdamW and the
// activations the WGSL kernels know.
std::string transformer_gpu_unsupported(const TransformerConfig& model, const OptimizerConfig& opt);

// `batch` sequences per step from a training set of `train_size`. clip_norm 0: no clipping.
TransformerGpuPlan build_transformer_gpu_plan(const Transformer& model, const OptimizerConfig& opt, double clip_norm,
                                              int batch, int train_size, int loss_slots);

