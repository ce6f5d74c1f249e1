// A multilayer perceptron with explicit forward and backward passes (in the style of llm.c).
//
//   h_1 = m_1 · x W_1ᵀ + m'_1 b_1,  x_l = phi(h_l),  h_{l+1} = m_{l+1} · x_l W_{l+1}ᵀ + m'_{l+1} b_{l+1},  f = h_{L+1}
//
// W_l is stored row-major as (fan_out × fan_in), like PyTorch's nn.Linear, in one flat parameter buffer; the biases
// b_l (optional, length fan_out) follow all the weights in the same buffer, so weights(l) is where it is without them.
// The multipliers m_l, m'_l, init stds and learning-rate multipliers come from the Parametrization.
// Buffers are sized for `max_batch` rows, the activations in the constructor, the gradient and the products' scratch
// at their first use (a model that only holds θ, as the page's replica does, never sizes them); after the first
// forward and backward pass, neither allocates.
#pragma once
#include <array>
#include <vector>

#include "engine/base/rng.hpp"
#include "engine/kernels/activation.hpp"
#include "engine/kernels/gemm_f32.hpp"
#include "engine/model/optimizer.hpp"
#include "engine/param/parametrization.hpp"

// A residual net's blocks: weights per block (1 or 2) and a pre-norm of the stream before each branch's φ.
struct ResidualShape {
  int layers = 1;
  bool norm = false;
};

// Everything that shapes an Mlp, set once at construction: a plain net from the constructor, its options set by name.
struct MlpConfig {
  MlpConfig(std::vector<int> dims, Activation activation, std::vector<TensorScaling> scaling, int max_batch,
            std::vector<TensorScaling> bias_scaling = {})
      : dims(std::move(dims)), activation(activation), scaling(std::move(scaling)),
        bias_scaling(std::move(bias_scaling)), max_batch(max_batch) {}

  std::vector<int> dims;  // {d_in, n_1, ..., n_L, d_out}
  Activation activation = Activation::relu;
  // One entry per weight matrix (dims.size() - 1), and as many for the biases, or none for a net without biases.
  std::vector<TensorScaling> scaling, bias_scaling;
  int max_batch = 1;  // the rows every buffer holds
  double activation_param = 1;  // the activation's parameter a (sin(a x), Ricker width a)
  // float64: the reference kernels. float32: the dense products run in float32 (gemm_f32.hpp), while parameters,
  // activations and gradients stay double.
  Precision precision = Precision::float64;
  // Antisymmetric initialization (ASI, book §4.2.1; Zhang et al. 2020): the net is two copies of one network,
  // f = (√2/2) h(x; θ) − (√2/2) h(x; θ′) with θ′ = θ at init, so f ≡ 0 at init and both copies train. The copies
  // live side by side in this net's hidden layers, interleaved (unit 2j of copy θ, 2j+1 of copy θ′), so the hidden
  // widths must be even and are twice the copy's; the caller puts the √2/2 into the output multiplier and the copy's
  // scaling into every layer. Between hidden layers the weights linking the two copies stay 0: backward() zeroes
  // their gradients (mask_gradients()).
  bool antisymmetric = false;
  // Residual blocks: the hidden → hidden layers form blocks of `block.layers` weights that add their input (the
  // stream) to their output; φ acts only inside the blocks, and the readout reads the last stream itself (Tensor
  // Programs VI's and Bordelon et al.'s form):
  //   depth 1:  h_{l+1} = h_l + m_l · φ(N(h_l)) W_lᵀ
  //   depth 2:  h_{l+1} = h_l + m_l · φ(u_l) W_lᵀ,   u_l = m'_l · φ(N(h_l)) W'_lᵀ
  //   f = m_out · h_{L+1} W_outᵀ
  // N is a LayerNorm without gain or bias (block.norm) or the identity. The hidden widths must be equal; the depth
  // rule's L^-α is in m_l.
  bool residual = false;
  ResidualShape block;
  // Dropout (book §8.4.1, where it promotes condensation) on every hidden layer's output with drop probability p:
  // forward_train() keeps each unit with probability 1 − p and scales the kept ones by 1/(1 − p) (so the mean is
  // unchanged and evaluation with forward() needs no rescaling); the next backward() uses the same masks.
  double dropout = 0;
};

