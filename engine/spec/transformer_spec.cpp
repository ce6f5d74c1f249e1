#include "engine/spec/transformer_spec.hpp"

#include <algorithm>
#include <cmath>

TransformerConfig transformer_config(const TransformerSpec& t, const AnchorTaskConfig& task, int width) {
  TransformerConfig c;
  c.vocab = c.outputs = task.vocab;
  c.seq_len = task.seq_len;
  c.layers = t.layers;
  c.d_model = width > 0 ? width : t.d_model;
  c.heads = t.heads;
  c.d_head = t.d_head;
  // A width sweep widens every hidden layer: d_ff keeps its ratio to d_model (d_ff 256 at d_model 64: 4·d_model).
  c.d_ff = width > 0 ? int(std::max(1L, std::lround(double(t.d_ff) * width / t.d_model))) : t.d_ff;
  c.activation = t.activation;
  c.pre_ln = t.pre_ln;
  c.attention_bias = t.attention_bias;
  c.mlp_bias = t.mlp_bias;
  c.output_bias = t.output_bias;
  return c;
}
