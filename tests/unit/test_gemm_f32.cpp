// The float32 GEMM (gemm_f32.hpp): bit-exact against the plain float32 loop it promises to equal, close to the
// double product, on sizes that leave partial register tiles and cross every cache block; and the spec's
// `precision` field end to end.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "engine/kernels/gemm_f32.hpp"
#include "engine/kernels/kernels.hpp"
#include "engine/run/runner.hpp"
#include "engine/spec/spec.hpp"
#include "tests/unit/random_matrix.hpp"

namespace {

// An operand as the contract reads it: float32, or zero where that is below 2^-63 in magnitude.
float operand(double x) { return std::fabs(float(x)) < 0x1p-63f ? 0.0f : float(x); }

// The contract of gemm_f32.hpp written as the plainest loop: one float sum per element in p order from 0.
// volatile keeps the compiler from fusing or reordering (the build has -ffp-contract=off anyway).
double reference_f32(const double* A, long ars, long acs, const double* B, long brs, long bcs, int i, int j, int k,
                     double alpha) {
  volatile float s = 0.0f;
  for (int p = 0; p < k; p++) {
    const volatile float prod = operand(A[i * ars + p * acs]) * operand(B[p * brs + j * bcs]);
    s = s + prod;
  }
  return alpha * double(s);
}

enum class Layout { nn, tn, nt };

struct Shape { int m, n, k; };

// Partial 4×8 tiles, k across the 256 block, m across the 128-row block, n across the 1024-column block, k = 0.
const Shape kShapes[] = {{1, 1, 1}, {3, 5, 7}, {4, 8, 16}, {13, 17, 300}, {130, 9, 260}, {5, 1030, 3},
                         {37, 29, 513}, {129, 33, 1}, {7, 6, 0}};

void check_layout(Layout layout) {
  GemmF32Workspace ws;
  for (const Shape& s : kShapes) {
    const int m = s.m, n = s.n, k = s.k;
    const std::vector<double> A = random_matrix(long(m) * k, 1), B = random_matrix(long(k) * n, 2);
    std::vector<double> C(size_t(m) * size_t(n), -7.0), C64(size_t(m) * size_t(n), -7.0);
    std::vector<double> scratch(size_t(k) * size_t(n));
    const double alpha = 0.37;
    long ars = k, acs = 1, brs = n, bcs = 1;  // nn
    if (layout == Layout::nn) {
      matmul_nn_f32(C.data(), A.data(), B.data(), m, n, k, alpha, ws);
      matmul_nn(C64.data(), A.data(), B.data(), m, n, k, alpha);
    } else if (layout == Layout::tn) {
      ars = 1, acs = m;
      matmul_tn_f32(C.data(), A.data(), B.data(), m, n, k, alpha, ws);
      matmul_tn(C64.data(), A.data(), B.data(), m, n, k, alpha);
    } else {
      brs = 1, bcs = k;
      matmul_nt_f32(C.data(), A.data(), B.data(), m, n, k, alpha, ws);
      matmul_nt(C64.data(), A.data(), B.data(), m, n, k, alpha, scratch.data());
    }
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++) {
        const double got = C[size_t(i) * size_t(n) + size_t(j)];
        // Bit-exact: the blocking and the SIMD lanes must not change the order of the float32 sum.
        ASSERT_EQ(got, reference_f32(A.data(), ars, acs, B.data(), brs, bcs, i, j, k, alpha))
            << "m=" << m << " n=" << n << " k=" << k << " at (" << i << ", " << j << ")";
        // Close to the double product: float32 rounding of inputs and k sums, relative to Σ|a||b| ≈ k for N(0,1).
        const double tol = 1e-6 * alpha * (k + 1) * 4;
        ASSERT_NEAR(got, C64[size_t(i) * size_t(n) + size_t(j)], tol) << "m=" << m << " n=" << n << " k=" << k;
      }
  }
}

TEST(GemmF32, NnMatchesFloatLoopAndDouble) { check_layout(Layout::nn); }
TEST(GemmF32, TnMatchesFloatLoopAndDouble) { check_layout(Layout::tn); }
TEST(GemmF32, NtMatchesFloatLoopAndDouble) { check_layout(Layout::nt); }

