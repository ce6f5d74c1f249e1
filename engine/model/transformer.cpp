#include "engine/model/transformer.hpp"

#include <algorithm>
#include <stdexcept>

#include "engine/kernels/kernels.hpp"
#include "engine/model/layernorm.hpp"

namespace {

void add_into(double* dst, const double* src, long n) {
  for (long i = 0; i < n; i++) dst[i] += src[i];
}

}  // namespace

TransformerLayout transformer_layout(const TransformerConfig& c, const TransformerInit& p) {
  TransformerLayout out;
  auto add_tensor = [&](const std::string& name, int rows, int cols, TensorRole role, int fan_in) {
    TransformerTensor t;
    t.name = name;
    t.offset = out.total();
    t.rows = rows;
    t.cols = cols;
    t.role = role;
    t.init = transformer_tensor_init(p, role, fan_in);
    out.tensors.push_back(t);
    return t.offset;
  };
  const int D = c.d_model, W = c.heads * c.head_dim(), F = c.d_ff;
  out.wte = add_tensor("wte", c.vocab, D, TensorRole::token_embedding, c.vocab);
  out.wpe = add_tensor("wpe", c.seq_len, D, TensorRole::position_embedding, c.vocab);
  for (int l = 0; l < c.layers; l++) {
    const std::string h = "h" + std::to_string(l) + ".";
    TransformerBlockOffsets b{};
    auto vec = [&](const char* n, int size, TensorRole role) { return add_tensor(h + n, 1, size, role, size); };
    auto bias = [&](const char* n, int size, bool on) { return on ? vec(n, size, TensorRole::bias) : -1L; };
    b.ln1_g = vec("ln1.g", D, TensorRole::norm_gain);
    b.ln1_b = vec("ln1.b", D, TensorRole::bias);
    b.wq = add_tensor(h + "wq", W, D, TensorRole::hidden, D);
    b.wk = add_tensor(h + "wk", W, D, TensorRole::hidden, D);
    b.wv = add_tensor(h + "wv", W, D, TensorRole::hidden, D);
    b.bq = bias("bq", W, c.attention_bias);
    b.bk = bias("bk", W, c.attention_bias);
    b.bv = bias("bv", W, c.attention_bias);
    b.wo = add_tensor(h + "wo", D, W, TensorRole::hidden, W);
    b.bo = bias("bo", D, c.attention_bias);
    b.ln2_g = vec("ln2.g", D, TensorRole::norm_gain);
    b.ln2_b = vec("ln2.b", D, TensorRole::bias);
    b.w1 = add_tensor(h + "w1", F, D, TensorRole::hidden, D);
    b.b1 = bias("b1", F, c.mlp_bias);
    b.w2 = add_tensor(h + "w2", D, F, TensorRole::hidden, F);
    b.b2 = bias("b2", D, c.mlp_bias);
    out.blocks.push_back(b);
  }
  if (c.pre_ln) {
    out.lnf_g = add_tensor("ln_f.g", 1, D, TensorRole::norm_gain, D);
    out.lnf_b = add_tensor("ln_f.b", 1, D, TensorRole::bias, D);
  }
  out.head_w = add_tensor("head.w", c.outputs, D, TensorRole::readout, D);
  if (c.output_bias) out.head_b = add_tensor("head.b", 1, c.outputs, TensorRole::bias, D);
  return out;
}

Transformer::Transformer(TransformerConfig config, const TransformerInit& p, int max_batch)
    : config_(config), max_batch_(max_batch) {
  attention_scale_ = transformer_attention_scale(p, config_.head_dim());
  TransformerLayout layout = transformer_layout(config_, p);
  params_.assign(size_t(layout.total()), 0.0);
  grads_.assign(size_t(layout.total()), 0.0);
  tensors_ = std::move(layout.tensors);
  blocks_ = std::move(layout.blocks);
  wte_ = layout.wte;
  wpe_ = layout.wpe;
  lnf_g_ = layout.lnf_g;
  lnf_b_ = layout.lnf_b;
  head_w_ = layout.head_w;
  head_b_ = layout.head_b;
  edits_.resize(size_t(config_.layers));
}

