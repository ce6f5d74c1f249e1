#include "engine/spec/time_budget.hpp"

#include <algorithm>
#include <cstdio>

#include "engine/kernels/spectral.hpp"

namespace {

TimeBudget g_budget = kCommandLineTimeBudget;

bool wants(const ExperimentSpec& s, const char* metric) {
  return std::count(s.metrics.begin(), s.metrics.end(), metric) > 0;
}

constexpr double kProbeSize = 128;  // run.cpp's probe batch for the activation metrics (at most)

}  // namespace

void set_time_budget(const TimeBudget& budget) { g_budget = budget; }
const TimeBudget& time_budget() { return g_budget; }

namespace {

// A transformer member: forward + backward (3x the forward) of every batch, the optimizer, and per record the
// forward passes of its measurements (train subset, ID test, OOD test, twice the OOD set for commutativity).
double transformer_flops(const ExperimentSpec& s) {
  const std::vector<int> as_written{0};
  const std::vector<int>& widths = s.sweep.width.empty() ? as_written : s.sweep.width;
  const double members_per_width = double(std::max<size_t>(s.sweep.lr.size(), 1) * s.sweep.seeds.size() *
                                          std::max<size_t>(s.sweep.gamma.size(), 1) *
                                          std::max<size_t>(s.sweep.weight_decay.size(), 1));
  const double batch = s.schedule.batch_size == 0 ? s.task.train_size : s.schedule.batch_size;
  const double records = double(s.schedule.steps / s.schedule.record_every + 2);
  double sequences_per_record = std::min(1000, s.task.train_size);  // run.cpp kTransformerTrainEval
  if (wants(s, "test_loss") || wants(s, "id_accuracy") || wants(s, "plus_one_share")) sequences_per_record += s.task.test_size;
  if (wants(s, "ood_accuracy")) sequences_per_record += s.task.anchor.ood_test_size;
  if (wants(s, "commutativity")) sequences_per_record += 2.0 * s.task.anchor.ood_test_size;
  double flops = 0;
  for (int w : widths) {
    const TransformerConfig c = transformer_config(s.model.transformer, s.task.anchor, w);
    const double forward = transformer_forward_flops(c);
    const double per_step = 3 * forward * batch + 10 * double(transformer_parameter_count(c));
    flops += members_per_width * (s.schedule.steps * per_step + records * forward * sequences_per_record);
  }
  return flops;
}

}  // namespace

double estimate_flops(const ExperimentSpec& s) {
  if (s.model.kind == ModelKind::transformer) return transformer_flops(s);
  const std::vector<int> as_written{0};
  const std::vector<int>& widths = s.sweep.width.empty() ? as_written : s.sweep.width;
  const double members_per_width = double(std::max<size_t>(s.sweep.lr.size(), 1) * s.sweep.seeds.size());
  const bool full_batch = s.schedule.batch_size == 0 || s.schedule.batch_size >= s.task.train_size;
  const double batch = full_batch ? s.task.train_size : s.schedule.batch_size;
  const double steps = s.schedule.steps;
  const double records = double(s.schedule.steps / s.schedule.record_every + 2);
  // Examples a record evaluates beyond the step's own batch.
  double examples_per_record = full_batch ? 0 : s.task.train_size;
  if (wants(s, "test_loss") || wants(s, "test_accuracy")) examples_per_record += s.task.test_size;
  if (wants(s, "act_rms") || wants(s, "act_delta_rms")) examples_per_record += std::min<double>(kProbeSize, s.task.train_size);
  const double power_iterations = wants(s, "weight_delta_spectral") ? PowerIteration{}.max_iters : 0;
  double flops = 0;
  for (int w : widths) {
    const std::vector<int> dims = model_dims(s, w);
    double params = 0;
    for (size_t l = 1; l < dims.size(); l++) params += double(dims[l]) * dims[l - 1];
    const double per_step = 6 * params * batch + 10 * params;
    const double per_record = 2 * params * examples_per_record + 4 * params * power_iterations;
    flops += members_per_width * (steps * per_step + records * per_record);
  }
  return flops;
}

double assumed_flops_per_second(const ExperimentSpec& s, const TimeBudget& budget) {
  const bool float32 = s.precision == Precision::float32 && s.model.kind == ModelKind::mlp;
  return budget.flops_per_second * (float32 ? budget.float32_speedup : 1.0);
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

void check_time_budget(const ExperimentSpec& s, std::vector<std::string>& errors) {
  const TimeBudget& b = time_budget();
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
