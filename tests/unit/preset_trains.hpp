// Every preset trains: the check on a finished run of a preset (the full run of tests/unit/test_preset_quotes.cpp,
// or a shortened copy for the presets it quotes nothing from). The loss of every member that finishes falls; the
// coordinate checks and the E1 scans, which do not train on purpose, have checks of their own below.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "engine/analysis/lr_scan.hpp"
#include "engine/run/runner.hpp"

namespace preset_trains {

// The E1 presets (17-max-lr-*) run learning rates past the edge of stability on purpose, so many of their runs do
// not train. Their check instead: every width's η_max (max_lr_table) lies inside the sweep's lr grid, above its
// lowest value and below its highest by more than the scan's patience, so the grid neither cuts nor hides it.
inline void expect_max_lr_bracketed(const Runner& runner, const ExperimentSpec& spec, const std::string& path) {
  const std::vector<double>& lrs = spec.sweep.lr;
  const double highest_allowed = lrs[lrs.size() - 1 - kLrScanPatience];
  const MaxLrTable table = max_lr_table(runner);
  EXPECT_EQ(table.curves.size(), spec.sweep.width.size()) << path;
  for (const MaxLrCurve& curve : table.curves) {
    EXPECT_GT(curve.max_lr, lrs.front()) << path << " n=" << curve.width;
    EXPECT_LE(curve.max_lr, highest_allowed) << path << " n=" << curve.width;
  }
}

// The depth and Transformer coordinate checks (41-*, 46-*) take 5 small Adam steps to measure how far each layer
// moves, not to train: their loss has not fallen yet. Their check instead: every member finishes (none diverges).
// The width coordinate checks (10, 11: 10 SGD steps at lr 0.5) do lower the loss and keep the usual check.
inline bool is_coordinate_check(const ExperimentSpec& s) {
  const bool probes = std::count(s.metrics.begin(), s.metrics.end(), "act_delta_rms") > 0 ||
                      std::count(s.metrics.begin(), s.metrics.end(), "transformer_coords") > 0;
  return probes && s.schedule.steps <= 5;
}

inline void expect_all_finish(const Runner& runner, const std::string& path) {
  for (const auto& run : runner.members()) EXPECT_EQ(run->status(), RunStatus::finished) << path << " " << run->label();
}

// A member's label without its " lr=…" field: the net and seed it trains.
inline std::string without_lr(std::string label) {
  const size_t at = label.find(" lr=");
  if (at == std::string::npos) return label;
  const size_t end = label.find(' ', at + 1);
  return label.erase(at, end == std::string::npos ? std::string::npos : end - at);
}

// The steps a shortened copy of a preset needs before its loss has fallen: 60, or more where the loss sits on a
// plateau first. A Transformer at PyTorch-default init (the chapter-12 presets) drops within 100 steps; one at a
// small init (31-anchor-gamma-sweep's γ 0.8) plateaus longer; under a small MLP init (the condensation presets) the
// loss waits while the neurons align.
inline int steps_to_fall(const ExperimentSpec& s) {
  const bool small_init = s.parametrization.init_scale < 0.01;
  const bool transformer = s.model.kind == ModelKind::transformer;
  const bool default_init = transformer && s.model.transformer.init == InitScheme::pytorch;
  return default_init ? 100 : transformer ? 300 : small_init ? 1000 : 60;
}

// The check on a finished run of the preset `path`.
inline void expect_trains(const Runner& runner, const ExperimentSpec& spec, const std::string& path) {
  if (path.find("-max-lr-") != std::string::npos) return expect_max_lr_bracketed(runner, spec, path);
  if (is_coordinate_check(spec)) return expect_all_finish(runner, path);
  // A sweep over learning rates starts below the rates that train on purpose (the left arm of the loss-vs-lr
  // curve): there the member of each net and seed with the lowest final loss must train.
  std::map<std::string, double> best_fall;  // the net's label without its lr → the smallest last/first loss ratio
  for (const auto& run : runner.members()) {
    if (run->status() != RunStatus::finished) continue;
    const auto& loss = run->find_series("train_loss")->values;
    const std::string net = spec.sweep.lr.size() > 1 ? without_lr(run->label()) : run->label();
    const double fall = loss.back() / loss.front();
    best_fall[net] = best_fall.count(net) ? std::min(best_fall[net], fall) : fall;
  }
  EXPECT_GE(best_fall.size(), 1u) << path;
  for (const auto& [net, fall] : best_fall) EXPECT_LT(fall, 0.9) << path << " " << net;
}

}  // namespace preset_trains