template <class Visit>
void Transformer::activation_buffers(const TransformerConfig& c, int batch, Visit&& visit) {
  const long D = c.d_model, W = long(c.heads) * c.head_dim(), F = c.d_ff;
  const long N = long(batch) * c.seq_len, L = c.layers, B = batch;
  visit(&Transformer::resid_, (L + 1) * N * D);
  for (auto buf : {&Transformer::ln1_, &Transformer::r1_, &Transformer::x1_, &Transformer::ln2_, &Transformer::r2_})
    visit(buf, L * N * D);
  visit(&Transformer::ln1_stats_, L * 2 * N);
  visit(&Transformer::ln2_stats_, L * 2 * N);
  for (auto buf : {&Transformer::q_, &Transformer::k_, &Transformer::v_, &Transformer::y_}) visit(buf, L * N * W);
  visit(&Transformer::probs_, L * B * c.heads * c.seq_len * c.seq_len);
  visit(&Transformer::h_, L * N * F);
  visit(&Transformer::u_, L * N * F);
  visit(&Transformer::last_, B * D);
  visit(&Transformer::z_, B * D);
  visit(&Transformer::lnf_stats_, 2 * B);
  visit(&Transformer::logits_, B * c.outputs);
  const long widest = std::max({D, W, F});
  for (auto buf : {&Transformer::g_, &Transformer::dx1_, &Transformer::dr_, &Transformer::dtmp_, &Transformer::dtmp2_})
    visit(buf, N * widest);
  visit(&Transformer::dff_, N * F);
  visit(&Transformer::dff2_, N * F);
  for (auto buf : {&Transformer::dq_, &Transformer::dk_, &Transformer::dv_, &Transformer::dy_}) visit(buf, N * W);
  visit(&Transformer::dprobs_, long(c.seq_len) * c.seq_len);
  visit(&Transformer::dz_, B * D);
  long largest = 0;  // matmul_nt's scratch: the largest matrix
  for (const TransformerTensor& t : transformer_layout(c, TransformerInit{}).tensors)
    largest = std::max(largest, t.size());
  visit(&Transformer::transposed_, largest);
}

// Most of a model's memory (every layer's activations for its largest batch, an evaluation chunk of sequences), sized
// at the first forward pass, so that a model which never runs one (the page's replica of a run trained in a worker,
// the members of another worker's shard) never touches it (web/README.md, "Training in a Web Worker").
void Transformer::size_activations() {
  activation_buffers(config_, max_batch_, [this](std::vector<double> Transformer::*buf, long doubles) {
    (this->*buf).resize(size_t(doubles));
  });
  if (precision_ == Precision::float32)
    for (const auto& [m, n, k] : transformer_f32_shapes(config_, max_batch_)) gemm_f32_.reserve(m, n, k);
}

const TransformerTensor* Transformer::find_tensor(const std::string& name) const {
  for (const auto& t : tensors_)
    if (t.name == name) return &t;
  return nullptr;
}

void Transformer::init(Rng& rng) {
  for (const auto& t : tensors_) {
    double* w = params_.data() + t.offset;
    for (long i = 0; i < t.size(); i++) {
      if (t.init.scale == 0) w[i] = t.init.constant;
      else if (t.init.uniform) w[i] = t.init.scale * (2 * rng.uniform() - 1);
      else w[i] = t.init.scale * rng.normal();
    }
  }
}

double Transformer::mult(long offset) const {
  for (const auto& t : tensors_)
    if (t.offset == offset) return t.init.multiplier;
  return 1;
}

AttentionShape Transformer::shape(int batch) const {
  return {batch, config_.seq_len, config_.heads, config_.head_dim(), attention_scale_};
}

void Transformer::set_precision(Precision p) {
  precision_ = p;
  if (p != Precision::float32 || resid_.empty()) return;  // else size_activations reserves the workspace
  for (const auto& [m, n, k] : transformer_f32_shapes(config_, max_batch_)) gemm_f32_.reserve(m, n, k);
}

void Transformer::product_nn(double* C, const double* A, const double* B, int m, int n, int k, double alpha) {
  if (precision_ == Precision::float32) return matmul_nn_f32(C, A, B, m, n, k, alpha, gemm_f32_);
  matmul_nn(C, A, B, m, n, k, alpha);
}

void Transformer::product_tn(double* C, const double* A, const double* B, int m, int n, int k, double alpha) {
  if (precision_ == Precision::float32) return matmul_tn_f32(C, A, B, m, n, k, alpha, gemm_f32_);
  matmul_tn(C, A, B, m, n, k, alpha);
}

void Transformer::product_nt(double* C, const double* A, const double* B, int m, int n, int k, double alpha) {
  if (precision_ == Precision::float32) return matmul_nt_f32(C, A, B, m, n, k, alpha, gemm_f32_);
  matmul_nt(C, A, B, m, n, k, alpha, transposed_.data());
}

