// A GPU kernel plan: the engine's description of work for a compute device, free of any device API.
//
// A plan is a set of float32 buffers and phases, each an ordered list of dispatches ("kernel, buffer ids, ints,
// floats"). The kernels are the WGSL files of shaders/ (web/js/webgpu_backend.js runs them on WebGPU); each one also
// has a C++ reference here, run_reference(), which defines what the kernel computes and lets a plan be executed
// and tested natively. The uniform block of every kernel is eight u32 (`ints`) then eight f32 (`floats`), in the
// order its shader names them (shaders/common.wgsl).
#pragma once
#include <cstdint>
#include <vector>

#include "engine/base/json.hpp"

enum class GpuKernel {
  gemm_nn,            // ints m, n, k; floats alpha. C = alpha A B            (A m×k, B k×n)
  gemm_nt,            //                           C = alpha A Bᵀ           (B n×k)
  gemm_tn,            //                           C = alpha Aᵀ B           (A k×m)
  bias_act_forward,   // ints rows, cols, act, has_bias; floats scale. buffers bias, h (in/out) += scale bias, x
  bias_act_backward,  // ints rows, cols, act. buffers dx, h, x, dh
  reduce_sum,         // ints n, offset; floats scale. buffers v, step, out: out[step[0] + offset] = scale Σ v
  reduce_rows,        // ints rows, cols; floats scale. buffers v, out: scale × column sums
  gather_rows,        // ints rows, cols. buffers src, index, dst
  mse,                // ints rows, cols. buffers f, y, dout, terms
  cross_entropy,      // ints rows, classes. buffers f, labels, dout, terms
  layernorm_forward,  // ints rows, cols; floats eps. buffers x, gamma, beta, y, mean, rstd
  layernorm_backward,     // ints rows, cols. buffers x, gamma, dy, mean, rstd, dx
  layernorm_param_grad,   // ints rows, cols. buffers x, dy, mean, rstd, dgamma, dbeta
  attention_forward,      // ints batch, T, heads, D; floats scale. buffers q, k, v, P, o
  attention_backward_q,   // buffers k, v, P, dO, dS, dQ
  attention_backward_kv,  // buffers q, P, dS, dO, dK, dV
  sgd,                // ints n, has_momentum; floats lr, momentum, weight_decay. buffers g, w, m
  adam,               // ints n, decoupled, scheduled; floats lr, beta1, beta2, eps, weight_decay. buffers g, step, w, m, v
  // The Transformer's step (engine/gpu/transformer_gpu_plan.hpp):
  embedding_forward,   // ints rows, T, D; floats me, mp. buffers tokens, wte, wpe, x
  embedding_backward,  // ints rows, T, D, vocab; floats me, mp. buffers g, tokens, dwte, dwpe
  take_last_rows,      // ints batch, T, cols. buffers src (batch·T rows), dst (batch rows)
  put_last_rows,       // ints batch, T, cols. buffers src (batch rows), dst (batch·T rows, 0 but the last)
  add_into,            // ints n. buffers x, y: y += x
  sum_squares,         // ints n, accumulate. buffers v, out: out[0] = (accumulate ? out[0] : 0) + Σ v²
  clip_scale,          // ints n; floats max_norm. buffers norm2, g
};

const char* gpu_kernel_name(GpuKernel k);  // the name web/js/webgpu_backend.js knows it by

struct GpuOp {
  GpuKernel kernel;
  std::vector<int> buffers;
  std::vector<uint32_t> ints;
  std::vector<float> floats;
};

struct GpuPlan {
  std::vector<long> buffers;             // sizes in float32 elements
  std::vector<std::vector<GpuOp>> phases;  // run separately, in any order the host chooses
  int add_buffer(long size) {
    buffers.push_back(size);
    return int(buffers.size()) - 1;
  }
};

// A model's training step as a plan, as the members' one GPU stepper (engine/run/member_gpu.cpp) drives it: phase 0
// forward/backward, phase 1 the update; per step the host writes the mini-batch's row indices and the step buffer
// {loss slot, 1 − β1^(t+1), 1 − β2^(t+1)[, the schedule's lr factor]}; on a record step it reads back, per trained
// tensor, its weights, gradient and optimizer moments, and the loss history.
struct GpuTrainingPlan {
  GpuPlan plan;
  enum Phase { forward_backward = 0, update = 1 };
  int batch_index = -1;   // mini-batch row indices (f32), -1 for full batch (no gather)
  int step = -1;          // the step buffer
  int loss_history = -1;  // one batch loss per slot
  int loss_slots = 0;
  std::vector<int> weights, grads, first_moment, second_moment;  // per trained tensor; moments -1 when unused
};

// {"buffers": [sizes], "phases": [[{"kernel", "buffers", "ints", "floats"}, ...], ...]}: what the JS side reads.
json::Value plan_to_json(const GpuPlan& plan);

// Runs one phase on the CPU in float32, with the semantics of the WGSL kernels. `data` holds one vector per buffer,
// each of the plan's size.
void run_reference(const GpuPlan& plan, int phase, std::vector<std::vector<float>>& data);
