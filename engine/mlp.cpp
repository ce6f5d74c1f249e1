#include "engine/mlp.hpp"

#include <algorithm>

#include "engine/kernels.hpp"

Mlp::Mlp(std::vector<int> dims, Activation act, std::vector<TensorScaling> scaling, int max_batch)
    : dims_(std::move(dims)), act_(act), scaling_(std::move(scaling)), max_batch_(max_batch) {
  long total = 0;
  int widest = 0;
  for (int l = 0; l < layers(); l++) {
    offset_.push_back(total);
    total += layer_size(l);
    h_.emplace_back(size_t(max_batch) * size_t(dims_[size_t(l) + 1]));
    if (l + 1 < layers()) x_.emplace_back(size_t(max_batch) * size_t(dims_[size_t(l) + 1]));
  }
  long largest_layer = 0;
  for (int l = 0; l < layers(); l++) largest_layer = std::max(largest_layer, layer_size(l));
  transposed_.assign(size_t(largest_layer), 0.0);
  for (int d : dims_) widest = std::max(widest, d);
  params_.assign(size_t(total), 0.0);
  grads_.assign(size_t(total), 0.0);
  delta_.assign(size_t(max_batch) * size_t(widest), 0.0);
  delta_prev_.assign(size_t(max_batch) * size_t(widest), 0.0);
}

void Mlp::init(Rng& rng) {
  for (int l = 0; l < layers(); l++) {
    double* w = weights(l);
    const double std = scaling_[size_t(l)].init_std;
    for (long i = 0; i < layer_size(l); i++) w[i] = std * rng.normal();
  }
}

void Mlp::set_precision(Precision p) {
  precision_ = p;
  if (p != Precision::float32) return;
  for (int l = 0; l < layers(); l++) {
    const int fan_in = dims_[size_t(l)], fan_out = dims_[size_t(l) + 1];
    gemm_f32_.reserve(max_batch_, fan_out, fan_in);  // forward
    gemm_f32_.reserve(fan_out, fan_in, max_batch_);  // weight gradient
    gemm_f32_.reserve(max_batch_, fan_in, fan_out);  // backward to inputs
  }
}

const double* Mlp::forward(const double* x, int batch) {
  input_ = x;
  for (int l = 0; l < layers(); l++) {
    const int fan_in = dims_[size_t(l)], fan_out = dims_[size_t(l) + 1];
    double* h = h_[size_t(l)].data();
    if (precision_ == Precision::float32)
      matmul_nt_f32(h, layer_input(l), weights(l), batch, fan_out, fan_in, scaling_[size_t(l)].multiplier, gemm_f32_);
    else
      matmul_nt(h, layer_input(l), weights(l), batch, fan_out, fan_in, scaling_[size_t(l)].multiplier,
                transposed_.data());
    if (l + 1 < layers()) activation_forward(act_, x_[size_t(l)].data(), h, long(batch) * fan_out, act_param_);
  }
  return h_.back().data();
}

void Mlp::backward(const double* dout, int batch) {
  const int last = layers() - 1;
  std::copy(dout, dout + long(batch) * dims_.back(), delta_.begin());
  for (int l = last; l >= 0; l--) {
    const int fan_in = dims_[size_t(l)], fan_out = dims_[size_t(l) + 1];
    const double m = scaling_[size_t(l)].multiplier;
    // ∂L/∂W_l = m · δ_lᵀ x_{l-1}
    double* grad = grads_.data() + offset_[size_t(l)];
    if (precision_ == Precision::float32)
      matmul_tn_f32(grad, delta_.data(), layer_input(l), fan_out, fan_in, batch, m, gemm_f32_);
    else
      matmul_tn(grad, delta_.data(), layer_input(l), fan_out, fan_in, batch, m);
    if (l == 0) break;
    // ∂L/∂x_{l-1} = m · δ_l W_l, then through phi': δ_{l-1} = ∂L/∂x_{l-1} ⊙ phi'(h_{l-1})
    if (precision_ == Precision::float32)
      matmul_nn_f32(delta_prev_.data(), delta_.data(), weights(l), batch, fan_in, fan_out, m, gemm_f32_);
    else
      matmul_nn(delta_prev_.data(), delta_.data(), weights(l), batch, fan_in, fan_out, m);
    const long n = long(batch) * fan_in;
    activation_backward(act_, delta_.data(), delta_prev_.data(), h_[size_t(l) - 1].data(),
                        x_[size_t(l) - 1].data(), n, act_param_);
  }
}
