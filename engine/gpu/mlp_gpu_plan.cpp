#include "engine/gpu/mlp_gpu_plan.hpp"

#include "engine/model/layernorm.hpp"
#include "engine/spec/spec.hpp"

namespace {
uint32_t u(long x) { return uint32_t(x); }
}  // namespace

MlpGpuPlan build_mlp_gpu_plan(const Mlp& mlp, const OptimizerConfig& opt, const std::vector<TensorSlice>& slices,
                              int batch, int train_size, bool classification, int loss_slots) {
  MlpGpuPlan p;
  GpuPlan& g = p.plan;
  g.phases.resize(2);
  auto& fb = g.phases[MlpGpuPlan::forward_backward];
  auto& up = g.phases[MlpGpuPlan::update];
  const std::vector<int>& dims = mlp.dims();
  const int layers = mlp.layers(), d_in = dims.front(), d_out = dims.back();
  const bool full_batch = batch == train_size;

  p.train_x = g.add_buffer(long(train_size) * d_in);
  p.train_targets = g.add_buffer(long(train_size) * (classification ? 1 : d_out));
  p.step = g.add_buffer(3);
  p.loss_slots = loss_slots;
  p.loss_history = g.add_buffer(loss_slots);
  const int no_bias = g.add_buffer(1);  // a bound dummy for a layer without a bias vector

  int x = p.train_x, targets = p.train_targets;
  if (!full_batch) {
    p.batch_index = g.add_buffer(batch);
    x = g.add_buffer(long(batch) * d_in);
    fb.push_back({GpuKernel::gather_rows, {p.train_x, p.batch_index, x}, {u(batch), u(d_in)}, {}});
    const int cols = classification ? 1 : d_out;
    targets = g.add_buffer(long(batch) * cols);
    fb.push_back({GpuKernel::gather_rows, {p.train_targets, p.batch_index, targets}, {u(batch), u(cols)}, {}});
  }

  // The trained tensors in layer_slices' order: every weight matrix, then every bias.
  for (const TensorSlice& t : slices) {
    p.weights.push_back(g.add_buffer(t.size));
    p.grads.push_back(g.add_buffer(t.size));
  }
  const bool biased = mlp.has_biases();
  auto bias = [&](int l) { return biased ? p.weights[size_t(layers + l)] : no_bias; };
  auto bias_multiplier = [&](int l) { return biased ? float(mlp.bias_scaling()[size_t(l)].multiplier) : 1.0f; };

  // A residual net (MlpConfig::residual): one width, blocks of k weights. Its pre-norm is a LayerNorm without gain or
  // bias: the layernorm kernels with γ = 1 (p.ones, which the host fills) and β = 0 (a buffer nothing writes).
  const bool norm = mlp.residual() && mlp.residual_shape().norm;
  const int k = mlp.residual_shape().layers, width = dims[1];
  int zeros = -1;
  if (norm) {
    p.ones = g.add_buffer(width);
    zeros = g.add_buffer(width);
  }
  std::vector<int> normed(size_t(layers), -1), mean(size_t(layers), -1), rstd(size_t(layers), -1);
  // LN(h_l) of a block's input stream, keeping each row's mean and rstd for the backward pass.
  auto layernorm = [&](int l, int h_l) {
    const size_t i = size_t(l);
    normed[i] = g.add_buffer(long(batch) * width);
    mean[i] = g.add_buffer(batch);
    rstd[i] = g.add_buffer(batch);
    fb.push_back({GpuKernel::layernorm_forward, {h_l, p.ones, zeros, normed[i], mean[i], rstd[i]},
                  {u(batch), u(width)}, {float(kLayerNormEps)}});
    return normed[i];
  };

  // Forward: h_l = m_l · x_{l-1} W_lᵀ (+ m'_l b_l), x_l = phi(h_l). A residual net adds the skip at the end of each
  // block, h_l += h_{l-k}; x_l = φ(LN(h_l)) for a block's input stream under the pre-norm; the readout's x is h itself.
  std::vector<int> inputs{x}, h;
  for (int l = 0; l < layers; l++) {
    const int fan_in = dims[size_t(l)], fan_out = dims[size_t(l) + 1];
    h.push_back(g.add_buffer(long(batch) * fan_out));
    fb.push_back({GpuKernel::gemm_nt, {inputs[size_t(l)], p.weights[size_t(l)], h.back()},
                  {u(batch), u(fan_out), u(fan_in)}, {float(mlp.scaling()[size_t(l)].multiplier)}});
    if (mlp.skips(l)) fb.push_back({GpuKernel::add_into, {h[size_t(l - k)], h.back()}, {u(long(batch) * fan_out)}, {}});
    const bool output = l + 1 == layers;
    if (output && !biased) break;
    if (mlp.readout_stream(l)) {  // the readout reads the last stream as it is (no φ, no norm)
      inputs.push_back(h.back());
      continue;
    }
    const int z = norm && mlp.block_input(l) ? layernorm(l, h.back()) : h.back();
    // The output layer's bias is added in place (h is f); its linear "activation" goes to a scratch buffer.
    const Activation a = output ? Activation::linear : mlp.activation_after(l);
    inputs.push_back(g.add_buffer(long(batch) * fan_out));
    fb.push_back({GpuKernel::bias_act_forward, {bias(l), z, inputs.back()},
                  {u(batch), u(fan_out), u(int(a)), biased ? 1u : 0u}, {bias_multiplier(l)}});
  }

  // Loss and ∂L/∂f, then the batch loss into the step's slot.
  int delta = g.add_buffer(long(batch) * d_out);
  const int terms = g.add_buffer(classification ? batch : long(batch) * d_out);
  fb.push_back({classification ? GpuKernel::cross_entropy : GpuKernel::mse, {h.back(), targets, delta, terms},
                {u(batch), u(d_out)}, {}});
  fb.push_back({GpuKernel::reduce_sum, {terms, p.step, p.loss_history},
                {u(classification ? batch : long(batch) * d_out), 0}, {1.0f}});

  // Backward: ∂L/∂W_l = m_l δ_lᵀ x_{l-1}; ∂L/∂b_l = m'_l Σ_rows δ_l; δ_{l-1} = (m_l δ_l W_l) ⊙ phi'(h_{l-1}).
  // A residual net (Mlp::backward): the readout's ∂L/∂x is δ of the last stream; under the pre-norm
  // δ = LN'(h)ᵀ (∂L/∂x ⊙ φ'(LN(h))); a block's input stream h_{l-k} adds the skip's share, δ_l of the block's output.
  int skip_delta = -1;
  for (int l = layers - 1; l >= 0; l--) {
    const int fan_in = dims[size_t(l)], fan_out = dims[size_t(l) + 1];
    const float m = float(mlp.scaling()[size_t(l)].multiplier);
    fb.push_back({GpuKernel::gemm_tn, {delta, inputs[size_t(l)], p.grads[size_t(l)]}, {u(fan_out), u(fan_in), u(batch)}, {m}});
    if (biased)
      fb.push_back({GpuKernel::reduce_rows, {delta, p.grads[size_t(layers + l)]}, {u(batch), u(fan_out)},
                    {bias_multiplier(l)}});
    if (l == 0) break;
    if (mlp.skips(l)) skip_delta = delta;  // δ_l stays in its buffer until h_{l-k}'s δ takes it
    const int i = l - 1;
    const long count = long(batch) * fan_in;
    const int dx = g.add_buffer(count);
    fb.push_back({GpuKernel::gemm_nn, {delta, p.weights[size_t(l)], dx}, {u(batch), u(fan_in), u(fan_out)}, {m}});
    if (mlp.readout_stream(i)) {
      delta = dx;
      continue;
    }
    const int normed_i = normed[size_t(i)];
    const int prev = g.add_buffer(count);
    fb.push_back({GpuKernel::bias_act_backward, {dx, normed_i >= 0 ? normed_i : h[size_t(i)], inputs[size_t(l)], prev},
                  {u(batch), u(fan_in), u(int(mlp.activation_after(i)))}, {}});
    delta = prev;
    if (normed_i >= 0) {  // dx is free again: it takes LN'(h)ᵀ prev
      fb.push_back({GpuKernel::layernorm_backward, {h[size_t(i)], p.ones, prev, mean[size_t(i)], rstd[size_t(i)], dx},
                    {u(batch), u(width)}, {}});
      delta = dx;
    }
    if (mlp.block_input(i)) fb.push_back({GpuKernel::add_into, {skip_delta, delta}, {u(count)}, {}});
  }

  // Update, one dispatch per tensor (engine/model/optimizer.cpp's order and formulas).
  for (size_t l = 0; l < slices.size(); l++) {
    const long n = slices[l].size;
    const float lr = float(opt.lr * slices[l].lr_multiplier);
    const float decay = slices[l].decay ? float(opt.weight_decay) : 0.0f;
    if (opt.kind == OptimizerKind::sgd) {
      const bool momentum = opt.momentum != 0;
      p.first_moment.push_back(momentum ? g.add_buffer(n) : -1);
      up.push_back({GpuKernel::sgd, {p.grads[l], p.weights[l], momentum ? p.first_moment.back() : no_bias},
                    {u(n), momentum ? 1u : 0u}, {lr, float(opt.momentum), decay}});
      p.second_moment.push_back(-1);
    } else {
      p.first_moment.push_back(g.add_buffer(n));
      p.second_moment.push_back(g.add_buffer(n));
      up.push_back({GpuKernel::adam,
                    {p.grads[l], p.step, p.weights[l], p.first_moment.back(), p.second_moment.back()},
                    {u(n), opt.kind == OptimizerKind::adamw ? 1u : 0u},
                    {lr, float(opt.beta1), float(opt.beta2), float(opt.eps), decay}});
    }
  }
  return p;
}
