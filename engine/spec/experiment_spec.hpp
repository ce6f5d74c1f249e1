// ExperimentSpec: the single source of truth for an experiment: model, parametrization, task, optimizer, schedule,
// sweep axes and metrics, with the defaults a spec file leaves out; and what follows from it for one sweep member
// (its weight-matrix dims, its per-tensor scaling, its memory). Reading and writing JSON: engine/spec/spec.hpp.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/base/json.hpp"
#include "engine/kernels/activation.hpp"
#include "engine/kernels/gemm_f32.hpp"
#include "engine/model/optimizer.hpp"
#include "engine/param/depth_rule.hpp"
#include "engine/param/parametrization.hpp"
#include "engine/spec/backend.hpp"
#include "engine/spec/model_kind.hpp"
#include "engine/spec/transformer_spec.hpp"
#include "engine/task/task.hpp"

constexpr int kSpecVersion = 1;
constexpr size_t kMaxViewChars = 200;  // ExperimentSpec::view

struct ModelSpec {
  std::vector<int> widths{64, 64};  // hidden widths n_1..n_L
  Activation activation = Activation::relu;
  bool input_bias = false;  // fold a first-layer bias in as a constant input coordinate
  ModelKind kind = ModelKind::mlp;  // transformer: widths/activation/input_bias unused, `transformer` instead
  TransformerSpec transformer;
  double activation_param = 1;  // a of sin(a x) and of the Ricker function
  // Antisymmetric initialization: two copies of the net, output (√2/2)(h(θ) − h(θ′)), θ′ = θ at init (Mlp).
  bool asi = false;
  double dropout = 0;  // drop probability of every hidden unit in training steps (MlpConfig::dropout)
  bool biases = false;  // a trainable, zero-initialized bias in every layer (hidden and output), rule bias_scaling
  int depth = 4;  // residual_mlp: the number L of residual blocks (hidden → hidden layers) of width widths[0]
  // residual_mlp: weights per block (1: h + W φ(h); 2: h + W φ(W' φ(h))) and a LayerNorm without gain or bias on
  // the stream before each branch's φ (MlpConfig::residual).
  int block_depth = 1;
  bool block_norm = false;
};

struct ParametrizationSpec {
  Preset preset = Preset::mup;
  double theta = 0;         // the symmetry shift (a+θ, b−θ, c−2θ): same trajectory, other bookkeeping
  std::vector<Abc> custom;  // per weight matrix, when preset == custom
  double init_scale = 1;    // multiplies the init std of every layer, or of the first only
  InitScaleLayers init_scale_layers = InitScaleLayers::all;
  ReadoutInit readout_init = ReadoutInit::random;  // zero: the last weight matrix starts at 0 (its draws still made)
  double gamma = 0, gamma_prime = 0;  // two_layer_gamma, when sweep.phase_points is empty
  // residual_mlp: how the blocks scale with the depth L (engine/param/depth_rule.hpp); custom takes these two.
  DepthRule depth_rule = DepthRule::standard;
  double depth_alpha = 0.5, depth_gamma = 0;
};

struct ScheduleSpec {
  int steps = 200;
  int batch_size = 0;  // 0: full batch
  int record_every = 1;
  double divergence_loss = 1e6;  // a loss above this (or NaN/inf) ends the run as diverged
  // Transformer runs only: linear warm-up over this fraction of the steps, then (cosine) a half cosine down to
  // final_lr_fraction · lr; global gradient-norm clipping at clip_norm (0: off).
  double warmup_fraction = 0;
  bool cosine = false;
  double final_lr_fraction = 0;
  double clip_norm = 0;
  // > 0: a run finishes early once its train loss is ≤ this × the zero predictor's loss (1/2n Σ y²), so runs of
  // several widths stop at the same relative loss (phase diagram)
  double stop_loss_ratio = 0;
};

struct PhasePoint {
  double gamma = 0, gamma_prime = 0;
};

// One point of the sweep: the coordinates one member trains at.
struct MemberCoords {
  int width = 0;  // 0: model.widths (or model.transformer.d_model) as written
  double lr = 0;
  uint64_t seed = 0;
  double gamma = 0;         // transformer: initialization rate (γ-init)
  double weight_decay = 0;  // transformer: the optimizer's weight decay λ
  PhasePoint phase;         // (γ, γ′) of a two_layer_gamma member
  int depth = 0;            // residual_mlp: the number of blocks (0: model.depth as written)
};

