// A decoder-only Transformer with explicit forward and backward passes (in the style of llm.c), for the
// anchor-function tasks of the book's chapters 12 and 13 (engine/task/anchor_tasks.hpp): only the last position is
// read out.
//
//   x⁰_t = m_e · wte[token_t] + m_p · wpe[t]
//   pre-LN block:   r = x + Attn(LN₁(x)),   x' = r + FFN(LN₂(r))          (final LayerNorm before the head)
//   post-LN block:  r = LN₁(x + Attn(x)),   x' = LN₂(r + FFN(r))          (the book's placement, no final LN)
//   Attn: per head softmax(scale · Q Kᵀ, causal) V, then W_O;  FFN: W₂ φ(W₁ ·)
//   logits = m_out · z W_headᵀ + b_head,   z = the last position's final features
//
// Every matrix is stored row-major as (fan_out × fan_in), like torch.nn.Linear, in one flat parameter buffer;
// tensors() lists them in that order with their initialization and learning-rate rule (from the
// TransformerInit, transformer_parametrization.hpp). Activation buffers are sized for `max_batch` sequences at
// the first forward pass (a model that only holds parameters, as a replica does, never sizes them); after it, forward
// and backward allocate nothing.
//
// set_precision(float32) runs every matrix product over all positions (the Q, K, V, O, FFN and head linears, forward
// and backward) on the float32 kernels (engine/kernels/gemm_f32.hpp), as a float32 Mlp (MlpConfig::precision) does;
// parameters, activations, gradients, the attention scores and mixing over the T positions and the LayerNorm
// statistics stay double.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "engine/base/rng.hpp"
#include "engine/kernels/activation.hpp"
#include "engine/kernels/gemm_f32.hpp"
#include "engine/model/attention.hpp"
#include "engine/model/optimizer.hpp"
#include "engine/param/transformer_parametrization.hpp"

struct TransformerConfig {
  int vocab = 128;    // input token ids in [0, vocab)
  int outputs = 128;  // classes of the head
  int seq_len = 9;
  int layers = 3, d_model = 64, heads = 1, d_head = 0, d_ff = 256;  // d_head 0: d_model / heads
  Activation activation = Activation::relu;
  bool pre_ln = true;
  bool attention_bias = false, mlp_bias = false, output_bias = true;
  int head_dim() const { return d_head > 0 ? d_head : d_model / heads; }
};

struct TransformerTensor {
  std::string name;  // "wte", "wpe", "h0.wq", ..., "ln_f.g", "head.w", "head.b"
  long offset = 0;
  int rows = 1, cols = 1;  // a vector has rows 1
  TensorRole role = TensorRole::hidden;
  TensorInit init;
  long size() const { return long(rows) * cols; }
  bool is_matrix() const { return role != TensorRole::norm_gain && role != TensorRole::bias; }
};

// Where each tensor lies in the flat parameter buffer: the one description of a Transformer's parameters, which the
// constructor allocates and the budgets count (transformer_parameter_count), as llm.c's fill_in_parameter_sizes is.
struct TransformerBlockOffsets {  // offsets of one block's tensors in the flat buffers (-1: absent)
  long ln1_g, ln1_b, wq, wk, wv, bq, bk, bv, wo, bo, ln2_g, ln2_b, w1, b1, w2, b2;
};
struct TransformerLayout {
  std::vector<TransformerTensor> tensors;  // in buffer order
  std::vector<TransformerBlockOffsets> blocks;
  long wte = 0, wpe = 0, lnf_g = -1, lnf_b = -1, head_w = 0, head_b = -1;
  long total() const { return tensors.empty() ? 0 : tensors.back().offset + tensors.back().size(); }
};
TransformerLayout transformer_layout(const TransformerConfig& c, const TransformerInit& init);

class Transformer {
 public:
  Transformer(TransformerConfig config, const TransformerInit& init, int max_batch);

  void init(Rng& rng);  // every tensor in order, row-major

  // float64 (default): the reference kernels. float32: the linears' products run in float32 (see above). The float32
  // workspace is sized with the activations (at the first forward pass), not in the step loop after it.
  void set_precision(Precision p);
  Precision precision() const { return precision_; }

  // tokens: batch × seq_len ids. Returns the last position's logits (batch × outputs). More sequences than
  // max_batch() throw std::length_error.
  const double* forward(const int* tokens, int batch);
  // From dL/dlogits of the last forward: overwrites the gradient buffer.
  void backward(const double* dlogits, int batch);

  const TransformerConfig& config() const { return config_; }
  int max_batch() const { return max_batch_; }
  double attention_scale() const { return attention_scale_; }
  std::vector<double>& params() { return params_; }
  const std::vector<double>& params() const { return params_; }
  std::vector<double>& grads() { return grads_; }
  const std::vector<TransformerTensor>& tensors() const { return tensors_; }
  const TransformerTensor* find_tensor(const std::string& name) const;

