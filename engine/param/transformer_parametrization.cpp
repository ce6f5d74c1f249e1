#include "engine/param/transformer_parametrization.hpp"

#include <cmath>

TensorInit transformer_tensor_init(const TransformerInit& p, TensorRole role, int fan_in) {
  TensorInit t;
  if (role == TensorRole::norm_gain) {
    t.constant = 1;
    return t;
  }
  if (role == TensorRole::bias) return t;
  if (role == TensorRole::readout && p.zero_readout) return t;
  const bool embedding = role == TensorRole::token_embedding || role == TensorRole::position_embedding;
  const double n = fan_in;
  if (p.preset == Preset::mup) {
    t.scale = embedding ? 1.0 : (role == TensorRole::readout ? 1.0 / n : 1.0 / std::sqrt(n));
    t.lr_multiplier = embedding ? 1.0 : 1.0 / n;
  } else if (p.scheme == InitScheme::gamma) {
    t.scale = std::pow(n, -p.gamma);
    t.uniform = p.uniform;
  } else {
    t.scale = embedding ? 1.0 : 1.0 / std::sqrt(n);
    t.uniform = !embedding;
  }
  t.scale *= p.init_scale;
  return t;
}

double transformer_attention_scale(const TransformerInit& p, int d_head) {
  const bool linear = p.attention_scale == AttentionScale::linear ||
                      (p.attention_scale == AttentionScale::by_preset && p.preset == Preset::mup);
  return linear ? 1.0 / d_head : 1.0 / std::sqrt(double(d_head));
}
