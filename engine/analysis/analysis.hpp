// Summaries of a finished sweep for width-scaling plots and checks:
// a power law y ∝ n^s is a straight line of slope s on log-log axes, so every scaling exponent is a fitted slope.
#pragma once
#include <string>
#include <vector>

#include "engine/run/runner.hpp"

// Least-squares slope of log y against log x. The base of the logarithm cancels, so this is also the slope of
// log₂ y against log₂ x. Needs at least two distinct x; every x and y must be > 0 (else NaN).
double loglog_slope(const std::vector<double>& xs, const std::vector<double>& ys);

struct MeanSem {
  double mean = 0, sem = 0;  // mean and its standard error (0 for a single value)
};
MeanSem mean_sem(const std::vector<double>& values);

// Per seed of the sweep (which must have a single learning rate), the log-log slope against width of series `name`
// at record `record` (one value per width, in sweep order). Members are matched by their coordinates; one that lacks
// the record (it diverged before it) gives NaN for its seed. Averaging these per-seed slopes equals fitting the mean
// of log y.
std::vector<double> slopes_per_seed(const Runner& runner, const std::string& name, int record);
