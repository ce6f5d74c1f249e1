#include "engine/param/depth_rule.hpp"

#include <cmath>

DepthExponents depth_exponents(DepthRule rule, UpdateRule update, DepthExponents custom) {
  const bool sgd = update == UpdateRule::sgd;
  switch (rule) {
    case DepthRule::standard: return {0, 0};
    case DepthRule::depth_mup: return {0.5, sgd ? 0.0 : 0.5};
    case DepthRule::completep: return {1, sgd ? -1.0 : 0.0};
    case DepthRule::custom: return custom;
  }
  return {};
}

void apply_depth_rule(std::vector<TensorScaling>& layers, int depth, int block_layers, DepthExponents e) {
  const double L = depth;
  for (int l = 1; l <= depth * block_layers && l < int(layers.size()); l++) {
    if (l % block_layers == 0) layers[size_t(l)].multiplier *= std::pow(L, -e.alpha);
    layers[size_t(l)].lr_multiplier *= std::pow(L, -e.gamma);
  }
}