void Transformer::linear_forward(double* out, const double* in, long w, long b, int rows, int out_dim, int in_dim) {
  product_nt(out, in, params_.data() + w, rows, out_dim, in_dim, mult(w));
  if (b < 0) return;
  const double* bias = params_.data() + b;
  for (long r = 0; r < rows; r++)
    for (int o = 0; o < out_dim; o++) out[r * out_dim + o] += bias[o];
}

void Transformer::linear_backward(double* din, bool accumulate, const double* dout, const double* in, long w, long b,
                                  int rows, int out_dim, int in_dim) {
  const double m = mult(w);
  product_tn(grads_.data() + w, dout, in, out_dim, in_dim, rows, m);
  if (b >= 0) {
    double* db = grads_.data() + b;
    for (long r = 0; r < rows; r++)
      for (int o = 0; o < out_dim; o++) db[o] += dout[r * out_dim + o];
  }
  if (!din) return;
  if (!accumulate) return product_nn(din, dout, params_.data() + w, rows, in_dim, out_dim, m);
  product_nn(dtmp2_.data(), dout, params_.data() + w, rows, in_dim, out_dim, m);
  add_into(din, dtmp2_.data(), long(rows) * in_dim);
}

void Transformer::block_forward(int l, int batch) {
  const TransformerConfig& c = config_;
  const Block& bk = blocks_[size_t(l)];
  const int D = c.d_model, W = c.heads * c.head_dim(), F = c.d_ff;
  const long N = long(batch) * c.seq_len;
  const double* P = params_.data();
  const double* x = act(resid_, l, D);
  double *ln1 = act(ln1_, l, D), *r1 = act(r1_, l, D), *x1 = act(x1_, l, D), *ln2 = act(ln2_, l, D),
         *r2 = act(r2_, l, D), *out = act(resid_, l + 1, D);
  double *s1 = ln1_stats_.data() + long(l) * 2 * act_stride(1), *s2 = ln2_stats_.data() + long(l) * 2 * act_stride(1);
  double *q = act(q_, l, W), *k = act(k_, l, W), *v = act(v_, l, W), *y = act(y_, l, W);
  double *h = act(h_, l, F), *u = act(u_, l, F);

  // Attention sublayer: its input is LN₁(x) in pre-LN, x itself in post-LN.
  const double* a_in = x;
  if (c.pre_ln) {
    layernorm_forward(ln1, s1, s1 + N, x, P + bk.ln1_g, P + bk.ln1_b, N, D);
    a_in = ln1;
  }
  linear_forward(q, a_in, bk.wq, bk.bq, int(N), W, D);
  linear_forward(k, a_in, bk.wk, bk.bk, int(N), W, D);
  linear_forward(v, a_in, bk.wv, bk.bv, int(N), W, D);
  const AttentionEdit* edit = edits_[size_t(l)] ? &edits_[size_t(l)] : nullptr;
  attention_forward(y, probs_.data() + long(l) * probs_stride(), q, k, v, shape(batch), edit);
  linear_forward(r1, y, bk.wo, bk.bo, int(N), D, W);
  add_into(r1, x, N * D);
  const double* after_attn = r1;
  if (!c.pre_ln) {
    layernorm_forward(x1, s1, s1 + N, r1, P + bk.ln1_g, P + bk.ln1_b, N, D);
    after_attn = x1;
  }
  // FFN sublayer.
  const double* m_in = after_attn;
  if (c.pre_ln) {
    layernorm_forward(ln2, s2, s2 + N, after_attn, P + bk.ln2_g, P + bk.ln2_b, N, D);
    m_in = ln2;
  }
  linear_forward(h, m_in, bk.w1, bk.b1, int(N), F, D);
  activation_forward(c.activation, u, h, N * F);
  double* sum = c.pre_ln ? out : r2;
  linear_forward(sum, u, bk.w2, bk.b2, int(N), D, F);
  add_into(sum, after_attn, N * D);
  if (!c.pre_ln) layernorm_forward(out, s2, s2 + N, r2, P + bk.ln2_g, P + bk.ln2_b, N, D);
}