// Operands below 2^-63 are read as zeros, so no product is subnormal; those at 2^-63 and above are kept.
TEST(GemmF32, OperandsBelowTwoToTheMinus63AreZeros) {
  GemmF32Workspace ws;
  const double tiny = 0x1p-64, kept = 0x1p-63;
  const double A[2] = {tiny, kept}, B[2] = {1.0, kept};  // 1×2 times 2×1
  double C = -1;
  matmul_nn_f32(&C, A, B, 1, 1, 2, 1.0, ws);
  EXPECT_EQ(C, 0x1p-126);  // the tiny term is gone; 2^-63 · 2^-63 is float32's smallest normal, kept exactly
  const double tiny_only[1] = {-tiny}, one[1] = {1.0};  // alone in its sum
  matmul_nn_f32(&C, tiny_only, one, 1, 1, 1, 1.0, ws);
  EXPECT_EQ(C, 0.0);
  const std::vector<double> A2 = random_matrix(6 * 5, 5);
  std::vector<double> scaled(A2);
  for (double& x : scaled) x *= 0x1p-70;  // every operand below the threshold
  std::vector<double> out(6 * 6, -1.0);
  matmul_nt_f32(out.data(), scaled.data(), A2.data(), 6, 6, 5, 1.0, ws);
  for (double x : out) EXPECT_EQ(x, 0.0);
}

TEST(GemmF32, SgemmOnFloats) {
  GemmF32Workspace ws;
  const int m = 19, n = 23, k = 270;
  const std::vector<double> Ad = random_matrix(long(m) * k, 3), Bd = random_matrix(long(k) * n, 4);
  const std::vector<float> A(Ad.begin(), Ad.end()), B(Bd.begin(), Bd.end());
  std::vector<float> C(size_t(m) * size_t(n));
  sgemm(C.data(), A.data(), B.data(), m, n, k, ws);
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      ASSERT_EQ(double(C[size_t(i) * size_t(n) + size_t(j)]),
                reference_f32(Ad.data(), k, 1, Bd.data(), n, 1, i, j, k, 1.0));
}

TEST(GemmF32, WorkspaceReservedUpFrontIsEnough) {
  GemmF32Workspace ws;
  ws.reserve(64, 96, 300);
  const std::vector<double> A = random_matrix(64L * 300, 5), B = random_matrix(300L * 96, 6);
  std::vector<double> C(64 * 96);
  matmul_nn_f32(C.data(), A.data(), B.data(), 64, 96, 300, 1.0, ws);
  EXPECT_TRUE(std::isfinite(C[0]));
}

ExperimentSpec small_spec() {
  ExperimentSpec s;
  s.model.widths = {48, 48};
  s.optimizer.kind = OptimizerKind::adam;
  s.optimizer.lr = 0.01;
  s.schedule.steps = 60;
  s.schedule.batch_size = 32;
  s.sweep.seeds = {0};
  return s;
}

TEST(Precision, SpecFieldParsesAndStaysOutOfDefaultJson) {
  const std::string base = R"({"version": 1, "model": {"widths": [8]})";
  SpecResult r = parse_spec_text(base + "}");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.spec.precision, Precision::float64);
  EXPECT_EQ(spec_to_json(r.spec).find("precision"), nullptr);  // share links of float64 runs do not change

  r = parse_spec_text(base + R"(, "precision": "float32"})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.spec.precision, Precision::float32);
  const json::Value doc = spec_to_json(r.spec);  // find() points into it: keep it alive
  const json::Value* p = doc.find("precision");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->string, "float32");

  r = parse_spec_text(base + R"(, "precision": "half"})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors[0], "precision: \"half\" is not one of float64, float32");
}

// A float32 run follows the float64 run closely (same init, same batches) and trains just as well.
TEST(Precision, Float32RunTracksFloat64Run) {
  ExperimentSpec s64 = small_spec(), s32 = small_spec();
  s32.precision = Precision::float32;
  Runner r64(s64), r32(s32);
  while (r64.step()) {}
  while (r32.step()) {}
  const std::vector<double>& l64 = r64.members()[0]->find_series("train_loss")->values;
  const std::vector<double>& l32 = r32.members()[0]->find_series("train_loss")->values;
  ASSERT_EQ(l64.size(), l32.size());
  EXPECT_LT(l64.back(), 0.5 * l64.front());  // it trains
  for (size_t t = 0; t < l64.size(); t++) EXPECT_NEAR(l32[t], l64[t], 1e-3 * l64[t]) << "record " << t;
  EXPECT_NE(l32.back(), l64.back());  // and the float32 kernels really ran
}

}  // namespace
