#include "engine/analysis/analysis.hpp"

#include <cmath>
#include <limits>

double loglog_slope(const std::vector<double>& xs, const std::vector<double>& ys) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (xs.size() != ys.size() || xs.size() < 2) return nan;
  const size_t count = xs.size();
  double mx = 0, my = 0;
  for (size_t i = 0; i < count; i++) {
    if (!(xs[i] > 0) || !(ys[i] > 0) || !std::isfinite(ys[i])) return nan;
    mx += std::log(xs[i]);
    my += std::log(ys[i]);
  }
  mx /= double(count);
  my /= double(count);
  double sxy = 0, sxx = 0;
  for (size_t i = 0; i < count; i++) {
    const double dx = std::log(xs[i]) - mx;
    sxy += dx * (std::log(ys[i]) - my);
    sxx += dx * dx;
  }
  return sxx > 0 ? sxy / sxx : nan;
}

MeanSem mean_sem(const std::vector<double>& values) {
  MeanSem out;
  if (values.empty()) return out;
  for (double v : values) out.mean += v;
  out.mean /= double(values.size());
  if (values.size() < 2) return out;
  double ss = 0;
  for (double v : values) ss += (v - out.mean) * (v - out.mean);
  out.sem = std::sqrt(ss / double(values.size() - 1) / double(values.size()));
  return out;
}

std::vector<double> slopes_per_seed(const Runner& runner, const std::string& name, int record) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> slopes;
  for (uint64_t seed : runner.spec().sweep.seeds) {
    std::vector<double> widths, values;
    for (const auto& run : runner.members()) {
      if (run->coords().seed != seed) continue;
      const Series* s = run->find_series(name);
      widths.push_back(run->width());
      values.push_back(s && record < int(s->values.size()) ? s->values[size_t(record)] : nan);
    }
    slopes.push_back(loglog_slope(widths, values));
  }
  return slopes;
}