const double* Transformer::forward(const int* tokens, int batch) {
  if (batch < 0 || batch > max_batch_)  // more sequences would be written past the buffers
    throw std::length_error("Transformer::forward: a batch of " + std::to_string(batch) +
                            " sequences; its buffers hold 0 to " + std::to_string(max_batch_));
  const TransformerConfig& c = config_;
  const int D = c.d_model, T = c.seq_len;
  tokens_ = tokens;
  if (resid_.empty()) size_activations();
  const double me = mult(wte_), mp = mult(wpe_);
  double* x0 = resid_.data();
  for (int b = 0; b < batch; b++)
    for (int t = 0; t < T; t++) {
      const double* e = params_.data() + wte_ + long(tokens[long(b) * T + t]) * D;
      const double* pe = params_.data() + wpe_ + long(t) * D;
      double* row = x0 + (long(b) * T + t) * D;
      for (int i = 0; i < D; i++) row[i] = me * e[i] + mp * pe[i];
    }
  for (int l = 0; l < c.layers; l++) block_forward(l, batch);
  // Only the last position is read out (the tasks supervise it alone).
  const double* top = act(resid_, c.layers, D);
  for (int b = 0; b < batch; b++) std::copy_n(top + (long(b) * T + T - 1) * D, D, last_.data() + long(b) * D);
  if (c.pre_ln)
    layernorm_forward(z_.data(), lnf_stats_.data(), lnf_stats_.data() + batch, last_.data(), params_.data() + lnf_g_,
                      params_.data() + lnf_b_, batch, D);
  else
    std::copy_n(last_.data(), long(batch) * D, z_.data());
  linear_forward(logits_.data(), z_.data(), head_w_, head_b_, batch, c.outputs, D);
  return logits_.data();
}

void Transformer::block_backward(int l, int batch) {
  const TransformerConfig& c = config_;
  const Block& bk = blocks_[size_t(l)];
  const int D = c.d_model, W = c.heads * c.head_dim(), F = c.d_ff;
  const long N = long(batch) * c.seq_len;
  const double* P = params_.data();
  double* G = grads_.data();
  const double* x = act(resid_, l, D);
  double *ln1 = act(ln1_, l, D), *r1 = act(r1_, l, D), *x1 = act(x1_, l, D), *ln2 = act(ln2_, l, D),
         *r2 = act(r2_, l, D);
  double *s1 = ln1_stats_.data() + long(l) * 2 * act_stride(1), *s2 = ln2_stats_.data() + long(l) * 2 * act_stride(1);
  double *q = act(q_, l, W), *k = act(k_, l, W), *v = act(v_, l, W), *y = act(y_, l, W);
  double *h = act(h_, l, F), *u = act(u_, l, F);
  const double* after_attn = c.pre_ln ? r1 : x1;
  const double* m_in = c.pre_ln ? ln2 : x1;
  const double* a_in = c.pre_ln ? ln1 : x;

  // g_ holds dL/d(block output). dsum = dL/d(after_attn + FFN).
  double* dsum = g_.data();
  if (!c.pre_ln) {
    std::fill_n(dr_.data(), N * D, 0.0);
    layernorm_backward(dr_.data(), G + bk.ln2_g, G + bk.ln2_b, g_.data(), r2, P + bk.ln2_g, s2, s2 + N, N, D);
    dsum = dr_.data();
  }
  std::copy_n(dsum, N * D, dx1_.data());  // the residual path
  linear_backward(dff_.data(), false, dsum, u, bk.w2, bk.b2, int(N), D, F);
  activation_backward(c.activation, dff2_.data(), dff_.data(), h, u, N * F);
  if (c.pre_ln) {
    linear_backward(dtmp_.data(), false, dff2_.data(), m_in, bk.w1, bk.b1, int(N), F, D);
    layernorm_backward(dx1_.data(), G + bk.ln2_g, G + bk.ln2_b, dtmp_.data(), after_attn, P + bk.ln2_g, s2, s2 + N, N,
                       D);
  } else {
    linear_backward(dx1_.data(), true, dff2_.data(), m_in, bk.w1, bk.b1, int(N), F, D);
  }
  // dx1_ = dL/d(after_attn). dr1 = dL/d(x + Attn).
  double* dr1 = dx1_.data();
  if (!c.pre_ln) {
    std::fill_n(dr_.data(), N * D, 0.0);
    layernorm_backward(dr_.data(), G + bk.ln1_g, G + bk.ln1_b, dx1_.data(), r1, P + bk.ln1_g, s1, s1 + N, N, D);
    dr1 = dr_.data();
  }
  linear_backward(dy_.data(), false, dr1, y, bk.wo, bk.bo, int(N), D, W);
  attention_backward(dq_.data(), dk_.data(), dv_.data(), dy_.data(), probs_.data() + long(l) * probs_stride(), q, k, v,
                     shape(batch), dprobs_.data());
  linear_backward(dtmp_.data(), false, dq_.data(), a_in, bk.wq, bk.bq, int(N), W, D);
  linear_backward(dtmp_.data(), true, dk_.data(), a_in, bk.wk, bk.bk, int(N), W, D);
  linear_backward(dtmp_.data(), true, dv_.data(), a_in, bk.wv, bk.bv, int(N), W, D);
  // dL/dx = dr1 (residual) + the attention input's gradient (through LN₁ in pre-LN).
  if (dr1 != g_.data()) std::copy_n(dr1, N * D, g_.data());
  if (c.pre_ln)
    layernorm_backward(g_.data(), G + bk.ln1_g, G + bk.ln1_b, dtmp_.data(), x, P + bk.ln1_g, s1, s1 + N, N, D);
  else
    add_into(g_.data(), dtmp_.data(), N * D);
}