// The doubles of every buffer an Mlp of `c` holds once it has trained (the gradient and the products' scratch
// included): the one place its sizes are worked out, which the constructor and the first passes allocate and the
// memory budget sums (engine/spec/memory_budget.cpp).
struct MlpSizes {
  long params = 0;                   // weights, then biases; the gradient is as large
  std::vector<long> preactivations;  // h_l, per layer
  std::vector<long> hidden;          // φ(h_l), per hidden layer
  std::vector<long> dropout;         // with dropout: each hidden layer's mask, and as much again for its masked copy
  long backward_scratch = 0;         // each of the two ∂L/∂h buffers: max_batch rows of the widest layer
  long transposed = 0;               // float64 products: the largest weight matrix transposed (0 in float32)
  std::vector<std::array<int, 3>> f32_shapes;  // float32 products: {m, n, k} of every product (the packing buffers)
  std::vector<long> normed;          // a residual net's pre-norm: LN(h_l) of each block input, 0 elsewhere
  long norm_stats = 0;               // and the mean and rstd of each of its rows
  long skip_delta = 0;               // a residual net's ∂L/∂ of a block's output
  double bytes() const;
};
MlpSizes mlp_sizes(const MlpConfig& c);
// h_l is a stream that a residual block reads (the last stream, dims.size() − 3, is the readout's).
inline bool mlp_block_input(const MlpConfig& c, int l) {
  return c.residual && l + 3 < int(c.dims.size()) && l % c.block.layers == 0;
}

class Mlp {
 public:
  // Sizes every buffer the config needs but the gradient and the products' scratch (at their first use).
  explicit Mlp(MlpConfig config);
  // A plain net: MlpConfig(dims, act, scaling, max_batch, bias_scaling) with the rest of its defaults.
  Mlp(std::vector<int> dims, Activation act, std::vector<TensorScaling> scaling, int max_batch,
      std::vector<TensorScaling> bias_scaling = {});

  // w ~ N(0, init_std²) per layer, drawn in layer order, row-major; biases 0 (the book's nets, and no draws, so a
  // net with biases starts from the same weights as one without). With ASI, copy θ's draws, then its twin.
  void init(Rng& rng);

  const MlpConfig& config() const { return config_; }
  Precision precision() const { return config_.precision; }

  // Forward `batch` rows of x (batch × d_in, must stay alive until backward). Returns f (batch × d_out). More rows
  // than max_batch() throw std::length_error.
  const double* forward(const double* x, int batch);
  // Backward from dL/df (batch × d_out) of the last forward: overwrites the gradient buffer.
  void backward(const double* dout, int batch);

  bool residual() const { return config_.residual; }
  const ResidualShape& residual_shape() const { return config_.block; }
  // Layer l ends a residual block: its output adds the stream h_{l-k} (k = MlpConfig::block.layers).
  bool skips(int l) const { return config_.residual && l > 0 && l + 1 < layers() && l % config_.block.layers == 0; }
  bool block_input(int l) const { return mlp_block_input(config_, l); }
  // h_l is a residual net's last stream, which the readout reads as it is.
  bool readout_stream(int l) const { return config_.residual && l + 2 == layers(); }
  // The activation between h_l and the next layer: none before a residual net's readout.
  Activation activation_after(int l) const { return readout_stream(l) ? Activation::linear : config_.activation; }
  // Zeroes the gradients of the weights ASI keeps at 0 (a no-op without ASI). backward() calls it; so must any
  // other code that writes the gradient buffer (engine/model/gradient_loss.hpp).
  void mask_gradients();

  double dropout() const { return config_.dropout; }
  // forward() with dropout's masks drawn anew (MlpConfig::dropout; a training step's pass): backward() uses them.
  const double* forward_train(const double* x, int batch, Rng& rng);

