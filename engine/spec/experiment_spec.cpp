#include "engine/spec/experiment_spec.hpp"

#include <algorithm>
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
  if (has_residual_blocks(s.model.kind))
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
  else if (!has_residual_blocks(s.model.kind))
    out = scale_layers(spec_exponents(s), dims, update_rule(s.optimizer.kind), p.theta);
  else {  // the width rule for this depth's number of layers, then the depth rule on the blocks
    const UpdateRule rule = update_rule(s.optimizer.kind);
    out = scale_layers(preset_exponents(p.preset, int(dims.size()) - 1, rule), dims, rule, p.theta);
    const int k = s.model.block_depth;
    const DepthExponents e = depth_exponents(p.depth_rule, rule, {p.depth_alpha, p.depth_gamma});
    apply_depth_rule(out, residual_depth(dims, k), k, e);
  }
  apply_init_scale(out, p.init_scale, p.init_scale_layers);
  if (p.readout_init == ReadoutInit::zero) out.back().init_std = 0;
  return out;
}

std::vector<TensorScaling> spec_bias_scaling(const ExperimentSpec& s, const std::vector<int>& dims) {
  if (!s.model.biases) return {};
  const Preset p = s.parametrization.preset;
  if (p == Preset::normal || p == Preset::two_layer_gamma) return std::vector<TensorScaling>(dims.size() - 1);
  return bias_scaling(spec_exponents(s), dims, update_rule(s.optimizer.kind), s.parametrization.theta);
}

int member_depth(const ExperimentSpec& s, const MemberCoords& c) {
  if (!has_residual_blocks(s.model.kind)) return 0;
  return c.depth > 0 ? c.depth : s.model.depth;
}

