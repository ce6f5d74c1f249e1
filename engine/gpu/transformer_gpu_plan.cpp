#include "engine/gpu/transformer_gpu_plan.hpp"

#include "engine/model/anchor_trainer.hpp"
#include "engine/model/layernorm.hpp"
#include "engine/spec/spec.hpp"
#include "engine/spec/transformer_spec.hpp"

namespace {

uint32_t u(long x) { return uint32_t(x); }
constexpr uint32_t kLinear = uint32_t(Activation::linear);

// Builds the plan tensor by tensor, keeping the buffer ids of one forward pass for the backward pass.
class Builder {
 public:
  Builder(const Transformer& model, TransformerGpuPlan& p, int batch)
      : m_(model), c_(model.config()), p_(p), g_(p.plan), B_(batch), T_(c_.seq_len), N_(long(batch) * c_.seq_len),
        D_(c_.d_model), W_(c_.heads * c_.head_dim()), F_(c_.d_ff) {
    for (const TransformerTensor& t : m_.tensors()) {
      p_.weights.push_back(g_.add_buffer(t.size()));
      p_.grads.push_back(g_.add_buffer(t.size()));
    }
    dummy_ = g_.add_buffer(1);  // bound where a kernel's optional bias is absent
  }

  void forward_backward(int tokens, int labels) {
    tokens_ = tokens;
    forward(labels);
    backward();
  }

 private:
  struct Layer {  // one block's forward buffers (-1: unused by this placement)
    int x = -1, ln1 = -1, mean1 = -1, rstd1 = -1, q = -1, k = -1, v = -1, P = -1, y = -1, r1 = -1, x1 = -1, ln2 = -1,
        mean2 = -1, rstd2 = -1, h = -1, u = -1, r2 = -1, out = -1;
  };

  std::vector<GpuOp>& fb() { return g_.phases[TransformerGpuPlan::forward_backward]; }
  void op(GpuKernel k, std::vector<int> b, std::vector<uint32_t> i, std::vector<float> f = {}) {
    fb().push_back({k, std::move(b), std::move(i), std::move(f)});
  }
  // Index of a tensor in tensors() (and so in p_.weights / p_.grads), -1 when this configuration has none.
  int tensor(const std::string& name) const {
    for (size_t i = 0; i < m_.tensors().size(); i++)
      if (m_.tensors()[i].name == name) return int(i);
    return -1;
  }
  int W(int t) const { return p_.weights[size_t(t)]; }
  int G(int t) const { return p_.grads[size_t(t)]; }
  float mult(int t) const { return float(m_.tensors()[size_t(t)].init.multiplier); }
  int buffer(long size) { return g_.add_buffer(size); }

  // out = m · in Wᵀ (+ bias): in rows × in_dim, W out_dim × in_dim.
  int linear(int in, int w, int b, long rows, int out_dim, int in_dim) {
    const int h = buffer(rows * out_dim);
    op(GpuKernel::gemm_nt, {in, W(w), h}, {u(rows), u(out_dim), u(in_dim)}, {mult(w)});
    if (b < 0) return h;
    const int out = buffer(rows * out_dim);
    op(GpuKernel::bias_act_forward, {W(b), h, out}, {u(rows), u(out_dim), kLinear, 1}, {1.0f});
    return out;
  }
  // dW = m · doutᵀ in, db = Σ_rows dout (a Transformer's biases have multiplier 1), din = m · dout W (din -1: not
  // needed).
  void linear_backward(int dout, int in, int w, int b, long rows, int out_dim, int in_dim, int din) {
    op(GpuKernel::gemm_tn, {dout, in, G(w)}, {u(out_dim), u(in_dim), u(rows)}, {mult(w)});
    if (b >= 0) op(GpuKernel::reduce_rows, {dout, G(b)}, {u(rows), u(out_dim)}, {1.0f});
    if (din >= 0) op(GpuKernel::gemm_nn, {dout, W(w), din}, {u(rows), u(in_dim), u(out_dim)}, {mult(w)});
  }
  void layernorm(int x, int gain, int bias, long rows, int& y, int& mean, int& rstd) {
    y = buffer(rows * D_);
    mean = buffer(rows);
    rstd = buffer(rows);
    op(GpuKernel::layernorm_forward, {x, W(gain), W(bias), y, mean, rstd}, {u(rows), u(D_)}, {float(kLayerNormEps)});
  }
  // dx = LN'(dy) (overwritten); the gain's and bias's gradients.
  void layernorm_backward(int x, int gain, int bias, int dy, int mean, int rstd, long rows, int dx) {
    op(GpuKernel::layernorm_backward, {x, W(gain), dy, mean, rstd, dx}, {u(rows), u(D_)});
    op(GpuKernel::layernorm_param_grad, {x, dy, mean, rstd, G(gain), G(bias)}, {u(rows), u(D_)});
  }
  void add_into(int x, int y, long n) { op(GpuKernel::add_into, {x, y}, {u(n)}); }
  std::vector<uint32_t> attention_ints() const { return {u(B_), u(T_), u(c_.heads), u(c_.head_dim())}; }