struct SweepSpec {
  std::vector<int> width;  // each value replaces every hidden width; empty: model.widths as written
  std::vector<double> lr;  // empty: optimizer.lr
  std::vector<uint64_t> seeds{0};
  std::vector<double> gamma;         // Transformer init rate; empty: model.transformer.gamma
  std::vector<double> weight_decay;  // empty: optimizer.weight_decay
  std::vector<PhasePoint> phase_points;  // (γ, γ′) of two_layer_gamma; empty: parametrization.gamma, gamma_prime
  std::vector<int> depth;  // residual_mlp: numbers of blocks; empty: model.depth
};

struct ExperimentSpec {
  int version = kSpecVersion;
  std::string name = "untitled";
  std::string description;
  // The figure this experiment is about, for a front end to open on: the page's view and its settings, as
  // examples/README.md ("Views in links") spells them, e.g. "width;quantity=act_delta_rms;record=1". The engine never
  // reads it; it travels with the spec (links, files, results) so that a reader sees what its author saw.
  std::string view;
  ModelSpec model;
  ParametrizationSpec parametrization;
  TaskConfig task;
  OptimizerConfig optimizer;
  ScheduleSpec schedule;
  SweepSpec sweep;
  std::vector<std::string> metrics{"train_loss", "test_loss"};
  Backend backend = Backend::auto_;  // where to train (engine/spec/backend.hpp); written only when not auto
  // Arithmetic of the dense products (gemm_f32.hpp). Written to JSON only when not the default, so the specs and
  // share links of float64 runs stay as they were.
  Precision precision = Precision::float64;
};

// The precision the spec's numbers are computed in: its `precision`, except on backend webgpu, which computes in
// float32 wherever it runs (on the device, or on the CPU when WebGPU is missing), so that such a run stays within
// float32 rounding (~1e-4) of the device's numbers.
Precision arithmetic_precision(const ExperimentSpec& s);

// The number of sweep members: the product of the sweep axes' lengths (an empty axis counts once).
size_t sweep_size(const ExperimentSpec& s);
// Every member of the sweep, in the order the Runner trains them: by width, depth, lr, weight decay, γ, phase point
// and seed, the seed varying fastest.
std::vector<MemberCoords> sweep_members(const ExperimentSpec& s);
// A residual MLP member's number of blocks (its sweep.depth value, else model.depth); 0 for every other model.
int member_depth(const ExperimentSpec& s, const MemberCoords& c);

// The weight-matrix dims {d_in, n_1, ..., n_L, d_out} of a member with hidden width `width` (0: as written); a
// residual_mlp's are {d_in, n, ..., n, d_out} with depth · model.block_depth + 1 hidden entries (depth 0:
// model.depth).
std::vector<int> model_dims(const ExperimentSpec& s, int width, int depth = 0);
// The number of residual blocks of a residual_mlp with these dims and `block_layers` weights per block.
inline int residual_depth(const std::vector<int>& dims, int block_layers) {
  return (int(dims.size()) - 3) / block_layers;
}
UpdateRule update_rule(OptimizerKind k);
// The abc exponents in force: the preset's, or the custom list.
std::vector<Abc> spec_exponents(const ExperimentSpec& s);
// The scaling per weight matrix of a member with these dims and (γ, γ′): the abc table's (with θ), or the
// phenomena inits (normal, two_layer_gamma), then parametrization.init_scale applied.
std::vector<TensorScaling> spec_scaling(const ExperimentSpec& s, const std::vector<int>& dims, PhasePoint phase);
// The rule of every layer's bias (parametrization.hpp bias_scaling; the phenomena inits: multiplier and LR 1), or
// none without model.biases.
std::vector<TensorScaling> spec_bias_scaling(const ExperimentSpec& s, const std::vector<int>& dims);
// The init of a transformer member with initialization rate `gamma` (sweep.gamma, else model.transformer.gamma).
TransformerInit transformer_init(const TransformerSpec& t, const ParametrizationSpec& p, double gamma);
