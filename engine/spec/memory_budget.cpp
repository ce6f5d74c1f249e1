#include "engine/spec/memory_budget.hpp"

#include <algorithm>
#include <array>

#include "engine/kernels/gemm_f32.hpp"
#include "engine/model/transformer.hpp"
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

// The float32 products' packing buffers of one member (a float32 Mlp reserves these shapes at its first pass).
double float32_workspace_bytes(const std::vector<int>& dims, int batch) {
  std::vector<std::array<int, 3>> shapes;
  for (size_t l = 1; l < dims.size(); l++)
    for (std::array<int, 3> shape : {std::array<int, 3>{batch, dims[l], dims[l - 1]}, {dims[l], dims[l - 1], batch},
                                     {batch, dims[l - 1], dims[l]}})
      shapes.push_back(shape);
  return gemm_f32_workspace_bytes(shapes);
}

}  // namespace

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
    // weights, grads, two optimizer moments (and the init weights for a metric that keeps them); forward/backward
    // buffers; init activations of the probe set; series
    const bool init_copy = records_any(s, &MetricDef::needs_initial_params);
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
