#include "engine/spec/experiment_spec.hpp"

#include <algorithm>
#include <array>
#include <cmath>

Precision arithmetic_precision(const ExperimentSpec& s) {
  return s.backend == Backend::webgpu ? Precision::float32 : s.precision;
}

size_t sweep_size(const ExperimentSpec& s) {
  const SweepSpec& w = s.sweep;
  return std::max<size_t>(w.width.size(), 1) * std::max<size_t>(w.lr.size(), 1) * w.seeds.size() *
         std::max<size_t>(w.gamma.size(), 1) * std::max<size_t>(w.weight_decay.size(), 1) *
         std::max<size_t>(w.phase_points.size(), 1) * std::max<size_t>(w.depth.size(), 1);
}

std::vector<MemberCoords> sweep_members(const ExperimentSpec& s) {
  // An empty axis is the spec's own value.
  const SweepSpec& w = s.sweep;
  const std::vector<int> widths = w.width.empty() ? std::vector<int>{0} : w.width;
  const std::vector<int> depths = w.depth.empty() ? std::vector<int>{0} : w.depth;
  const std::vector<double> lrs = w.lr.empty() ? std::vector<double>{s.optimizer.lr} : w.lr;
  const std::vector<double> decays = w.weight_decay.empty() ? std::vector<double>{s.optimizer.weight_decay}
                                                            : w.weight_decay;
  const std::vector<double> gammas = w.gamma.empty() ? std::vector<double>{s.model.transformer.gamma} : w.gamma;
  const std::vector<PhasePoint> phases =
      w.phase_points.empty() ? std::vector<PhasePoint>{{s.parametrization.gamma, s.parametrization.gamma_prime}}
                             : w.phase_points;
  std::vector<MemberCoords> out;
  out.reserve(sweep_size(s));
  for (int width : widths)
    for (int depth : depths)
      for (double lr : lrs)
        for (double decay : decays)
          for (double gamma : gammas)
            for (const PhasePoint& phase : phases)
              for (uint64_t seed : w.seeds) out.push_back(MemberCoords{width, lr, seed, gamma, decay, phase, depth});
  return out;
}

UpdateRule update_rule(OptimizerKind k) {
  return k == OptimizerKind::sgd || k == OptimizerKind::gd_auto ? UpdateRule::sgd : UpdateRule::adam;
}

std::vector<int> model_dims(const ExperimentSpec& s, int width, int depth) {
  std::vector<int> dims{s.task.input_dim + (s.model.input_bias ? 1 : 0)};
  if (s.model.kind == ModelKind::residual_mlp)
    dims.insert(dims.end(), size_t((depth > 0 ? depth : s.model.depth) * s.model.block_depth) + 1,
                width > 0 ? width : s.model.widths[0]);
  else
    for (int w : s.model.widths) dims.push_back(width > 0 ? width : w);
  dims.push_back(task_outputs(s.task));
  return dims;
}

std::vector<Abc> spec_exponents(const ExperimentSpec& s) {
  if (s.parametrization.preset == Preset::custom) return s.parametrization.custom;
  return preset_exponents(s.parametrization.preset, int(s.model.widths.size()) + 1, update_rule(s.optimizer.kind));
}

