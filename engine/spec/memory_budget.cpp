#include "engine/spec/memory_budget.hpp"

#include <algorithm>

#include "engine/kernels/gemm_f32.hpp"
#include "engine/model/transformer.hpp"
#include "engine/spec/member_model.hpp"
#include "engine/spec/metric_table.hpp"

namespace {

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

}  // namespace

double estimate_memory_bytes(const ExperimentSpec& s) {
  if (is_transformer(s.model.kind)) return estimate_transformer_memory_bytes(s);
  const double init_copies = records_any(s, &MetricDef::needs_initial_params) ? 1 : 0;
  double bytes = 0;
  for (const MemberCoords& m : sweep_members(s)) {
    const MlpConfig model = mlp_config(s, m);
    const MlpSizes sizes = mlp_sizes(model);
    double units = 0;
    for (size_t l = 1; l < model.dims.size(); l++) units += model.dims[l];
    const double records = double(s.schedule.steps / s.schedule.record_every + 2) * (2.0 * model.dims.size() + 4);
    // The model's buffers; the optimizer's moments (two at most) and the weights at init for a metric that keeps
    // them; the probe set's activations at init (256 rows of every layer); the series.
    bytes += sizes.bytes() + 8 * ((2 + init_copies) * double(sizes.params) + 256.0 * units + records);
  }
  bytes += 8.0 * (s.task.train_size + s.task.test_size) * (s.task.input_dim + 2);
  return bytes;
}
