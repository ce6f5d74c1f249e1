#include "web/draw/loglog_curve.hpp"

#include <cmath>
#include <map>

#include "engine/analysis/analysis.hpp"
#include "web/draw/i18n.hpp"

PlotCurve geometric_mean_by_size(const std::vector<std::pair<int, double>>& points) {
  std::map<int, std::pair<double, int>> log_sum;  // size → (Σ log y, count)
  for (const auto& [size, y] : points) {
    if (!(y > 0) || !std::isfinite(y)) continue;
    auto& acc = log_sum[size];
    acc.first += std::log(y);
    acc.second += 1;
  }
  PlotCurve c;
  for (const auto& [size, acc] : log_sum) {
    c.x.push_back(size);
    c.y.push_back(std::exp(acc.first / acc.second));
  }
  return c;
}

double fitted_slope(const std::vector<double>& x, const std::vector<double>& y) {
  return x.size() >= 2 ? loglog_slope(x, y) : NAN;
}

std::string slope_label(const std::string& name, const PlotCurve& c, const std::string& size) {
  const double slope = fitted_slope(c.x, c.y);
  if (std::isfinite(slope)) return trf("%s  slope %+.2f", name.c_str(), slope);
  if (c.x.empty()) return trf("%s  no slope: zero or not finite at every %s", name.c_str(), tr(size).c_str());
  return trf("%s  no slope: a positive value at one %s only", name.c_str(), tr(size).c_str());
}
