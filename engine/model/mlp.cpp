#include "engine/model/mlp.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "engine/kernels/kernels.hpp"
#include "engine/model/layernorm.hpp"

Mlp::Mlp(std::vector<int> dims, Activation act, std::vector<TensorScaling> scaling, int max_batch,
         std::vector<TensorScaling> bias_scaling)
    : Mlp(MlpConfig(std::move(dims), act, std::move(scaling), max_batch, std::move(bias_scaling))) {}

MlpSizes mlp_sizes(const MlpConfig& c) {
  MlpSizes z;
  const int layers = int(c.dims.size()) - 1;
  const long rows = c.max_batch;
  long largest = 0;
  int widest = 0;
  for (int l = 0; l < layers; l++) {
    const int fan_in = c.dims[size_t(l)], fan_out = c.dims[size_t(l) + 1];
    z.params += long(fan_out) * fan_in + (c.bias_scaling.empty() ? 0 : fan_out);
    z.preactivations.push_back(rows * fan_out);
    if (l + 1 < layers) z.hidden.push_back(rows * fan_out);
    if (l + 1 < layers && c.dropout > 0) z.dropout.push_back(rows * fan_out);
    largest = std::max(largest, long(fan_out) * fan_in);
    if (c.precision == Precision::float32)
      for (std::array<int, 3> shape : {std::array<int, 3>{c.max_batch, fan_out, fan_in}, {fan_out, fan_in, c.max_batch},
                                       {c.max_batch, fan_in, fan_out}})  // forward, weight gradient, backward to inputs
        z.f32_shapes.push_back(shape);
  }
  for (int d : c.dims) widest = std::max(widest, d);
  z.backward_scratch = rows * widest;
  if (c.precision != Precision::float32) z.transposed = largest;
  z.normed.assign(size_t(layers), 0);
  if (c.residual) z.skip_delta = rows * c.dims[1];
  for (int l = 0; l < layers && c.block.norm; l++) {
    if (!mlp_block_input(c, l)) continue;
    z.normed[size_t(l)] = rows * c.dims[size_t(l) + 1];
    z.norm_stats += 2 * rows;
  }
  return z;
}

double MlpSizes::bytes() const {
  double doubles = 2.0 * params + 2.0 * backward_scratch + transposed + skip_delta + norm_stats;
  for (long n : preactivations) doubles += n;
  for (long n : hidden) doubles += n;
  for (long n : normed) doubles += n;
  for (long n : dropout) doubles += 2.0 * n;
  return 8 * doubles + gemm_f32_workspace_bytes(f32_shapes);
}

Mlp::Mlp(MlpConfig config) : config_(std::move(config)) {
  const MlpSizes sizes = mlp_sizes(config_);
  long total = 0;
  for (int l = 0; l < layers(); l++) {
    offset_.push_back(total);
    total += layer_size(l);
    h_.emplace_back(size_t(sizes.preactivations[size_t(l)]));
  }
  for (int l = 0; l < layers() && has_biases(); l++) {
    bias_offset_.push_back(total);
    total += config_.dims[size_t(l) + 1];
  }
  for (long n : sizes.hidden) x_.emplace_back(size_t(n));
  params_.assign(size_t(sizes.params), 0.0);
  delta_.assign(size_t(sizes.backward_scratch), 0.0);
  delta_prev_.assign(size_t(sizes.backward_scratch), 0.0);
  if (config_.residual) {
    skip_delta_.resize(size_t(sizes.skip_delta));
    for (long n : sizes.normed) {
      normed_.emplace_back(size_t(n));
      norm_stats_.emplace_back(n > 0 ? 2 * size_t(config_.max_batch) : 0);
    }
  }
  for (long n : sizes.dropout) {
    keep_.emplace_back(size_t(n));
    dropped_.emplace_back(size_t(n));
  }
}

void Mlp::init(Rng& rng) {
  for (int l = 0; l < layers() && has_biases(); l++) std::fill(bias(l), bias(l) + config_.dims[size_t(l) + 1], 0.0);
  for (int l = 0; l < layers(); l++) {
    double* w = weights(l);
    const double std = config_.scaling[size_t(l)].init_std;
    if (!config_.antisymmetric) {
      for (long i = 0; i < layer_size(l); i++) w[i] = std * rng.normal();
      continue;
    }
    // ASI: draw copy θ (the same numbers, in the same order, as a plain net of half the hidden widths), then place
    // it at the even units and its twin θ′ at the odd ones; the twin's readout carries the minus sign.
    const int fan_in = config_.dims[size_t(l)], fan_out = config_.dims[size_t(l) + 1];
    const bool split_in = hidden(l), split_out = hidden(l + 1);
    const int in_a = split_in ? fan_in / 2 : fan_in, out_a = split_out ? fan_out / 2 : fan_out;
    std::fill(w, w + layer_size(l), 0.0);
    for (int r = 0; r < out_a; r++)
      for (int c = 0; c < in_a; c++) {
        const double v = std * rng.normal();
        const int row = split_out ? 2 * r : r, col = split_in ? 2 * c : c;
        w[long(row) * fan_in + col] = v;
        if (split_out && split_in) w[long(row + 1) * fan_in + col + 1] = v;  // hidden → hidden: twin to twin
        else if (split_out) w[long(row + 1) * fan_in + col] = v;             // input → hidden
        else w[long(row) * fan_in + col + 1] = -v;                           // hidden → output
      }
  }
}

