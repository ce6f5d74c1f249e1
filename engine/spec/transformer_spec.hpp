// The Transformer's part of an ExperimentSpec (model.kind "transformer", model.transformer in JSON) and how it
// becomes a TransformerConfig and a TransformerInit for one sweep member.
#pragma once
#include "engine/base/enum_names.hpp"
#include "engine/kernels/activation.hpp"
#include "engine/model/transformer.hpp"
#include "engine/param/parametrization.hpp"
#include "engine/task/anchor_tasks.hpp"

// The book's masking experiment (chapter 12 §12.7): after training, cut one head's attention to one position of
// every test sequence and compare the answers (engine/analysis/attention_cut.hpp; `muplay attention-cut`).
// The anchor is a sequence's first token in 1..10 (keys are 20..100); the key is the position right after it.
enum class CutTarget { key, anchor };
inline constexpr EnumName<CutTarget> kCutTargetNames[] = {
    {CutTarget::key, "key"},
    {CutTarget::anchor, "anchor"},
};
inline const char* cut_target_name(CutTarget t) { return enum_name(kCutTargetNames, t); }

struct AttentionCut {
  int layer = 2;  // 1-based block, as the book counts layers
  int head = 0;   // 1-based head; 0: every head of the layer
  CutTarget target = CutTarget::key;
};

struct TransformerSpec {
  int layers = 2, d_model = 64, heads = 1, d_head = 0, d_ff = 256;  // d_head 0: d_model / heads
  Activation activation = Activation::relu;
  bool pre_ln = true;  // false: post-LN (the book's placement)
  bool attention_bias = false, mlp_bias = false, output_bias = true;
  InitScheme init = InitScheme::gamma;
  double gamma = 0.5;    // initialization rate (init "gamma")
  bool uniform = false;  // γ-init: U(±fan_in^-γ) instead of N(0, fan_in^-2γ)
  bool zero_readout = false;
  AttentionScale attention_scale = AttentionScale::by_preset;
  bool has_attention_cut = false;  // "attention_cut" given: an analysis after training, training is unchanged
  AttentionCut attention_cut;
};

// width > 0 replaces d_model (a width sweep).
TransformerConfig transformer_config(const TransformerSpec& t, const AnchorTaskConfig& task, int width);

