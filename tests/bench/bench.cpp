// Benchmarks of the engine's compute (not tests: they print numbers, they assert nothing). One source for both
// sides: natively `bench_native` prints JSON (scripts/bench runs it); compiled to wasm its bench_* functions are
// called by tests/bench/bench_page.js in Chromium, beside TensorFlow.js.
//
//   GEMM   C = A·B, square f32: the engine's own packed SIMD kernel (gemm_f32.hpp), Eigen 3.4 (MatrixXf), and the
//          engine's float64 reference kernel (kernels.hpp) for scale.
//   MLP    784-512-512-10, ReLU, batch 128, Adam, softmax cross-entropy: the engine's Mlp + Optimizer, one
//          training step = forward + loss + backward + Adam, in float64 and in float32 mode.
//   Preset a spec file run to the end through the Runner, as the page and the CLI do.
//
// Timing is wall clock, best of several repetitions: on a shared machine the minimum is the run least disturbed
// by other processes. Natively the thread's CPU time is reported as well (immune to preemption).
#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "engine/analysis/gd_trace.hpp"
#include "engine/kernels/gemm_f32.hpp"
#include "engine/kernels/kernels.hpp"
#include "engine/model/loss.hpp"
#include "engine/model/mlp.hpp"
#include "engine/model/optimizer.hpp"
#include "engine/run/runner.hpp"
#include "engine/spec/presets.hpp"
#include "engine/spec/spec_migrations.hpp"
#include "engine/task/fashion_mnist.hpp"

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define BENCH_EXPORT extern "C" EMSCRIPTEN_KEEPALIVE
#else
#define BENCH_EXPORT extern "C"
#endif

namespace {

double wall_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double cpu_now() {
#ifdef __EMSCRIPTEN__
  return wall_now();  // no thread CPU clock in a browser
#else
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
#endif
}

double g_last_cpu_seconds = 0;  // CPU time of the best repetition of the last timed call

// Best over `rounds` of the mean wall time of `inner` calls of f in a row (and the CPU time of that same round in
// g_last_cpu_seconds). Rounds of several calls: a browser's clock ticks in 0.1 ms steps unless the page is
// cross-origin isolated, longer than a 64³ product takes.
template <class F>
double best_of(int rounds, int inner, F f) {
  double best = 1e30;
  for (int r = 0; r < rounds; r++) {
    const double c0 = cpu_now(), t0 = wall_now();
    for (int i = 0; i < inner; i++) f();
    const double t = (wall_now() - t0) / inner, c = (cpu_now() - c0) / inner;
    if (t < best) best = t;
    if (r == 0 || c < g_last_cpu_seconds) g_last_cpu_seconds = c;
  }
  return best;
}

enum GemmImpl { kOwnF32 = 0, kEigenF32 = 1, kEngineF64 = 2 };

struct GemmCase {
  int n = 0;
  std::vector<float> a, b, c;
  std::vector<double> ad, bd, cd;
  GemmF32Workspace ws;
  void resize(int size) {
    if (n == size) return;
    n = size;
    const size_t count = size_t(n) * size_t(n);
    a.resize(count), b.resize(count), c.resize(count), ad.resize(count), bd.resize(count), cd.resize(count);
    for (size_t i = 0; i < count; i++) {  // small integers times 1/8: exact in float, no denormals, no overflow
      a[i] = float(int(i * 7 % 13) - 6) * 0.125f;
      b[i] = float(int(i * 5 % 11) - 5) * 0.125f;
      ad[i] = a[i], bd[i] = b[i];
    }
    ws.reserve(n, n, n);
  }
};
GemmCase g_gemm;

void run_gemm(int impl) {
  GemmCase& g = g_gemm;
  const int n = g.n;
  if (impl == kOwnF32) {
    sgemm(g.c.data(), g.a.data(), g.b.data(), n, n, n, g.ws);
  } else if (impl == kEigenF32) {
    using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    Eigen::Map<const Mat> A(g.a.data(), n, n), B(g.b.data(), n, n);
    Eigen::Map<Mat> C(g.c.data(), n, n);
    C.noalias() = A * B;
  } else {
    matmul_nn(g.cd.data(), g.ad.data(), g.bd.data(), n, n, n, 1.0);
  }
}

// The MLP workload of the benchmark, built once per precision.
struct MlpCase {
  static constexpr int kBatch = 128;
  Mlp mlp;
  Optimizer opt;
  std::vector<double> x, dout;
  std::vector<int> labels;
  static Mlp make(Precision p) {
    const std::vector<int> dims{784, 512, 512, 10};
    MlpConfig c(dims, Activation::relu,
                scale_layers(preset_exponents(Preset::sp, 3, UpdateRule::adam), dims, UpdateRule::adam, 0), kBatch);
    c.precision = p;
    return Mlp(std::move(c));
  }
  explicit MlpCase(Precision p)
      : mlp(make(p)), opt(OptimizerConfig{OptimizerKind::adam, 1e-3}, layer_slices(mlp), long(mlp.params().size())) {
    Rng rng = Rng::stream(1, 0);
    mlp.init(rng);
    x.resize(size_t(kBatch) * 784);
    for (double& v : x) v = rng.normal();
    labels.resize(kBatch);
    for (int& l : labels) l = int(rng.below(10));
    dout.resize(size_t(kBatch) * 10);
  }
  double step() {
    const double* f = mlp.forward(x.data(), kBatch);
    const double loss = cross_entropy_loss(f, labels.data(), kBatch, 10, dout.data(), nullptr);
    mlp.backward(dout.data(), kBatch);
    opt.step(mlp.params().data(), mlp.grads().data());
    return loss;
  }
};

}  // namespace

