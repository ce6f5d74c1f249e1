// Experiment E10: the width-∞ curve of a two-hidden-layer μP network by DMFT (engine/analysis/dmft.hpp), and
// finite widths trained by the engine converging to it.
//
// Settings (fixed): the engine's `mup` preset, SGD full batch, the sin toy's first K = 4 points (d = 8, unit-norm
// inputs, task seed 0), η = 1, T = 20 steps. DMFT: 2^15 Monte Carlo draws per layer, 2^12 of them for the response
// functions, seed 0. Finite widths n = 64…4096 (×4), trained by the engine's Runner. Error of a width: the RMS
// over seeds of max over steps and points of |f_n − f_∞|.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "engine/analysis/analysis.hpp"
#include "engine/analysis/dmft.hpp"
#include "engine/run/runner.hpp"

namespace {

constexpr int kPoints = 4;

ExperimentSpec dmft_spec(Activation act, double lr, int steps, std::vector<int> widths, int seeds) {
  ExperimentSpec s;
  s.model.widths = {64, 64};
  s.model.activation = act;
  s.parametrization.preset = Preset::mup;
  s.task.input_dim = 8;
  s.task.train_size = kPoints;
  s.task.test_size = 1;
  s.optimizer.lr = lr;
  s.schedule.steps = steps;
  s.sweep.width = std::move(widths);
  s.sweep.seeds.clear();
  for (int i = 0; i < seeds; i++) s.sweep.seeds.push_back(uint64_t(i));
  return s;
}

DmftData as_data(const TaskData& t) { return {t.train.size, t.train.input_dim, t.train.x.data(), t.train.y.data()}; }

// f_t on the train points for t = 0…steps of every run: the engine's own forward pass on a copy of the model.
std::vector<std::vector<double>> engine_trajectories(Runner& runner, const TaskData& data, int steps) {
  std::vector<std::vector<double>> out(runner.members().size());
  const int K = data.train.size;
  auto snapshot = [&]() {
    for (size_t r = 0; r < runner.members().size(); r++) {
      Mlp m = *runner.members()[r]->mlp();
      const double* f = m.forward(data.train.x.data(), K);
      out[r].insert(out[r].end(), f, f + K);
    }
  };
  snapshot();
  for (int t = 0; t < steps; t++) {
    for (size_t r = 0; r < runner.members().size(); r++) runner.step();  // round robin: one step of every run
    snapshot();
  }
  return out;
}

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (size_t i = 0; i < a.size(); i++) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

DmftSolution dmft_of(const ExperimentSpec& s, const TaskData& data, int samples, int response_samples) {
  Runner runner(dmft_spec(s.model.activation, s.optimizer.lr, 0, {64}, 1));
  DmftNet net;
  std::string why;
  EXPECT_TRUE(dmft_form(*runner.members()[0]->mlp(), &net, &why)) << why;
  DmftSettings set;
  set.lr = s.optimizer.lr;
  set.steps = s.schedule.steps;
  set.samples = samples;
  set.response_samples = response_samples;
  return solve_dmft(net, as_data(data), set);
}

}  // namespace

TEST(Dmft, Calibrate) {
  const char* env = std::getenv("DMFT_CAL");
  if (!env) GTEST_SKIP();
  int steps = 20, samples = 1 << 14, resp = 1 << 12, seeds = 4, maxw = 4096;
  double lr = 1;
  int act = 1, minw = 64;
  std::sscanf(env, "%d,%lf,%d,%d,%d,%d,%d,%d", &steps, &lr, &samples, &resp, &seeds, &maxw, &act, &minw);
  std::vector<int> widths;
  for (int n = minw; n <= maxw; n *= 4) widths.push_back(n);
  const ExperimentSpec s = dmft_spec(Activation(act), lr, steps, widths, seeds);
  const TaskData data = make_task(s.task);
  const DmftSolution limit = dmft_of(s, data, samples, resp);
  std::printf("f_inf(T): %.4f %.4f %.4f %.4f  y %.4f %.4f %.4f %.4f\n", limit.f[size_t(steps * 4)],
              limit.f[size_t(steps * 4 + 1)], limit.f[size_t(steps * 4 + 2)], limit.f[size_t(steps * 4 + 3)],
              data.train.y[0], data.train.y[1], data.train.y[2], data.train.y[3]);
  Runner runner(s);
  const auto f = engine_trajectories(runner, data, steps);
  std::vector<double> xs, errors;
  for (size_t w = 0; w < widths.size(); w++) {
    double sum2 = 0;
    std::vector<double> mean(limit.f.size(), 0.0);
    for (int seed = 0; seed < seeds; seed++) {
      const double e = max_abs_diff(f[w * size_t(seeds) + size_t(seed)], limit.f);
      sum2 += e * e;
      for (size_t i = 0; i < mean.size(); i++) mean[i] += f[w * size_t(seeds) + size_t(seed)][i] / seeds;
    }
    xs.push_back(widths[w]);
    errors.push_back(std::sqrt(sum2 / seeds));
    std::printf("n=%-5d error %.3e   mean-over-seeds error %.3e  fT(seed0) %.4f\n", widths[w], errors.back(),
                max_abs_diff(mean, limit.f), f[w * size_t(seeds)][size_t(steps * 4)]);
  }
  std::printf("slope %+.3f\n", loglog_slope(xs, errors));
  for (size_t w = 0; w < widths.size(); w++) {
    std::printf("n=%d mean-minus-dmft, point 0 and 3, per step:\n", widths[w]);
    for (int t = 0; t <= steps; t++) {
      double m0 = 0, m3 = 0;
      for (int seed = 0; seed < seeds; seed++) {
        m0 += f[w * size_t(seeds) + size_t(seed)][size_t(t * 4)] / seeds;
        m3 += f[w * size_t(seeds) + size_t(seed)][size_t(t * 4 + 3)] / seeds;
      }
      std::printf(" t=%2d %+.4f %+.4f  (f_inf %.4f %.4f)\n", t, m0 - limit.f[size_t(t * 4)], m3 - limit.f[size_t(t * 4 + 3)],
                  limit.f[size_t(t * 4)], limit.f[size_t(t * 4 + 3)]);
    }
  }
}

