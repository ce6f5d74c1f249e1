#include "engine/transformer_spec.hpp"

#include <algorithm>

#include "engine/spec.hpp"

const char* model_kind_name(ModelKind k) { return k == ModelKind::transformer ? "transformer" : "mlp"; }

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

TransformerInit transformer_init(const TransformerSpec& t, const ParametrizationSpec& param, double gamma) {
  TransformerInit p;
  p.preset = param.preset;
  p.init_scale = param.init_scale;
  p.scheme = t.init;
  p.gamma = gamma;
  p.uniform = t.uniform;
  p.zero_readout = t.zero_readout;
  p.attention_scale = t.attention_scale;
  return p;
}

long transformer_parameter_count(const TransformerConfig& c) {
  const long D = c.d_model, W = long(c.heads) * c.head_dim(), F = c.d_ff;
  const long block = 4 * D + 3 * W * D + W * D + 2 * F * D + (c.attention_bias ? 3 * W + D : 0) +
                     (c.mlp_bias ? F + D : 0);
  return long(c.vocab + c.seq_len) * D + c.layers * block + (c.pre_ln ? 2 * D : 0) + long(c.outputs) * D +
         (c.output_bias ? c.outputs : 0);
}

double transformer_forward_flops(const TransformerConfig& c) {
  const double D = c.d_model, W = double(c.heads) * c.head_dim(), F = c.d_ff, T = c.seq_len;
  const double per_layer = 2 * T * (4 * W * D + 2 * F * D) + 2 * 2 * T * T * W;
  return c.layers * per_layer + 2 * D * c.outputs;
}

double transformer_activation_doubles(const TransformerConfig& c, int batch) {
  const double N = double(batch) * c.seq_len, D = c.d_model, W = double(c.heads) * c.head_dim(), F = c.d_ff;
  const double per_block = N * (5 * D + 4 * W + 2 * F + 4) + double(batch) * c.heads * c.seq_len * c.seq_len;
  const double scratch = N * (5 * std::max({D, W, F}) + 2 * F + 4 * W);
  return c.layers * per_block + N * D * (c.layers + 1) + scratch + double(batch) * (3 * D + c.outputs + 2);
}