  int block(const std::string& name) const { return tensor(prefix_ + name); }

  Layer block_forward(int l, int x) {
    prefix_ = "h" + std::to_string(l) + ".";
    Layer L;
    L.x = x;
    int a_in = x;
    if (c_.pre_ln) {
      layernorm(x, block("ln1.g"), block("ln1.b"), N_, L.ln1, L.mean1, L.rstd1);
      a_in = L.ln1;
    }
    L.q = linear(a_in, block("wq"), block("bq"), N_, W_, D_);
    L.k = linear(a_in, block("wk"), block("bk"), N_, W_, D_);
    L.v = linear(a_in, block("wv"), block("bv"), N_, W_, D_);
    L.P = buffer(long(B_) * c_.heads * T_ * T_);
    L.y = buffer(N_ * W_);
    op(GpuKernel::attention_forward, {L.q, L.k, L.v, L.P, L.y}, attention_ints(), {float(m_.attention_scale())});
    L.r1 = linear(L.y, block("wo"), block("bo"), N_, D_, W_);
    add_into(x, L.r1, N_ * D_);
    int after_attn = L.r1, m_in = L.r1;  // the FFN's residual input and its own input
    if (c_.pre_ln) {
      layernorm(L.r1, block("ln2.g"), block("ln2.b"), N_, L.ln2, L.mean2, L.rstd2);
      m_in = L.ln2;
    } else {
      layernorm(L.r1, block("ln1.g"), block("ln1.b"), N_, L.x1, L.mean1, L.rstd1);
      after_attn = m_in = L.x1;
    }
    L.h = buffer(N_ * F_);
    L.u = buffer(N_ * F_);
    op(GpuKernel::gemm_nt, {m_in, W(block("w1")), L.h}, {u(N_), u(F_), u(D_)}, {mult(block("w1"))});
    const int b1 = block("b1");
    op(GpuKernel::bias_act_forward, {b1 >= 0 ? W(b1) : dummy_, L.h, L.u},
       {u(N_), u(F_), u(int(c_.activation)), b1 >= 0 ? 1u : 0u}, {1.0f});
    const int sum = linear(L.u, block("w2"), block("b2"), N_, D_, F_);
    add_into(after_attn, sum, N_ * D_);
    if (c_.pre_ln) {
      L.out = sum;
    } else {
      L.r2 = sum;
      layernorm(L.r2, block("ln2.g"), block("ln2.b"), N_, L.out, L.mean2, L.rstd2);
    }
    return L;
  }

  void forward(int labels) {
    const int wte = tensor("wte"), wpe = tensor("wpe");
    int x = buffer(N_ * D_);
    op(GpuKernel::embedding_forward, {tokens_, W(wte), W(wpe), x}, {u(N_), u(T_), u(D_)}, {mult(wte), mult(wpe)});
    for (int l = 0; l < c_.layers; l++) {
      layers_.push_back(block_forward(l, x));
      x = layers_.back().out;
    }
    last_ = buffer(long(B_) * D_);
    op(GpuKernel::take_last_rows, {x, last_}, {u(B_), u(T_), u(D_)});
    z_ = last_;
    if (c_.pre_ln) layernorm(last_, tensor("ln_f.g"), tensor("ln_f.b"), B_, z_, meanf_, rstdf_);
    const int logits = linear(z_, tensor("head.w"), tensor("head.b"), B_, c_.outputs, D_);
    dlogits_ = buffer(long(B_) * c_.outputs);
    const int terms = buffer(B_);
    op(GpuKernel::cross_entropy, {logits, labels, dlogits_, terms}, {u(B_), u(c_.outputs)});
    op(GpuKernel::reduce_sum, {terms, p_.step, p_.loss_history}, {u(B_), 0}, {1.0f});
  }

