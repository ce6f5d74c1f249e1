#include "engine/analysis/lr_scan.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

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

bool UpwardScan::add(const LrTrial& t) {
  failures_in_a_row = t.passed ? 0 : failures_in_a_row + 1;
  if (t.passed) max_lr = t.lr;
  return failures_in_a_row < patience;
}

LrTrial judge_run(const Member& run, double lr) {
  const std::vector<double>& loss = run.find_series("train_loss")->values;
  LrTrial t;
  t.lr = lr;
  t.steps = run.steps_done();
  t.initial_loss = loss.empty() ? NAN : loss.front();  // empty: the loss at init was not finite
  t.final_loss = run.status() == RunStatus::finished ? loss.back() : NAN;
  if (run.status() != RunStatus::finished) t.why = "diverged";
  else if (!(t.final_loss < t.initial_loss)) t.why = "loss did not fall";
  else if (!run.find_series("act_rms/f")) t.why = "act_rms not recorded: the output's size is unknown";
  else if (run.find_series("act_rms/f")->values.back() == 0) t.why = "output is zero";
  else {
    t.passed = true;
    t.why = "passed";
  }
  return t;
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
  return judge_run(*runner.members()[0], lr);
}

}  // namespace

LrScan max_stable_lr(const ExperimentSpec& spec, int width, uint64_t seed, const std::vector<double>& grid,
                     int patience) {
  LrScan scan;
  UpwardScan upward{patience};
  for (double lr : grid) {
    scan.trials.push_back(trial(spec, width, seed, lr));
    if (!upward.add(scan.trials.back())) break;
  }
  scan.max_lr = upward.max_lr;
  return scan;
}

namespace {

// η_max of one (width, seed): its runs judged in ascending lr with the upward scan's rule. Adds each finite run's
// L_T / L_0 to `ratios` (by lr).
double scan_member_runs(std::vector<const Member*> runs, std::map<double, std::vector<double>>& ratios) {
  std::sort(runs.begin(), runs.end(), [](const Member* a, const Member* b) { return a->coords().lr < b->coords().lr; });
  UpwardScan upward;
  for (const Member* run : runs) {
    const LrTrial t = judge_run(*run, run->coords().lr);
    if (std::isfinite(t.final_loss)) ratios[t.lr].push_back(t.final_loss / t.initial_loss);
    if (!upward.add(t)) break;
  }
  return upward.max_lr;
}

}  // namespace

MaxLrTable max_lr_table(const Runner& runner) {
  std::map<int, std::map<uint64_t, std::vector<const Member*>>> by_width;  // width → seed → its runs
  for (const auto& m : runner.members()) by_width[m->coords().width][m->coords().seed].push_back(m.get());
  MaxLrTable table;
  std::map<uint64_t, std::vector<double>> widths_of_seed, max_lr_of_seed;
  for (const auto& [width, seeds] : by_width) {
    MaxLrCurve curve;
    curve.width = width;
    std::map<double, std::vector<double>> ratios;  // lr → L_T / L_0 of each seed whose run stayed finite
    double mean_log2 = 0;  // stays finite only if every seed has an η_max
    for (const auto& [seed, runs] : seeds) {
      const double max_lr = scan_member_runs(runs, ratios);
      mean_log2 += (max_lr > 0 ? std::log2(max_lr) : -INFINITY) / double(seeds.size());
      widths_of_seed[seed].push_back(width);
      max_lr_of_seed[seed].push_back(max_lr);
    }
    curve.max_lr = std::exp2(mean_log2);  // 0 when a seed has none
    for (const auto& [lr, values] : ratios) {
      if (lr > curve.max_lr * (1 + 1e-12)) break;
      curve.lrs.push_back(lr);
      curve.loss_ratio.push_back(std::accumulate(values.begin(), values.end(), 0.0) / double(values.size()));
    }
    table.curves.push_back(curve);
  }
  for (const auto& [seed, widths] : widths_of_seed) table.slopes.push_back(loglog_slope(widths, max_lr_of_seed[seed]));
  table.slope = mean_sem(table.slopes);
  return table;
}
