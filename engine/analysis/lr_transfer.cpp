#include "engine/analysis/lr_transfer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The final value of `series` of a run, +inf when it diverged (a diverged run is worse than any finite loss).
double final_value(const Member& run, const std::string& series) {
  const Series* s = run.find_series(series);
  if (run.status() != RunStatus::finished || !s || s->values.empty()) return kInf;
  return std::isfinite(s->values.back()) ? s->values.back() : kInf;
}

// The spec's one net at one learning rate: a curve of one point (the loss's mean over seeds).
LrCurve mean_over_seeds_at(const ExperimentSpec& spec, const std::string& fashion_mnist_dir, double lr) {
  ExperimentSpec s = spec;
  s.sweep.lr = {lr};
  if (std::find(s.metrics.begin(), s.metrics.end(), "batch_loss_mean") == s.metrics.end())
    s.metrics.push_back("batch_loss_mean");
  Runner runner(s, fashion_mnist_dir);
  while (runner.step()) {}
  return lr_curves(runner).at(0);
}

}  // namespace

bool parabola_vertex(const double x[3], const double y[3], double& vx, double& vy) {
  // Newton's divided differences: y = y0 + d1 (x − x0) + d2 (x − x0)(x − x1).
  const double d01 = (y[1] - y[0]) / (x[1] - x[0]), d12 = (y[2] - y[1]) / (x[2] - x[1]);
  const double d2 = (d12 - d01) / (x[2] - x[0]);
  if (!(d2 > 0)) return false;
  vx = 0.5 * (x[0] + x[1]) - d01 / (2 * d2);
  vy = y[0] + d01 * (vx - x[0]) + d2 * (vx - x[0]) * (vx - x[1]);
  return true;
}

void fit_best_lr(LrCurve& c) {
  const int count = int(c.losses.size());
  c.grid_min = int(std::min_element(c.losses.begin(), c.losses.end()) - c.losses.begin());
  c.best_lr = c.lrs[size_t(c.grid_min)];
  c.best_loss = c.losses[size_t(c.grid_min)];
  c.bracketed = false;
  if (c.grid_min == 0 || c.grid_min == count - 1) return;
  const size_t i = size_t(c.grid_min);
  const double x[3] = {std::log2(c.lrs[i - 1]), std::log2(c.lrs[i]), std::log2(c.lrs[i + 1])};
  const double y[3] = {c.losses[i - 1], c.losses[i], c.losses[i + 1]};
  if (!std::isfinite(y[0]) || !std::isfinite(y[2])) return;  // a neighbour diverged: η* is at the edge
  double vx = 0, vy = 0;
  if (!parabola_vertex(x, y, vx, vy)) return;  // flat: keep the grid minimum
  c.best_lr = std::exp2(vx);
  c.best_loss = vy;
  c.bracketed = true;
}

std::vector<LrCurve> lr_curves(const Runner& runner, const std::string& series) {
  std::vector<LrPoint> points;
  for (const auto& run : runner.members())
    points.push_back(
        {run->width(), run->coords().lr, final_value(*run, series), member_depth(runner.spec(), run->coords())});
  return lr_curves(points);
}

std::vector<LrCurve> lr_curves(const std::vector<LrPoint>& points) {
  // (width, depth) -> lr -> sum over seeds and count
  std::map<std::pair<int, int>, std::map<double, std::pair<double, int>>> sums;
  for (const LrPoint& p : points) {
    auto& cell = sums[{p.width, p.depth}][p.lr];
    cell.first += p.value;
    cell.second++;
  }
  std::vector<LrCurve> curves;
  for (const auto& [net, by_lr] : sums) {
    LrCurve c;
    c.width = net.first;
    c.depth = net.second;
    for (const auto& [lr, cell] : by_lr) {
      c.lrs.push_back(lr);
      c.losses.push_back(cell.first / cell.second);
    }
    fit_best_lr(c);
    curves.push_back(c);
  }
  return curves;
}

LrCurve bracket_best_lr(const ExperimentSpec& spec, const std::string& fashion_mnist_dir, double start,
                        int max_points) {
  std::map<int, double> loss;  // half-octave index k -> loss at start·2^(k/2)
  LrCurve c;                   // its width and depth, from the first point
  auto lr_at = [&](int k) { return start * std::exp2(0.5 * k); };
  auto evaluate = [&](int k) {
    if (loss.count(k) || int(loss.size()) >= max_points) return;
    const LrCurve point = mean_over_seeds_at(spec, fashion_mnist_dir, lr_at(k));
    loss[k] = point.losses[0];
    c.width = point.width;
    c.depth = point.depth;
  };
  for (int k : {-1, 0, 1}) evaluate(k);
  for (;;) {
    const int best = std::min_element(loss.begin(), loss.end(), [](const auto& a, const auto& b) {
                       return a.second < b.second;
                     })->first;
    if ((loss.count(best - 1) && loss.count(best + 1)) || int(loss.size()) >= max_points) break;
    evaluate(best - 1);
    evaluate(best + 1);
  }
  for (const auto& [k, value] : loss) {
    c.lrs.push_back(lr_at(k));
    c.losses.push_back(value);
  }
  fit_best_lr(c);
  return c;
}
