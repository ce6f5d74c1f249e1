// The float64 products (kernels.hpp): bit-exact against the plain loop they promise to equal (one sum per element,
// p = 0, 1, ..., k-1 from 0, then scaled by alpha), whatever tile the processor gets (4×4 on 2-lane vectors, or
// natively with AVX 8×4 on 4-lane vectors), on sizes that leave partial row tiles of both, partial column panels,
// and k across the 256-row packing block.
#include <gtest/gtest.h>

#include <vector>

#include "engine/kernels/kernels.hpp"
#include "tests/unit/random_matrix.hpp"

namespace {

// volatile keeps the compiler from reordering or vectorizing the sum (the build has -ffp-contract=off anyway).
double reference(const double* A, long ars, long acs, const double* B, long brs, long bcs, int i, int j, int k,
                 double alpha) {
  volatile double s = 0.0;
  for (int p = 0; p < k; p++) {
    const volatile double product = A[i * ars + p * acs] * B[p * brs + j * bcs];
    s = s + product;
  }
  return alpha == 1.0 ? double(s) : double(s) * alpha;
}

enum class Layout { nn, tn, nt };
struct Shape { int m, n, k; };
const Shape kShapes[] = {{1, 1, 1}, {3, 5, 7}, {8, 4, 16}, {13, 17, 300}, {17, 9, 257}, {4, 6, 0}, {33, 64, 32}};

void check(Layout layout, double alpha) {
  for (const Shape& s : kShapes) {
    const int m = s.m, n = s.n, k = s.k;
    const std::vector<double> A = random_matrix(long(m) * k, 3), B = random_matrix(long(k) * n, 4);
    std::vector<double> C(size_t(m) * size_t(n), -7.0), scratch(size_t(k) * size_t(n));
    long ars = k, acs = 1, brs = n, bcs = 1;
    if (layout == Layout::nn) {
      matmul_nn(C.data(), A.data(), B.data(), m, n, k, alpha);
    } else if (layout == Layout::tn) {
      ars = 1, acs = m;
      matmul_tn(C.data(), A.data(), B.data(), m, n, k, alpha);
    } else {
      brs = 1, bcs = k;
      matmul_nt(C.data(), A.data(), B.data(), m, n, k, alpha, scratch.data());
    }
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++) {
        const double want = reference(A.data(), ars, acs, B.data(), brs, bcs, i, j, k, alpha);
        ASSERT_EQ(C[size_t(i) * size_t(n) + size_t(j)], want)
            << "m=" << m << " n=" << n << " k=" << k << " at (" << i << ", " << j << ")";
      }
  }
}

}  // namespace

TEST(Matmul, NnEqualsThePlainLoop) { check(Layout::nn, 1.0), check(Layout::nn, 0.37); }
TEST(Matmul, TnEqualsThePlainLoop) { check(Layout::tn, 1.0), check(Layout::tn, 0.37); }
TEST(Matmul, NtEqualsThePlainLoop) { check(Layout::nt, 1.0), check(Layout::nt, 0.37); }