// Seconds of one n×n×n product: best over `rounds` of the mean of `inner` calls (after one warm-up call).
BENCH_EXPORT double bench_gemm_seconds(int impl, int n, int inner, int rounds) {
  g_gemm.resize(n);
  run_gemm(impl);
  return best_of(rounds, inner, [&] { run_gemm(impl); });
}
BENCH_EXPORT double bench_last_cpu_seconds() { return g_last_cpu_seconds; }

// Training steps per second of the MLP workload over `steps` steps, each timed alone (after one warm-up step):
// 1 / the fastest step (the step least disturbed by other processes). precision: 0 float64, 1 float32.
// bench_mlp_sustained: steps / total time of the same steps; bench_mlp_last_loss: the last loss (a sanity check).
static double g_mlp_loss = 0, g_mlp_sustained = 0;
BENCH_EXPORT double bench_mlp_steps_per_second(int precision, int steps) {
  MlpCase c(precision == 1 ? Precision::float32 : Precision::float64);
  c.step();
  const double t0 = wall_now();
  const double best = best_of(steps, 1, [&] { g_mlp_loss = c.step(); });
  g_mlp_sustained = steps / (wall_now() - t0);
  return 1 / best;
}
BENCH_EXPORT double bench_mlp_sustained() { return g_mlp_sustained; }
BENCH_EXPORT double bench_mlp_last_loss() { return g_mlp_loss; }

// Runs a preset file to the end, with Fashion-MNIST from `data_dir`; returns wall seconds (negative when the spec is
// invalid). precision: -1 as the file says, 0 float64, 1 float32.
BENCH_EXPORT double bench_preset_seconds(const char* path, const char* data_dir, int precision) {
  std::string text;
  if (!read_text_file(path, text)) return -1;
  SpecLimits limits;
  limits.fashion_mnist_dir = data_dir;
  SpecResult r = read_spec_text(text, limits);
  if (!r.ok()) return -2;
  if (precision >= 0) r.spec.precision = precision == 1 ? Precision::float32 : Precision::float64;
  const double t0 = wall_now();
  Runner runner(r.spec, limits.fashion_mnist_dir);
  while (runner.step()) {}
  return wall_now() - t0;
}

BENCH_EXPORT const char* bench_kernel_name() { return gemm_f32_kernel_name(); }

#ifndef __EMSCRIPTEN__
// Native: GEMM sizes and the MLP workload as one JSON object on stdout (presets: scripts/bench runs the CLI).
int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  std::printf("{\"kernel\": \"%s\", \"gemm\": [", bench_kernel_name());
  const char* names[] = {"own_f32", "eigen_f32", "engine_f64"};
  bool first = true;
  for (int n : {64, 128, 256, 512, 1024}) {
    for (int impl : {kOwnF32, kEigenF32, kEngineF64}) {
      if (impl == kEngineF64 && n > 512) continue;  // several times slower than f32: 1024 would take seconds per call
      const double flop = 2.0 * n * n * n;
      const int inner = std::max(1, int(4e7 / flop)), rounds = quick ? 3 : std::max(5, int(2e9 / (flop * inner)));
      const double wall = bench_gemm_seconds(impl, n, inner, rounds);
      const double cpu = bench_last_cpu_seconds();
      std::printf("%s\n  {\"impl\": \"%s\", \"n\": %d, \"gflops\": %.2f, \"gflops_cpu\": %.2f}", first ? "" : ",",
                  names[impl], n, flop / wall / 1e9, flop / cpu / 1e9);
      first = false;
    }
  }
  std::printf("],\n \"mlp\": [");
  for (int p : {0, 1}) {
    const double sps = bench_mlp_steps_per_second(p, quick ? 3 : 20);
    const double cpu_sps = 1 / bench_last_cpu_seconds();
    std::printf("%s\n  {\"precision\": \"%s\", \"steps_per_s\": %.2f, \"steps_per_s_cpu\": %.2f, \"steps_per_s_sustained\": %.2f, "
                "\"loss\": %.4f}", p ? "," : "", p ? "float32" : "float64", sps, cpu_sps, bench_mlp_sustained(),
                bench_mlp_last_loss());
  }
  std::printf("]}\n");
  return 0;
}
#endif
