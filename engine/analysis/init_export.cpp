#include "engine/analysis/init_export.hpp"

#include <cmath>
#include <string>

#include "engine/model/layernorm.hpp"

namespace {

using json::Value;

Value numbers(const double* x, long count) {
  Value a = Value::make_array();
  a.array.reserve(size_t(count));
  for (long i = 0; i < count; i++) a.push(Value::make_number(x[i]));
  return a;
}

// A dataset as {"size", "input_dim", "outputs", "x": flat row-major, "y" or "labels"}.
Value dataset(const Dataset& d, bool classification) {
  Value o = Value::make_object();
  o.set("size", Value::make_number(d.size));
  o.set("input_dim", Value::make_number(d.input_dim));
  o.set("outputs", Value::make_number(d.outputs));
  o.set("x", numbers(d.x.data(), long(d.x.size())));
  if (!classification) {
    o.set("y", numbers(d.y.data(), long(d.y.size())));
  } else {
    Value labels = Value::make_array();
    for (int k : d.labels) labels.push(Value::make_number(k));
    o.set("labels", labels);
  }
  return o;
}

Value ints(const std::vector<int>& xs) {
  Value a = Value::make_array();
  for (int x : xs) a.push(Value::make_number(x));
  return a;
}

// A transformer's tensors in buffer order: name, shape, role, rules and the values at init.
Value transformer_member(const Transformer& m) {
  Value o = Value::make_object();
  o.set("attention_scale", Value::make_number(m.attention_scale()));
  Value tensors = Value::make_array();
  for (const TransformerTensor& t : m.tensors()) {
    Value v = Value::make_object();
    v.set("name", Value::make_string(t.name));
    v.set("rows", Value::make_number(t.rows));
    v.set("cols", Value::make_number(t.cols));
    v.set("multiplier", Value::make_number(t.init.multiplier));
    v.set("lr_multiplier", Value::make_number(t.init.lr_multiplier));
    v.set("decay", Value::make_bool(t.is_matrix()));
    v.set("w", numbers(m.params().data() + t.offset, t.size()));
    tensors.push(v);
  }
  o.set("tensors", tensors);
  return o;
}

Value anchor_set(const AnchorSet& s) {
  Value o = Value::make_object();
  o.set("size", Value::make_number(s.size));
  o.set("seq_len", Value::make_number(s.seq_len));
  o.set("tokens", ints(s.tokens));
  o.set("labels", ints(s.labels));
  if (!s.swapped.empty()) o.set("swapped", ints(s.swapped));  // an OOD set's sequences with the anchor pair swapped
  return o;
}

// A residual net's depth rule as it applies to one member: L blocks of k weights, exponents α, γ.
struct ResidualFactors {
  int L = 0, k = 1;
  DepthExponents e;
  double branch() const { return std::pow(double(L), -e.alpha); }  // L^-α, on each block's last weight
  double lr() const { return std::pow(double(L), -e.gamma); }      // L^-γ, on every block weight
  bool block(int l) const { return l >= 1 && l <= L * k; }
};

ResidualFactors depth_factors(const ExperimentSpec& s, const Mlp& m) {
  const ParametrizationSpec& p = s.parametrization;
  const int k = s.model.block_depth;
  return {residual_depth(m.dims(), k), k,
          depth_exponents(p.depth_rule, update_rule(s.optimizer.kind), {p.depth_alpha, p.depth_gamma})};
}

Value residual_description(const ExperimentSpec& s, const ResidualFactors& d) {
  Value o = Value::make_object();
  o.set("depth", Value::make_number(d.L));
  o.set("block_depth", Value::make_number(d.k));
  o.set("block_norm", Value::make_bool(s.model.block_norm));
  o.set("norm_eps", Value::make_number(kLayerNormEps));
  o.set("depth_rule", Value::make_string(depth_rule_name(s.parametrization.depth_rule)));
  o.set("alpha", Value::make_number(d.e.alpha));
  o.set("gamma", Value::make_number(d.e.gamma));
  o.set("branch_multiplier", Value::make_number(d.branch()));
  o.set("block_lr_multiplier", Value::make_number(d.lr()));
  Value blocks = Value::make_array();
  for (int b = 0; b < d.L; b++) {
    Value names = Value::make_array();
    for (int j = 1; j <= d.k; j++) names.push(Value::make_string("W" + std::to_string(b * d.k + j + 1)));
    blocks.push(names);
  }
  o.set("blocks", blocks);
  return o;
}

Value member(const Member& run, const ExperimentSpec& s) {
  Value o = Value::make_object();
  if (const AnchorTrainer* t = run.transformer()) {
    o.set("gamma", Value::make_number(run.coords().gamma));
    o.set("weight_decay", Value::make_number(run.coords().weight_decay));
    o.set("transformer", transformer_member(t->model()));
  }
  o.set("width", Value::make_number(run.width()));
  o.set("lr", Value::make_number(run.coords().lr));
  o.set("seed", Value::make_number(double(run.coords().seed)));
  if (!run.mlp()) return o;
  const Mlp& m = *run.mlp();
  o.set("activation", Value::make_string(activation_name(m.activation())));
  Value dims = Value::make_array();
  for (int d : m.dims()) dims.push(Value::make_number(d));
  o.set("dims", dims);
  const bool residual = has_residual_blocks(s.model.kind);
  const ResidualFactors depth = residual ? depth_factors(s, m) : ResidualFactors{};
  if (residual) o.set("residual", residual_description(s, depth));
  Value layers = Value::make_array();
  for (int l = 0; l < m.layers(); l++) {
    const TensorScaling& t = m.scaling()[size_t(l)];
    Value layer = Value::make_object();
    layer.set("name", Value::make_string("W" + std::to_string(l + 1)));
    layer.set("rows", Value::make_number(m.dims()[size_t(l) + 1]));
    layer.set("cols", Value::make_number(m.dims()[size_t(l)]));
    layer.set("init_std", Value::make_number(t.init_std));
    layer.set("multiplier", Value::make_number(t.multiplier));
    layer.set("lr_multiplier", Value::make_number(t.lr_multiplier));
    if (residual) {
      layer.set("depth_multiplier", Value::make_number(depth.block(l) && l % depth.k == 0 ? depth.branch() : 1));
      layer.set("depth_lr_multiplier", Value::make_number(depth.block(l) ? depth.lr() : 1));
    }
    layer.set("w", numbers(m.weights(l), m.layer_size(l)));
    layers.push(layer);
  }
  o.set("layers", layers);
  if (!m.has_biases()) return o;
  Value biases = Value::make_array();
  for (int l = 0; l < m.layers(); l++) {
    const TensorScaling& t = m.bias_scaling()[size_t(l)];
    Value bias = Value::make_object();
    bias.set("name", Value::make_string("b" + std::to_string(l + 1)));
    bias.set("length", Value::make_number(m.dims()[size_t(l) + 1]));
    bias.set("multiplier", Value::make_number(t.multiplier));
    bias.set("lr_multiplier", Value::make_number(t.lr_multiplier));
    bias.set("decay", Value::make_bool(false));
    bias.set("w", numbers(m.bias(l), m.dims()[size_t(l) + 1]));
    biases.push(bias);
  }
  o.set("biases", biases);
  return o;
}

}  // namespace

json::Value init_document(const Runner& runner) {
  const TaskData& data = runner.data();  // with the input bias column, as the members train on it
  Value root = Value::make_object();
  root.set("schema", Value::make_string("muplay-init"));
  root.set("version", Value::make_number(kInitExportVersion));
  root.set("spec", spec_to_json_every_field(runner.spec()));
  root.set("train", dataset(data.train, data.classification));
  root.set("test", dataset(data.test, data.classification));
  if (runner.spec().task.kind == TaskKind::anchor) {
    Value anchor = Value::make_object();
    anchor.set("train", anchor_set(data.anchor.train));
    anchor.set("test", anchor_set(data.anchor.test));
    anchor.set("ood", anchor_set(data.anchor.ood));
    root.set("anchor", anchor);
  }
  Value members = Value::make_array();
  for (const auto& run : runner.members()) members.push(member(*run, runner.spec()));
  root.set("members", members);
  return root;
}
