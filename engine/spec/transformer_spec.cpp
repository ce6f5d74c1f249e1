#include "engine/spec/transformer_spec.hpp"

TransformerConfig transformer_config(const TransformerSpec& t, const AnchorTaskConfig& task, int width) {
  TransformerConfig c;
  c.vocab = c.outputs = task.vocab;
  c.seq_len = task.seq_len;
  c.layers = t.layers;
  c.d_model = width > 0 ? width : t.d_model;
  c.heads = t.heads;
  c.d_head = t.d_head;
  c.d_ff = t.d_ff;
  c.activation = t.activation;
  c.pre_ln = t.pre_ln;
  c.attention_bias = t.attention_bias;
  c.mlp_bias = t.mlp_bias;
  c.output_bias = t.output_bias;
  return c;
}
