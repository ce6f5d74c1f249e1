// Width parametrizations (the abc-parametrizations of Yang & Hu, Tensor Programs IV) as a small object the model asks.
//
// abc form: layer l computes with W = n^-a * w, where w is the trained parameter, drawn w ~ N(0, (base n^-b)^2),
// and trained with learning rate eta * n^-c. The presets SP, NTP, MFP and muP are tables of (a, b, c);
// models never hard-code a scaling rule, they take a TensorScaling per weight matrix from here.
#pragma once
#include <string>
#include <vector>

#include "engine/base/enum_names.hpp"

// normal and two_layer_gamma are not abc tables but the inits of the book's phenomena chapters (below).
enum class Preset { sp, sp_lr_over_n, ntp, mfp, mup, custom, normal, two_layer_gamma };
inline constexpr EnumName<Preset> kPresetNames[] = {
    {Preset::sp, "sp"},
    {Preset::sp_lr_over_n, "sp_lr_over_n"},
    {Preset::ntp, "ntp"},
    {Preset::mfp, "mfp"},
    {Preset::mup, "mup"},
    {Preset::custom, "custom"},
    {Preset::normal, "normal"},
    {Preset::two_layer_gamma, "two_layer_gamma"},
};
enum class UpdateRule { sgd, adam };  // Adam's step ignores the gradient's scale, so its c differs

struct Abc {
  double a = 0, b = 0, c = 0;
};

struct TensorScaling {
  double init_std = 0;       // std of the trained parameter w at init
  double multiplier = 1;     // forward multiplier n^-a
  double lr_multiplier = 1;  // the optimizer's learning rate is eta * lr_multiplier
};

inline const char* preset_name(Preset p) { return enum_name(kPresetNames, p); }

// Exponents of a preset for a net of `layers` weight matrices (L hidden layers + readout = L + 1).
std::vector<Abc> preset_exponents(Preset p, int layers, UpdateRule rule);

// The width n that layer l scales with: the input layer's fan-out, every other layer's fan-in.
// (All hidden widths equal n in the abc papers; this is the natural reading when they differ.)
int scaling_width(int layer, const std::vector<int>& dims);

// dims = {d_in, n_1, ..., n_L, d_out}. theta shifts every layer by the symmetry (a+θ, b−θ, c−2θ) for SGD, which
// leaves the training trajectory unchanged, and (a+θ, b−θ, c−θ) for Adam, which does so only up to ε: the exact
// rule also takes ε to n^-θ ε, and the optimizer's ε is one number for every tensor.
std::vector<TensorScaling> scale_layers(const std::vector<Abc>& abc, const std::vector<int>& dims,
                                        UpdateRule rule, double theta);

// The rule of each layer's bias (model.biases), one entry per weight matrix. A bias is an input weight with fan-in 1
// (Tensor Programs V, Table 3: "input weights & all biases"): it takes the input layer's (a, b, c), shifted by θ like
// every layer, with n = the bias's length (the layer's fan-out) and no 1/√d base since its fan-in is 1:
//   multiplier n^-a₁, learning-rate multiplier n^-c₁ (init std n^-b₁, unused: biases start at 0).
// μP: hidden biases get multiplier √n and SGD LR η (Adam: η n^-½), so the bias B = √n β moves by Θ(ηn) under SGD and
// Θ(η) under Adam, like the input weights. SP, NTP: multiplier 1 and LR η, PyTorch's nn.Linear bias. MFP: LR ηn, the
// mean-field neuron's own bias. The readout's bias has n = d_out, a constant: it is Θ(1) in every parametrization.
std::vector<TensorScaling> bias_scaling(const std::vector<Abc>& abc, const std::vector<int>& dims, UpdateRule rule,
                                        double theta);

// Inits of the book's phenomena chapters (book §1.6, chapter 7), which fix stds and leave learning rates alone.
// normal: every weight N(0, 1), multipliers and learning-rate multipliers 1 (with init_scale s: N(0, s²)).
std::vector<TensorScaling> normal_scaling(int layers);
// two_layer_gamma, the normalized two-layer model of the phase diagram: f = Σ_k a_k σ(w_kᵀx) (α = 1) with
// w_k ~ N(0, β₂² I), a_k ~ N(0, β₁²), β₁ = m^{−(γ+γ′)/2}, β₂ = m^{−(γ−γ′)/2}, m the width: κ = β₁β₂ = m^−γ,
// κ′ = β₁/β₂ = m^−γ′. Learning-rate multipliers 1 (plain GD on a and w).
std::vector<TensorScaling> gamma_scaling(double gamma, double gamma_prime, int width);

// Init scale: multiply the init std of every layer (all) or of the first layer only by `factor`, e.g. LeCun
// (preset sp) ×5 for the large-init frequency-principle runs.
enum class InitScaleLayers { all, first };
inline constexpr EnumName<InitScaleLayers> kInitScaleLayersNames[] = {
    {InitScaleLayers::all, "all"},
    {InitScaleLayers::first, "first"},
};
inline const char* init_scale_layers_name(InitScaleLayers w) { return enum_name(kInitScaleLayersNames, w); }
void apply_init_scale(std::vector<TensorScaling>& layers, double factor, InitScaleLayers which);

// The readout's init: drawn with the parametrization's std (random), or zero, as Tensor Programs V recommends for
// muTransfer (the `mup` package's MuReadout(readout_zero_init=True)): the output is 0 at init at every width, and the
// hidden layers still start random, so the first step moves the readout only and the second every layer.
enum class ReadoutInit { random, zero };
inline constexpr EnumName<ReadoutInit> kReadoutInitNames[] = {
    {ReadoutInit::random, "random"},
    {ReadoutInit::zero, "zero"},
};

enum class Regime { unstable, trivial, kernel, feature_learning };
const char* regime_name(Regime r);

struct Classification {
  Regime regime = Regime::unstable;
  double r = 0;        // Δx^L = Θ(n^-r)
  std::string reason;  // which inequalities of TP4 Thm 3.3 decide it, in words
};

// Classify an SGD abc-parametrization of an MLP with L = abc.size() - 1 hidden layers (TP4 Def 3.2, Thm 3.3).
// Per-layer c is first folded into (a, b) by the per-layer symmetry, so any per-layer choice is accepted.
Classification classify(const std::vector<Abc>& abc);
