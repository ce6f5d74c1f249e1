// The time budget: how long a whole sweep would train, checked before it starts (next to the memory budget of
// spec.hpp), so a spec that would run for hours gets a message with the estimate and the limit instead of a tab
// that never finishes.
//
// The estimate counts floating-point operations (a multiply and an add are two) of the whole sweep and divides by a
// stated throughput. It is an order of magnitude, not a promise: the throughputs are set a little below what
// scripts/bench-estimates.mjs measures on a 2-core development machine, and a student's laptop may be several times
// faster or slower.
#pragma once
#include <string>
#include <vector>

#include "engine/spec/experiment_spec.hpp"

struct TimeBudget {
  double flops_per_second;  // the throughput assumed for the estimate
  double max_seconds;       // a sweep estimated to take longer is refused
  const char* where;        // named in the message: "in the browser", "on the command line"
  // How much faster an MLP with "precision": "float32" trains (its products run on engine/gemm_f32): the low end
  // of the presets' speed-ups in scripts/bench's preset table, so that a float32 estimate errs long rather than short.
  double float32_speedup = 1;
  // The same for a Transformer: only its linears run in float32 (attention over the T positions, LayerNorm and the
  // optimizer stay double), so it gains less: the low end of the anchor presets' float32 speed-ups.
  double transformer_float32_speedup = 1;
};

// The command line's budget (the default): a day at the native float64 engine's throughput on one core (a little
// below what scripts/bench-estimates.mjs measures on the GEMM-bound presets). A longer sweep is better split into
// several runs of muplay.
constexpr TimeBudget kCommandLineTimeBudget{8.0e9, 24 * 3600.0, "on the command line", 1.5, 1.3};
// The page passes its own budget (web/app/page_limits.hpp).

// Floating-point operations of the whole sweep, member by member: per training step 3 forward passes of the batch
// (an MLP's forward is 2·P per example, its backward 4·P for the input and weight gradients) plus the optimizer's
// ~10·P (gd_auto: plus its loss evaluations and λ_max estimates), and per recorded step what each recorded metric
// costs (the metric table's record_flops: the train or test passes, the probe batch, power iterations, ...).
// P: the member's weights.
double estimate_flops(const ExperimentSpec& s);
// The throughput a spec trains at under `budget`: flops_per_second, times float32_speedup for a float32 MLP and
// transformer_float32_speedup for a float32 Transformer.
double assumed_flops_per_second(const ExperimentSpec& s, const TimeBudget& budget);
double estimate_seconds(const ExperimentSpec& s, const TimeBudget& budget);

// Appends "sweep: would train for about ... more than the limit of ..." when the estimate exceeds `budget`.
void check_time_budget(const ExperimentSpec& s, const TimeBudget& budget, std::vector<std::string>& errors);

// "3.2 h", "14 min", "40 s", "2.5 days": a duration in the unit a person would use.
std::string describe_duration(double seconds);