  // Scratch shared by every block's backward pass.
  struct Scratch {
    int d1, d2, d3, f1, f2, dy, dq, dk, dv, dS, g[2];
  };

  // From gout = dL/d(block output) into gin = dL/d(block input) (engine/model/transformer.cpp: block_backward).
  void block_backward(int l, const Scratch& s, int gout, int gin) {
    const Layer& L = layers_[size_t(l)];
    prefix_ = "h" + std::to_string(l) + ".";
    int dr1 = s.d2;
    if (c_.pre_ln) {
      linear_backward(gout, L.u, block("w2"), block("b2"), N_, D_, F_, s.f1);
      op(GpuKernel::bias_act_backward, {s.f1, L.h, L.u, s.f2}, {u(N_), u(F_), u(int(c_.activation))});
      linear_backward(s.f2, L.ln2, block("w1"), block("b1"), N_, F_, D_, s.d1);
      layernorm_backward(L.r1, block("ln2.g"), block("ln2.b"), s.d1, L.mean2, L.rstd2, N_, s.d2);
      add_into(gout, s.d2, N_ * D_);  // + the residual path
    } else {
      layernorm_backward(L.r2, block("ln2.g"), block("ln2.b"), gout, L.mean2, L.rstd2, N_, s.d2);
      linear_backward(s.d2, L.u, block("w2"), block("b2"), N_, D_, F_, s.f1);
      op(GpuKernel::bias_act_backward, {s.f1, L.h, L.u, s.f2}, {u(N_), u(F_), u(int(c_.activation))});
      linear_backward(s.f2, L.x1, block("w1"), block("b1"), N_, F_, D_, s.d1);
      add_into(s.d2, s.d1, N_ * D_);  // dL/dx1: the FFN and the residual path
      layernorm_backward(L.r1, block("ln1.g"), block("ln1.b"), s.d1, L.mean1, L.rstd1, N_, s.d2);
    }
    // dr1 = dL/d(x + Attn(·)).
    linear_backward(dr1, L.y, block("wo"), block("bo"), N_, D_, W_, s.dy);
    const float scale = float(m_.attention_scale());
    op(GpuKernel::attention_backward_q, {L.k, L.v, L.P, s.dy, s.dS, s.dq}, attention_ints(), {scale});
    op(GpuKernel::attention_backward_kv, {L.q, L.P, s.dS, s.dy, s.dk, s.dv}, attention_ints(), {scale});
    const int a_in = c_.pre_ln ? L.ln1 : L.x;
    const int da = c_.pre_ln ? s.d1 : gin;  // dL/d(attention input)
    linear_backward(s.dq, a_in, block("wq"), block("bq"), N_, W_, D_, da);
    linear_backward(s.dk, a_in, block("wk"), block("bk"), N_, W_, D_, s.d3);
    add_into(s.d3, da, N_ * D_);
    linear_backward(s.dv, a_in, block("wv"), block("bv"), N_, W_, D_, s.d3);
    add_into(s.d3, da, N_ * D_);
    if (c_.pre_ln) layernorm_backward(L.x, block("ln1.g"), block("ln1.b"), da, L.mean1, L.rstd1, N_, gin);
    add_into(dr1, gin, N_ * D_);
  }

  void backward() {
    const int dz = buffer(long(B_) * D_);
    linear_backward(dlogits_, z_, tensor("head.w"), tensor("head.b"), B_, c_.outputs, D_, dz);
    int dlast = dz;
    if (c_.pre_ln) {
      dlast = buffer(long(B_) * D_);
      layernorm_backward(last_, tensor("ln_f.g"), tensor("ln_f.b"), dz, meanf_, rstdf_, B_, dlast);
    }
    Scratch s{};
    for (int* b : {&s.d1, &s.d2, &s.d3, &s.g[0], &s.g[1]}) *b = buffer(N_ * D_);
    for (int* b : {&s.f1, &s.f2}) *b = buffer(N_ * F_);
    for (int* b : {&s.dy, &s.dq, &s.dk, &s.dv}) *b = buffer(N_ * W_);
    s.dS = buffer(long(B_) * c_.heads * T_ * T_);
    op(GpuKernel::put_last_rows, {dlast, s.g[0]}, {u(B_), u(T_), u(D_)});
    int gout = 0;
    for (int l = c_.layers - 1; l >= 0; l--, gout ^= 1) block_backward(l, s, s.g[gout], s.g[gout ^ 1]);
    const int wte = tensor("wte"), wpe = tensor("wpe");
    op(GpuKernel::embedding_backward, {s.g[gout], tokens_, G(wte), G(wpe)}, {u(N_), u(T_), u(D_), u(c_.vocab)},
       {mult(wte), mult(wpe)});
  }