void Transformer::backward(const double* dlogits, int batch) {
  const TransformerConfig& c = config_;
  const int D = c.d_model, T = c.seq_len;
  std::fill(grads_.begin(), grads_.end(), 0.0);
  linear_backward(dz_.data(), false, dlogits, z_.data(), head_w_, head_b_, batch, c.outputs, D);
  // dL/d(top of the stack): nonzero only at each sequence's last position.
  const long N = long(batch) * T;
  std::fill_n(g_.data(), N * D, 0.0);
  std::fill_n(dtmp_.data(), long(batch) * D, 0.0);
  const double* dlast = dz_.data();
  if (c.pre_ln) {
    layernorm_backward(dtmp_.data(), grads_.data() + lnf_g_, grads_.data() + lnf_b_, dz_.data(), last_.data(),
                       params_.data() + lnf_g_, lnf_stats_.data(), lnf_stats_.data() + batch, batch, D);
    dlast = dtmp_.data();
  }
  for (int b = 0; b < batch; b++) std::copy_n(dlast + long(b) * D, D, g_.data() + (long(b) * T + T - 1) * D);
  for (int l = c.layers - 1; l >= 0; l--) block_backward(l, batch);
  const double me = mult(wte_), mp = mult(wpe_);
  for (int b = 0; b < batch; b++)
    for (int t = 0; t < T; t++) {
      const double* g = g_.data() + (long(b) * T + t) * D;
      double* de = grads_.data() + wte_ + long(tokens_[long(b) * T + t]) * D;
      double* dp = grads_.data() + wpe_ + long(t) * D;
      for (int i = 0; i < D; i++) {
        de[i] += me * g[i];
        dp[i] += mp * g[i];
      }
    }
}

std::vector<TensorSlice> transformer_slices(const Transformer& m) {
  std::vector<TensorSlice> out;
  for (const TransformerTensor& t : m.tensors()) out.push_back({t.offset, t.size(), t.init.lr_multiplier, t.is_matrix()});
  return out;
}

long transformer_parameter_count(const TransformerConfig& c) {
  return transformer_layout(c, TransformerInit{}).total();
}

double transformer_forward_flops(const TransformerConfig& c) {
  const double D = c.d_model, W = double(c.heads) * c.head_dim(), F = c.d_ff, T = c.seq_len;
  const double per_layer = 2 * T * (4 * W * D + 2 * F * D) + 2 * 2 * T * T * W;
  return c.layers * per_layer + 2 * D * c.outputs;
}

std::vector<std::array<int, 3>> transformer_f32_shapes(const TransformerConfig& c, int batch) {
  const int D = c.d_model, W = c.heads * c.head_dim(), F = c.d_ff, N = batch * c.seq_len;
  // {rows, fan_out, fan_in} of each distinct linear: Q/K/V, O, FFN in and out, the head.
  const std::array<int, 3> linears[] = {{N, W, D}, {N, D, W}, {N, F, D}, {N, D, F}, {batch, c.outputs, D}};
  std::vector<std::array<int, 3>> shapes;
  for (const auto& [rows, out, in] : linears)
    for (std::array<int, 3> shape : {std::array<int, 3>{rows, out, in}, {out, in, rows}, {rows, in, out}})
      shapes.push_back(shape);
  return shapes;
}

double transformer_activation_doubles(const TransformerConfig& c, int batch) {
  double doubles = 0;
  Transformer::activation_buffers(c, batch, [&](std::vector<double> Transformer::*, long n) { doubles += double(n); });
  return doubles;
}