void Mlp::mask_gradients() {
  if (!config_.antisymmetric) return;
  for (int l = 1; l + 1 < layers(); l++) {  // hidden → hidden layers only
    const int fan_in = config_.dims[size_t(l)], fan_out = config_.dims[size_t(l) + 1];
    double* g = grads(l);
    for (int r = 0; r < fan_out; r++)
      for (int c = (r + 1) % 2; c < fan_in; c += 2) g[long(r) * fan_in + c] = 0;
  }
}

std::vector<double>& Mlp::grads() {
  if (grads_.empty()) grads_.assign(params_.size(), 0.0);
  return grads_;
}

// The products' scratch, the largest of a model's buffers after θ (a 1024 × 1024 layer: 8 MB transposed in float64,
// 4 MB packed in float32), sized at the first forward pass: a model that never runs one (the page's replica of a run
// trained in a worker, the members of another worker's shard) never touches it (web/README.md, "Training in a Web
// Worker").
void Mlp::size_products() {
  products_sized_ = true;
  const MlpSizes sizes = mlp_sizes(config_);
  transposed_.assign(size_t(sizes.transposed), 0.0);
  for (const auto& [m, n, k] : sizes.f32_shapes) gemm_f32_.reserve(m, n, k);
}

// A residual block's skip: h_l += h_{l-k}, its input stream (the widths are equal).
void Mlp::add_skip(int l, int batch) {
  const long n = long(batch) * config_.dims[size_t(l) + 1];
  double* h = h_[size_t(l)].data();
  const double* skip = h_[size_t(l) - config_.block.layers].data();
  for (long i = 0; i < n; i++) h[i] += skip[i];
}

// The next layer's input from h_l (batch × n): x_l = φ(h_l), or φ(LN(h_l)) for a block's input under a pre-norm, or
// h_l itself for a residual net's readout.
void Mlp::activate(int l, int batch) {
  const int n = config_.dims[size_t(l) + 1];
  const double* z = h_[size_t(l)].data();
  if (block_input(l) && config_.block.norm) {
    double* stats = norm_stats_[size_t(l)].data();
    layernorm_forward(normed_[size_t(l)].data(), stats, stats + batch, z, nullptr, nullptr, batch, n);
    z = normed_[size_t(l)].data();
  }
  activation_forward(activation_after(l), x_[size_t(l)].data(), z, long(batch) * n, config_.activation_param);
}

// ∂L/∂h_{l-1} into delta_ from ∂L/∂(layer l's input) in delta_prev_, undoing activate(l − 1): through φ' (and the
// norm); a block's input stream adds the skip's share, ∂L/∂ of the block's output (skip_delta_).
void Mlp::input_backward(int l, int batch) {
  const int i = l - 1, n = config_.dims[size_t(l)];
  const long count = long(batch) * n;
  const double* h = h_[size_t(i)].data();
  const double* x = x_[size_t(i)].data();
  if (block_input(i) && config_.block.norm) {  // δ = LN'(h)ᵀ (∂L/∂x ⊙ φ'(LN(h)))
    const double* stats = norm_stats_[size_t(i)].data();
    activation_backward(config_.activation, delta_prev_.data(), delta_prev_.data(), normed_[size_t(i)].data(), x, count,
                        config_.activation_param);
    std::fill(delta_.begin(), delta_.begin() + count, 0.0);
    layernorm_backward(delta_.data(), nullptr, nullptr, delta_prev_.data(), h, nullptr, stats, stats + batch, batch, n);
  } else {
    activation_backward(activation_after(i), delta_.data(), delta_prev_.data(), h, x, count, config_.activation_param);
  }
  if (block_input(i))
    for (long k = 0; k < count; k++) delta_[size_t(k)] += skip_delta_[size_t(k)];
}

// h_l = multiplier · layer_input(l) · W_lᵀ (+ bias multiplier · b_l on every row), in the spec's precision; both
// forward passes start each layer here.
double* Mlp::compute_preactivation(int l, int batch) {
  const int fan_in = config_.dims[size_t(l)], fan_out = config_.dims[size_t(l) + 1];
  double* h = h_[size_t(l)].data();
  if (!products_sized_) size_products();
  if (config_.precision == Precision::float32)
    matmul_nt_f32(h, layer_input(l), weights(l), batch, fan_out, fan_in, config_.scaling[size_t(l)].multiplier,
                  gemm_f32_);
  else
    matmul_nt(h, layer_input(l), weights(l), batch, fan_out, fan_in, config_.scaling[size_t(l)].multiplier,
              transposed_.data());
  if (has_biases()) {
    const double m = config_.bias_scaling[size_t(l)].multiplier;
    const double* b = bias(l);
    for (int r = 0; r < batch; r++)
      for (int o = 0; o < fan_out; o++) h[long(r) * fan_out + o] += m * b[o];
  }
  return h;
}

