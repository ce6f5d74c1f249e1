#include "engine/analysis/lr_scan.hpp"

#include <cmath>

#include "engine/run/runner.hpp"

std::vector<double> log2_grid(double lo, double hi, int per_octave) {
  std::vector<double> grid;
  // Each value from its index (not by repeated multiplication), so the grid has no drift.
  for (int k = 0;; k++) {
    const double lr = lo * std::exp2(double(k) / per_octave);
    if (lr > hi * (1 + 1e-12)) break;
    grid.push_back(lr);
  }
  return grid;
}

namespace {

LrTrial trial(const ExperimentSpec& spec, int width, uint64_t seed, double lr) {
  ExperimentSpec s = spec;
  s.sweep.width = {width};
  s.sweep.lr = {lr};
  s.sweep.seeds = {seed};
  s.schedule.record_every = s.schedule.steps;  // records L_0 and L_T only
  s.schedule.divergence_loss = 1e300;
  s.metrics = {"train_loss", "act_rms"};
  Runner runner(s);
  while (runner.step()) {}
  const Member& run = *runner.members()[0];
  const std::vector<double>& loss = run.find_series("train_loss")->values;
  LrTrial t;
  t.lr = lr;
  t.steps = run.steps_done();
  t.initial_loss = loss.empty() ? NAN : loss.front();  // empty: the loss at init was not finite
  t.final_loss = run.status() == RunStatus::finished ? loss.back() : NAN;
  if (run.status() != RunStatus::finished) t.why = "diverged";
  else if (!(t.final_loss < t.initial_loss)) t.why = "loss did not fall";
  else if (run.find_series("act_rms/f")->values.back() == 0) t.why = "output is zero";
  else {
    t.passed = true;
    t.why = "passed";
  }
  return t;
}

}  // namespace

LrScan max_stable_lr(const ExperimentSpec& spec, int width, uint64_t seed, const std::vector<double>& grid,
                     int patience) {
  LrScan scan;
  int failures_in_a_row = 0;
  for (double lr : grid) {
    scan.trials.push_back(trial(spec, width, seed, lr));
    failures_in_a_row = scan.trials.back().passed ? 0 : failures_in_a_row + 1;
    if (scan.trials.back().passed) scan.max_lr = lr;
    if (failures_in_a_row >= patience) break;
  }
  return scan;
}
