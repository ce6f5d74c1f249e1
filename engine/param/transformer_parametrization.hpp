// How a Transformer's tensors are initialized, multiplied and trained: the small object the model asks
// (the book's initialization rate γ of chapter 13, or μP), so the model never hard-codes a scaling rule.
//
//   SP, init "pytorch": as torch's defaults: Linear weights U(±fan_in^-1/2), embeddings N(0, 1).
//   SP, init "gamma":   the initialization rate γ of chapter 13: every weight ~ N(0, fan_in^-2γ) (or U(±fan_in^-γ)),
//                       larger γ = smaller init. Embeddings take the vocabulary size as fan-in, token and position
//                       embeddings alike (the sequence length as the positions' fan-in changes the chapter-13
//                       outcome).
//   muP (Adam, Tensor Programs V table 3 with base width 1): embeddings N(0, 1) at learning rate η; hidden matrices
//                       N(0, 1/fan_in) at η/fan_in; the readout N(0, 1/fan_in²) at η/fan_in; attention 1/d_head.
// Always: LayerNorm gain 1 and bias 0, every other bias 0 (our choice: the book does not say), at learning rate η.
// init_scale (parametrization.init_scale) multiplies every random tensor's scale under any of the three.
#pragma once
#include "engine/base/enum_names.hpp"
#include "engine/param/parametrization.hpp"

enum class TensorRole { token_embedding, position_embedding, hidden, readout, norm_gain, bias };
enum class InitScheme { pytorch, gamma };
inline constexpr EnumName<InitScheme> kInitSchemeNames[] = {
    {InitScheme::pytorch, "pytorch"},
    {InitScheme::gamma, "gamma"},
};
inline const char* init_scheme_name(InitScheme s) { return enum_name(kInitSchemeNames, s); }
enum class AttentionScale { by_preset, sqrt, linear };  // by_preset: 1/d_head under muP, else 1/sqrt(d_head)
inline constexpr EnumName<AttentionScale> kAttentionScaleNames[] = {
    {AttentionScale::by_preset, "by_preset"},
    {AttentionScale::sqrt, "sqrt"},
    {AttentionScale::linear, "linear"},
};
inline const char* attention_scale_name(AttentionScale s) { return enum_name(kAttentionScaleNames, s); }

struct TransformerInit {
  Preset preset = Preset::sp;  // sp or mup
  InitScheme scheme = InitScheme::pytorch;
  double gamma = 0.5;
  bool uniform = false;       // γ-init: U(±fan_in^-γ) instead of N(0, fan_in^-2γ)
  bool zero_readout = false;  // readout weights start at 0
  double init_scale = 1;      // multiplies the std (or half-width) of every random tensor
  AttentionScale attention_scale = AttentionScale::by_preset;
};

// One tensor's rule: values ~ N(0, scale²) or U(±scale); a scale of 0 fills with `constant`.
struct TensorInit {
  double scale = 0;
  bool uniform = false;
  double constant = 0;
  double multiplier = 1;     // forward multiplier
  double lr_multiplier = 1;  // learning rate η · lr_multiplier
};

// fan_in: the matrix's input width; for embeddings, the vocabulary size.
TensorInit transformer_tensor_init(const TransformerInit& p, TensorRole role, int fan_in);
double transformer_attention_scale(const TransformerInit& p, int d_head);