// A pass of more rows than the buffers hold would write past them: it stops with a clear error instead.
void Mlp::check_batch(int batch, const char* pass) const {
  if (batch < 0 || batch > config_.max_batch)
    throw std::length_error(std::string("Mlp::") + pass + ": a batch of " + std::to_string(batch) +
                            " rows; its buffers hold 0 to " + std::to_string(config_.max_batch));
}

const double* Mlp::forward_train(const double* x, int batch, Rng& rng) {
  if (config_.dropout <= 0) return forward(x, batch);
  check_batch(batch, "forward_train");
  input_ = x;
  dropout_active_ = true;
  const double scale = 1 / (1 - config_.dropout);
  for (int l = 0; l < layers(); l++) {
    compute_preactivation(l, batch);
    if (skips(l)) add_skip(l, batch);
    if (l + 1 == layers()) break;
    activate(l, batch);
    const long n = long(batch) * config_.dims[size_t(l) + 1];
    const double* xl = x_[size_t(l)].data();
    double* keep = keep_[size_t(l)].data();
    double* out = dropped_[size_t(l)].data();
    for (long i = 0; i < n; i++) {
      keep[i] = rng.uniform() < config_.dropout ? 0.0 : scale;
      out[i] = xl[i] * keep[i];
    }
  }
  return h_.back().data();
}

const double* Mlp::forward(const double* x, int batch) {
  check_batch(batch, "forward");
  input_ = x;
  dropout_active_ = false;
  for (int l = 0; l < layers(); l++) {
    compute_preactivation(l, batch);
    if (skips(l)) add_skip(l, batch);
    if (l + 1 < layers()) activate(l, batch);
  }
  return h_.back().data();
}

void Mlp::backward(const double* dout, int batch) {
  const int last = layers() - 1;
  std::copy(dout, dout + long(batch) * config_.dims.back(), delta_.begin());
  for (int l = last; l >= 0; l--) {
    const int fan_in = config_.dims[size_t(l)], fan_out = config_.dims[size_t(l) + 1];
    const double m = config_.scaling[size_t(l)].multiplier;
    // ∂L/∂W_l = m · δ_lᵀ x_{l-1}
    double* grad = grads(l);
    if (config_.precision == Precision::float32)
      matmul_tn_f32(grad, delta_.data(), layer_input(l), fan_out, fan_in, batch, m, gemm_f32_);
    else
      matmul_tn(grad, delta_.data(), layer_input(l), fan_out, fan_in, batch, m);
    if (has_biases()) {  // ∂L/∂b_l = m' · Σ_rows δ_l
      const double mb = config_.bias_scaling[size_t(l)].multiplier;
      double* gb = grads().data() + bias_offset_[size_t(l)];
      std::fill(gb, gb + fan_out, 0.0);
      for (int r = 0; r < batch; r++)
        for (int o = 0; o < fan_out; o++) gb[o] += delta_[size_t(r) * size_t(fan_out) + size_t(o)];
      for (int o = 0; o < fan_out; o++) gb[o] *= mb;
    }
    if (l == 0) break;
    if (skips(l)) std::copy(delta_.begin(), delta_.begin() + long(batch) * fan_out, skip_delta_.begin());
    // ∂L/∂x_{l-1} = m · δ_l W_l, then back through activate() (a plain net: δ_{l-1} = ∂L/∂x_{l-1} ⊙ phi'(h_{l-1}))
    if (config_.precision == Precision::float32)
      matmul_nn_f32(delta_prev_.data(), delta_.data(), weights(l), batch, fan_in, fan_out, m, gemm_f32_);
    else
      matmul_nn(delta_prev_.data(), delta_.data(), weights(l), batch, fan_in, fan_out, m);
    const long n = long(batch) * fan_in;
    if (dropout_active_) {  // through the mask: ∂L/∂x = ∂L/∂(x ⊙ keep) ⊙ keep
      const double* keep = keep_[size_t(l) - 1].data();
      for (long i = 0; i < n; i++) delta_prev_[size_t(i)] *= keep[i];
    }
    input_backward(l, batch);
  }
  mask_gradients();
}

std::vector<TensorSlice> layer_slices(const Mlp& m) {
  std::vector<TensorSlice> out;
  long offset = 0;
  for (int l = 0; l < m.layers(); l++) {
    out.push_back({offset, m.layer_size(l), m.scaling()[size_t(l)].lr_multiplier});
    offset += m.layer_size(l);
  }
  for (int l = 0; l < m.layers() && m.has_biases(); l++)
    out.push_back({m.bias_offset(l), m.dims()[size_t(l) + 1], m.bias_scaling()[size_t(l)].lr_multiplier,
                   /*decay=*/false});
  return out;
}