TEST(Dmft, CalibrateNoise) {
  const char* env = std::getenv("DMFT_NOISE");
  if (!env) GTEST_SKIP();
  int steps = 20, samples = 1 << 14, resp = 1 << 12;
  double lr = 1;
  std::sscanf(env, "%d,%lf,%d,%d", &steps, &lr, &samples, &resp);
  const ExperimentSpec s = dmft_spec(Activation::tanh, lr, steps, {64}, 1);
  const TaskData data = make_task(s.task);
  Runner runner(s);
  DmftNet net;
  dmft_form(*runner.members()[0]->mlp(), &net, nullptr);
  DmftSettings set;
  set.lr = lr;
  set.steps = steps;
  set.samples = samples;
  set.response_samples = resp;
  std::vector<DmftSolution> sol;
  for (uint64_t seed = 0; seed < 3; seed++) {
    set.seed = seed;
    sol.push_back(solve_dmft(net, as_data(data), set));
  }
  std::printf("seed diffs %.3e %.3e %.3e\n", max_abs_diff(sol[0].f, sol[1].f), max_abs_diff(sol[0].f, sol[2].f),
              max_abs_diff(sol[1].f, sol[2].f));
  for (const auto& x : sol) std::printf("f1 %.5f %.5f\n", x.f[4], x.f[7]);
  for (int t = 0; t <= steps; t += 4)
    std::printf("t=%d f %.4f %.4f | %.4f %.4f\n", t, sol[0].f[size_t(t * 4)], sol[1].f[size_t(t * 4)],
                sol[0].f[size_t(t * 4 + 3)], sol[1].f[size_t(t * 4 + 3)]);
}

// Linear φ, one step from f₀ = 0: only the first-order terms survive at n = ∞ (the products of two updates
// vanish like n^-1/2), one per trained tensor: v's update gives η Σ_k Δ_k Φ², A's η Σ_k Δ_k G² Φ¹, U's
// η Σ_k Δ_k G¹ Kx, with Φ¹ = σ_U² Kx, Φ² = σ_A² σ_U² Kx, G² = σ_v², G¹ = σ_A² σ_v², and Δ_k = y_k / K. In the
// engine's μP (σ_U² = 1/d, σ_A = σ_v = 1): f₁(x_α) = η (1 + 2/d) Σ_k (y_k/K) x_α·x_k. U's term reaches f only
// through the Onsager response A(1, 0), so this checks it and each layer's learning-rate scaling.
TEST(Dmft, LinearFirstStepIsTheClosedForm) {
  const double lr = 0.5;
  const ExperimentSpec s = dmft_spec(Activation::linear, lr, 1, {64}, 1);
  const TaskData data = make_task(s.task);
  const DmftSolution limit = dmft_of(s, data, 1 << 16, 1 << 10);
  const int d = data.train.input_dim;
  for (int a = 0; a < kPoints; a++) {
    double expected = 0;
    for (int k = 0; k < kPoints; k++) {
      double dot = 0;
      for (int c = 0; c < d; c++) dot += data.train.x[a * d + c] * data.train.x[k * d + c];
      expected += lr * (1 + 2.0 / d) * data.train.y[k] / kPoints * dot;
    }
    std::printf("  point %d: f1 dmft %.5f closed form %.5f (f0 dmft %.1e)\n", a, limit.f[size_t(kPoints + a)], expected,
                limit.f[size_t(a)]);
    EXPECT_NEAR(limit.f[size_t(kPoints + a)], expected, 5e-3);
  }
}