  const Transformer& m_;
  const TransformerConfig& c_;
  TransformerGpuPlan& p_;
  GpuPlan& g_;
  const int B_, T_;
  const long N_;
  const int D_, W_, F_;
  int dummy_ = -1, tokens_ = -1, last_ = -1, z_ = -1, meanf_ = -1, rstdf_ = -1, dlogits_ = -1;
  std::string prefix_;
  std::vector<Layer> layers_;
};

}  // namespace

std::string transformer_gpu_unsupported(const TransformerConfig& model, const OptimizerConfig& opt) {
  if (opt.kind != OptimizerKind::adam && opt.kind != OptimizerKind::adamw)
    return std::string("the WebGPU Transformer step implements Adam and AdamW, not ") + optimizer_name(opt.kind);
  switch (model.activation) {
    case Activation::relu:
    case Activation::tanh:
    case Activation::gelu:
    case Activation::linear:
    case Activation::sigmoid: return "";
    default: return std::string("the WebGPU kernels have no activation ") + activation_name(model.activation);
  }
}

TransformerGpuPlan build_transformer_gpu_plan(const Transformer& model, const OptimizerConfig& opt, double clip_norm,
                                              int batch, int train_size, int loss_slots) {
  TransformerGpuPlan p;
  GpuPlan& g = p.plan;
  g.phases.resize(2);
  const TransformerConfig& c = model.config();
  const int T = c.seq_len;
  p.train_tokens = g.add_buffer(long(train_size) * T);
  p.train_labels = g.add_buffer(train_size);
  p.batch_index = g.add_buffer(batch);
  p.step = g.add_buffer(4);
  p.loss_slots = loss_slots;
  p.loss_history = g.add_buffer(loss_slots);
  Builder builder(model, p, batch);

  auto& fb = g.phases[TransformerGpuPlan::forward_backward];
  const int tokens = g.add_buffer(long(batch) * T), labels = g.add_buffer(batch);
  fb.push_back({GpuKernel::gather_rows, {p.train_tokens, p.batch_index, tokens}, {u(batch), u(T)}, {}});
  fb.push_back({GpuKernel::gather_rows, {p.train_labels, p.batch_index, labels}, {u(batch), 1}, {}});
  builder.forward_backward(tokens, labels);

  // Update (AnchorTrainer::train_step: clip, then Optimizer::step with the schedule's factor).
  auto& up = g.phases[TransformerGpuPlan::update];
  const std::vector<TransformerTensor>& tensors = model.tensors();
  if (clip_norm > 0) {
    const int norm2 = g.add_buffer(1);
    for (size_t i = 0; i < tensors.size(); i++)
      up.push_back({GpuKernel::sum_squares, {p.grads[i], norm2}, {u(tensors[i].size()), i > 0 ? 1u : 0u}, {}});
    for (size_t i = 0; i < tensors.size(); i++)
      up.push_back({GpuKernel::clip_scale, {norm2, p.grads[i]}, {u(tensors[i].size())}, {float(clip_norm)}});
  }
  for (size_t i = 0; i < tensors.size(); i++) {
    const TransformerTensor& t = tensors[i];
    p.first_moment.push_back(g.add_buffer(t.size()));
    p.second_moment.push_back(g.add_buffer(t.size()));
    const float decay = t.is_matrix() ? float(opt.weight_decay) : 0.0f;  // transformer_slices: matrices only
    up.push_back({GpuKernel::adam, {p.grads[i], p.step, p.weights[i], p.first_moment.back(), p.second_moment.back()},
                  {u(t.size()), opt.kind == OptimizerKind::adamw ? 1u : 0u, 1u},
                  {float(opt.lr * t.init.lr_multiplier), float(opt.beta1), float(opt.beta2), float(opt.eps), decay}});
  }
  return p;
}
