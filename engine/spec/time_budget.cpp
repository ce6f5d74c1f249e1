#include "engine/spec/time_budget.hpp"

#include <algorithm>
#include <cstdio>

#include "engine/spec/metric_table.hpp"

namespace {

constexpr double kTranscendentalFlops = 100;  // tanh, GELU, sigmoid, sin, ...: see activation_flops
// A step of the gradient-augmented loss against a plain step: the input derivative's forward and its second-order
// backward (engine/model/gradient_loss.hpp).
constexpr double kGradientLossStep = 3;

// FLOP-equivalents of one activation φ(z) and its φ'(z) per element: the time this engine's deterministic
// transcendentals (engine/base/detmath.hpp) take, in units of the GEMMs' throughput, calibrated with
// scripts/bench-estimates.mjs on the presets whose time is mostly activations.
double activation_flops(Activation a) {
  switch (a) {
    case Activation::relu:
    case Activation::linear: return 2;
    default: return kTranscendentalFlops;
  }
}

MemberSize member_size(const ExperimentSpec& s, const MemberCoords& c) {
  if (is_transformer(s.model.kind)) {
    const TransformerConfig t = transformer_config(s.model.transformer, s.task.anchor, c.width);
    return {double(transformer_parameter_count(t)), transformer_forward_flops(t)};
  }
  std::vector<int> dims = model_dims(s, c.width, c.depth);
  if (s.model.asi)  // two copies of the net side by side (MlpMember): hidden → hidden blocks hold zeros between them
    for (size_t l = 1; l + 1 < dims.size(); l++) dims[l] *= 2;
  double params = 0, units = 0;
  for (size_t l = 1; l < dims.size(); l++) {
    params += double(dims[l]) * dims[l - 1];
    if (l + 1 < dims.size()) units += dims[l];
  }
  return {params, 2 * params + activation_flops(s.model.activation) * units};
}

// One training step: forward and backward of the batch (3 forward passes' worth; the gradient-augmented loss
// kGradientLossStep times that), the optimizer's ~10 FLOPs per parameter; gd_auto also evaluates the train loss of each
// step it tries and re-estimates λ_max every 100 steps (at most 50 Hessian-vector products, counted as two gradients
// each).
double step_flops(const ExperimentSpec& s, const MemberSize& m) {
  const int train = train_rows(s.task);
  const double batch = s.schedule.batch_size == 0 ? train : std::min(s.schedule.batch_size, train);
  double flops = 3 * m.forward_flops * batch * (s.task.gradient_loss ? kGradientLossStep : 1) + 10 * m.params;
  if (s.optimizer.kind == OptimizerKind::gd_auto)
    flops += m.forward_flops * train * (1 + 2.0 * 3 * kGdAutoEstimateIters / kGdAutoEstimateEvery);
  return flops;
}

// One record: every metric the member records (the metric table's costs).
double record_flops(const ExperimentSpec& s, const MemberSize& m) {
  double flops = 0;
  for (const MetricDef& metric : metric_table())
    if (records_metric(s, metric)) flops += metric.record_flops(s, m);
  return flops;
}

}  // namespace

double estimate_flops(const ExperimentSpec& s) {
  const double records = double(s.schedule.steps / s.schedule.record_every + 2);
  double flops = 0;
  for (const MemberCoords& c : sweep_members(s)) {
    const MemberSize m = member_size(s, c);
    flops += s.schedule.steps * step_flops(s, m) + records * record_flops(s, m);
  }
  return flops;
}

double assumed_flops_per_second(const ExperimentSpec& s, const TimeBudget& budget) {
  if (s.precision != Precision::float32) return budget.flops_per_second;
  const bool transformer = is_transformer(s.model.kind);
  return budget.flops_per_second * (transformer ? budget.transformer_float32_speedup : budget.float32_speedup);
}

double estimate_seconds(const ExperimentSpec& s, const TimeBudget& budget) {
  return estimate_flops(s) / assumed_flops_per_second(s, budget);
}

std::string describe_duration(double seconds) {
  char buf[64];
  if (seconds >= 2 * 86400) std::snprintf(buf, sizeof buf, "%.2g days", seconds / 86400);
  else if (seconds >= 3600) std::snprintf(buf, sizeof buf, "%.2g h", seconds / 3600);
  else if (seconds >= 120) std::snprintf(buf, sizeof buf, "%.0f min", seconds / 60);
  else std::snprintf(buf, sizeof buf, "%.2g s", seconds);
  return buf;
}

void check_time_budget(const ExperimentSpec& s, const TimeBudget& b, std::vector<std::string>& errors) {
  const double flops = estimate_flops(s);
  const double rate = assumed_flops_per_second(s, b);
  const double seconds = flops / rate;
  if (seconds <= b.max_seconds) return;
  char buf[160];
  std::snprintf(buf, sizeof buf, "%.3g GFLOP, at an assumed %.3g GFLOP/s%s", flops / 1e9, rate / 1e9,
                rate != b.flops_per_second ? " in float32" : "");
  errors.push_back("sweep: would train for about " + describe_duration(seconds) + " (" + buf + "), more than the limit of " +
                   describe_duration(b.max_seconds) + " " + b.where +
                   ": use fewer steps or sweep members, or smaller widths, batch or data");
}
