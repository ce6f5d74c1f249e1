#include "engine/spec/member_model.hpp"

#include <algorithm>
#include <cmath>

#include "engine/metrics/probes.hpp"
#include "engine/spec/metric_table.hpp"

int mlp_rows(const ExperimentSpec& s) {
  const int train = train_rows(s.task);
  const bool whole = s.schedule.batch_size == 0 || records_any(s, &MetricDef::whole_train_set) ||
                     s.optimizer.kind == OptimizerKind::gd_auto;
  return std::max(whole ? train : s.schedule.batch_size, std::min(train, kProbeRows));
}

MlpConfig mlp_config(const ExperimentSpec& s, const MemberCoords& c) {
  std::vector<int> dims = model_dims(s, c.width, c.depth);
  std::vector<TensorScaling> scaling = spec_scaling(s, dims, c.phase);
  std::vector<TensorScaling> biases = spec_bias_scaling(s, dims);
  if (s.model.asi) {
    // two copies of the net of `dims`, each scaled as that net, side by side; the output is (√2/2)(h − h′)
    for (size_t l = 1; l + 1 < dims.size(); l++) dims[l] *= 2;
    scaling.back().multiplier *= std::sqrt(0.5);
  }
  MlpConfig config(dims, s.model.activation, scaling, mlp_rows(s), biases);
  config.activation_param = s.model.activation_param;
  config.precision = arithmetic_precision(s);
  config.antisymmetric = s.model.asi;
  config.residual = has_residual_blocks(s.model.kind);
  config.block = {s.model.block_depth, s.model.block_norm};
  config.dropout = s.model.dropout;
  return config;
}