  int layers() const { return int(config_.dims.size()) - 1; }
  const std::vector<int>& dims() const { return config_.dims; }
  const std::vector<TensorScaling>& scaling() const { return config_.scaling; }
  Activation activation() const { return config_.activation; }
  double activation_param() const { return config_.activation_param; }
  int max_batch() const { return config_.max_batch; }

  // Parameters of layer l (fan_out × fan_in) and their gradients, inside the flat buffers.
  double* weights(int l) { return params_.data() + offset_[size_t(l)]; }
  const double* weights(int l) const { return params_.data() + offset_[size_t(l)]; }
  double* grads(int l) { return grads().data() + offset_[size_t(l)]; }
  long layer_size(int l) const { return long(config_.dims[size_t(l) + 1]) * config_.dims[size_t(l)]; }
  bool has_biases() const { return !config_.bias_scaling.empty(); }
  const std::vector<TensorScaling>& bias_scaling() const { return config_.bias_scaling; }
  // The bias of layer l (dims[l+1] values) and where it starts in the flat buffers; only with has_biases().
  double* bias(int l) { return params_.data() + bias_offset_[size_t(l)]; }
  const double* bias(int l) const { return params_.data() + bias_offset_[size_t(l)]; }
  long bias_offset(int l) const { return bias_offset_[size_t(l)]; }
  std::vector<double>& params() { return params_; }
  const std::vector<double>& params() const { return params_; }
  // ∂L/∂θ, sized at the first use: a model that never trains (the page's replica) never holds it.
  std::vector<double>& grads();

  // Preactivation h_{l+1} of the last forward (batch × dims[l+1]); l = layers()-1 is the output f.
  const double* preactivation(int l) const { return h_[size_t(l)].data(); }

 private:
  double* compute_preactivation(int l, int batch);
  void add_skip(int l, int batch);
  void activate(int l, int batch);
  void input_backward(int l, int batch);
  const double* layer_input(int l) const {
    if (l == 0) return input_;
    return dropout_active_ ? dropped_[size_t(l) - 1].data() : x_[size_t(l) - 1].data();
  }
  bool hidden(int dim_index) const { return dim_index > 0 && dim_index + 1 < int(config_.dims.size()); }
  void size_products();
  void check_batch(int batch, const char* pass) const;

  MlpConfig config_;
  std::vector<long> offset_, bias_offset_;
  std::vector<double> params_, grads_;
  std::vector<std::vector<double>> h_;  // preactivations, one per layer
  std::vector<std::vector<double>> x_;  // phi(h) of the hidden layers
  std::vector<double> delta_, delta_prev_;  // backward scratch: ∂L/∂h of the current and the previous layer
  std::vector<double> transposed_;  // forward scratch: one weight matrix transposed
  GemmF32Workspace gemm_f32_;  // float32 mode: packing buffers
  bool products_sized_ = false;  // transposed_ or gemm_f32_, for the precision in use (size_products)
  const double* input_ = nullptr;
  std::vector<std::vector<double>> normed_;      // per block input h_l with config_.block.norm: LN(h_l), φ's input
  std::vector<std::vector<double>> norm_stats_;  // and its rows' mean, then rstd (2 × batch)
  std::vector<double> skip_delta_;  // backward: ∂L/∂ of a block's output, which the skip passes to its input
  bool dropout_active_ = false;  // the last forward was forward_train with dropout
  std::vector<std::vector<double>> keep_;     // per hidden layer: 0 or 1/(1 − p) per unit and row
  std::vector<std::vector<double>> dropped_;  // per hidden layer: x ⊙ keep, the next layer's input
};

// The optimizer's per-tensor view of an Mlp: one slice per weight matrix with its learning-rate multiplier, then one
// per bias. Biases are not weight-decayed (as the Transformer's, and unlike PyTorch's default param group): decay is
// a pull of a matrix toward zero that shrinks its scale with width; a bias has no such scale.
std::vector<TensorSlice> layer_slices(const Mlp& m);