// A transformer member: weights, grads, two Adam moments, activations for its batch (or evaluation chunk),
// series; the token data once.
double estimate_transformer_memory_bytes(const ExperimentSpec& s) {
  // The model's buffers hold a mini-batch or an evaluation chunk of 128 sequences (AnchorTrainer), whichever is larger.
  const int batch = std::max(s.schedule.batch_size == 0 ? s.task.train_size : s.schedule.batch_size, 128);
  double bytes = 0;
  for (const MemberCoords& m : sweep_members(s)) {
    const TransformerConfig c = transformer_config(s.model.transformer, s.task.anchor, m.width);
    const double records = double(s.schedule.steps / s.schedule.record_every + 2) * 8;
    double member = 8 * (4.0 * double(transformer_parameter_count(c)) + transformer_activation_doubles(c, batch) +
                         records) +
                    4.0 * (3 * double(s.task.anchor.ood_test_size) + s.task.train_size);  // prediction scratch
    if (s.precision == Precision::float32) member += gemm_f32_workspace_bytes(transformer_f32_shapes(c, batch));
    bytes += member;
  }
  const double sequences = double(s.task.train_size) + s.task.test_size + 2.0 * s.task.anchor.ood_test_size;
  return bytes + 4.0 * sequences * (s.task.anchor.seq_len + 1) * 3;  // ints, and the generator's sets of seen rows
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

std::vector<TensorScaling> spec_scaling(const ExperimentSpec& s, const std::vector<int>& dims, PhasePoint phase) {
  const ParametrizationSpec& p = s.parametrization;
  std::vector<TensorScaling> out;
  if (p.preset == Preset::normal) out = normal_scaling(int(dims.size()) - 1);
  else if (p.preset == Preset::two_layer_gamma) out = gamma_scaling(phase.gamma, phase.gamma_prime, dims[1]);
  else if (s.model.kind != ModelKind::residual_mlp)
    out = scale_layers(spec_exponents(s), dims, update_rule(s.optimizer.kind), p.theta);
  else {  // the width rule for this depth's number of layers, then the depth rule on the blocks
    const UpdateRule rule = update_rule(s.optimizer.kind);
    out = scale_layers(preset_exponents(p.preset, int(dims.size()) - 1, rule), dims, rule, p.theta);
    const int k = s.model.block_depth;
    const DepthExponents e = depth_exponents(p.depth_rule, rule, {p.depth_alpha, p.depth_gamma});
    apply_depth_rule(out, residual_depth(dims, k), k, e);
  }
  apply_init_scale(out, p.init_scale, p.init_scale_layers);
  return out;
}

std::vector<TensorScaling> spec_bias_scaling(const ExperimentSpec& s, const std::vector<int>& dims) {
  if (!s.model.biases) return {};
  const Preset p = s.parametrization.preset;
  if (p == Preset::normal || p == Preset::two_layer_gamma) return std::vector<TensorScaling>(dims.size() - 1);
  return bias_scaling(spec_exponents(s), dims, update_rule(s.optimizer.kind), s.parametrization.theta);
}

namespace {

// The float32 products' packing buffers of one member (Mlp::set_precision reserves these shapes).
double float32_workspace_bytes(const std::vector<int>& dims, int batch) {
  std::vector<std::array<int, 3>> shapes;
  for (size_t l = 1; l < dims.size(); l++)
    for (std::array<int, 3> shape : {std::array<int, 3>{batch, dims[l], dims[l - 1]}, {dims[l], dims[l - 1], batch},
                                     {batch, dims[l - 1], dims[l]}})
      shapes.push_back(shape);
  return gemm_f32_workspace_bytes(shapes);
}

}  // namespace

int member_depth(const ExperimentSpec& s, const MemberCoords& c) {
  if (s.model.kind != ModelKind::residual_mlp) return 0;
  return c.depth > 0 ? c.depth : s.model.depth;
}

double estimate_memory_bytes(const ExperimentSpec& s) {
  if (s.model.kind == ModelKind::transformer) return estimate_transformer_memory_bytes(s);
  const int batch = s.schedule.batch_size == 0 ? s.task.train_size : s.schedule.batch_size;
  double bytes = 0;
  for (const MemberCoords& m : sweep_members(s)) {
    const std::vector<int> dims = model_dims(s, m.width, m.depth);
    double params = 0, units = 0;
    for (size_t l = 1; l < dims.size(); l++) {
      params += double(dims[l]) * (dims[l - 1] + (s.model.biases ? 1 : 0));
      units += dims[l];
    }
    const double records = double(s.schedule.steps / s.schedule.record_every + 2) * (2.0 * dims.size() + 4);
    // weights, grads, two optimizer moments (and the init weights for weight_delta_spectral); forward/backward
    // buffers; init activations of the probe set; series
    const bool init_copy = std::count(s.metrics.begin(), s.metrics.end(), "weight_delta_spectral") > 0;
    if (s.model.asi) {  // two copies side by side; hidden → hidden matrices hold the zero blocks between them
      params *= 4;
      units *= 2;
    }
    double member = 8 * ((init_copy ? 5 : 4) * params + 4.0 * batch * units + 256.0 * units + records);
    if (s.model.kind == ModelKind::residual_mlp && s.model.block_norm)  // LN(h) of each block's input stream
      member += 8.0 * batch * dims[1] * residual_depth(dims, s.model.block_depth);
    if (s.precision == Precision::float32) member += float32_workspace_bytes(dims, batch);
    bytes += member;
  }
  bytes += 8.0 * (s.task.train_size + s.task.test_size) * (s.task.input_dim + 2);
  return bytes;
}