  // Hooks for analysis, all of the last forward:
  // post-softmax attention of block l: batch × heads × T × T (row = query position);
  const double* attention(int layer) const { return probs_.data() + long(layer) * probs_stride(); }
  // the residual stream entering block l (l = layers: the last block's output), batch·T × d_model;
  const double* hidden(int layer) const { return resid_.data() + long(layer) * act_stride(config_.d_model); }
  // the features the head reads (the last position, after the final LayerNorm in pre-LN), batch × d_model;
  const double* features() const { return z_.data(); }
  // block l's queries and keys before the attention scale, batch·T × heads·d_head (head h: columns h·d_head …).
  const double* queries(int layer) const { return q_.data() + long(layer) * act_stride(config_.heads * config_.head_dim()); }
  const double* keys(int layer) const { return k_.data() + long(layer) * act_stride(config_.heads * config_.head_dim()); }
  // An edit applied to block l's attention after the softmax (masking analyses); an empty function clears it.
  void set_attention_edit(int layer, AttentionEdit edit) { edits_[size_t(layer)] = std::move(edit); }

 private:
  using Block = TransformerBlockOffsets;
  friend double transformer_activation_doubles(const TransformerConfig& c, int batch);
  // Calls visit(buffer, doubles) for every activation and scratch buffer of a model of `c` sized for `batch`
  // sequences: the one description of them, which size_activations allocates and transformer_activation_doubles sums.
  template <class Visit>
  static void activation_buffers(const TransformerConfig& c, int batch, Visit&& visit);
  double mult(long offset) const;
  // C = alpha · A B, alpha · Aᵀ B, alpha · A Bᵀ (kernels.hpp's contracts) in the model's precision.
  void product_nn(double* C, const double* A, const double* B, int m, int n, int k, double alpha);
  void product_tn(double* C, const double* A, const double* B, int m, int n, int k, double alpha);
  void product_nt(double* C, const double* A, const double* B, int m, int n, int k, double alpha);
  void linear_forward(double* out, const double* in, long w, long b, int rows, int out_dim, int in_dim);
  // dW = m·doutᵀ in (overwrites), db += Σ dout, din (= or +=) m·dout W.
  void linear_backward(double* din, bool accumulate, const double* dout, const double* in, long w, long b, int rows,
                       int out_dim, int in_dim);
  void block_forward(int l, int batch);
  void block_backward(int l, int batch);
  long act_stride(int width) const { return long(max_batch_) * config_.seq_len * width; }
  long probs_stride() const { return long(max_batch_) * config_.heads * config_.seq_len * config_.seq_len; }
  double* act(std::vector<double>& buf, int l, int width) { return buf.data() + long(l) * act_stride(width); }
  AttentionShape shape(int batch) const;
  void size_activations();

  TransformerConfig config_;
  int max_batch_;
  double attention_scale_;
  std::vector<TransformerTensor> tensors_;
  std::vector<Block> blocks_;
  long wte_, wpe_, lnf_g_ = -1, lnf_b_ = -1, head_w_, head_b_ = -1;
  std::vector<double> params_, grads_;
  std::vector<AttentionEdit> edits_;
  const int* tokens_ = nullptr;

  // Activations, one slice per block (llm.c style): the residual stream and every intermediate backward reads.
  std::vector<double> resid_;                  // (layers + 1) × N × D
  std::vector<double> ln1_, r1_, x1_, ln2_, r2_;  // N × D per block (x1_: post-LN only, ln2_: pre-LN only)
  std::vector<double> ln1_stats_, ln2_stats_;  // mean, rstd: 2 × N per block
  std::vector<double> q_, k_, v_, y_;          // N × heads·d_head per block
  std::vector<double> probs_;                  // batch × heads × T × T per block
  std::vector<double> h_, u_;                  // N × d_ff per block: preactivation and φ(h)
  std::vector<double> last_, z_, lnf_stats_, logits_;  // the last position: batch × D, batch × D, 2·batch, batch × out
  // Backward scratch.
  std::vector<double> g_, dx1_, dr_, dtmp_, dtmp2_, dff_, dff2_, dq_, dk_, dv_, dy_, dprobs_, dz_;
  std::vector<double> transposed_;  // matmul_nt scratch: the largest matrix
  Precision precision_ = Precision::float64;
  GemmF32Workspace gemm_f32_;  // float32 mode: packing buffers
};

// The optimizer's view of a Transformer: one slice per tensor, weight decay on matrices and embeddings only.
std::vector<TensorSlice> transformer_slices(const Transformer& m);

// Parameters of a model of `c` (its transformer_layout's total).
long transformer_parameter_count(const TransformerConfig& c);
// Floating-point operations of one sequence's forward pass: every matrix product over all positions, the attention
// scores and mixing, the head at the last position (backward costs about twice this).
double transformer_forward_flops(const TransformerConfig& c);
// The float32 products' shapes {m, n, k} for `batch` sequences: every linear's forward (batch·T × fan_out × fan_in),
// weight gradient and input gradient, the head's at the last position (set_precision reserves them; the memory
// estimate counts them).
std::vector<std::array<int, 3>> transformer_f32_shapes(const TransformerConfig& c, int batch);
// Doubles of forward/backward buffers for `batch` sequences (Transformer::activation_buffers).
double transformer_activation_doubles(const TransformerConfig& c, int batch);
