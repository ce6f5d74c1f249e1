#include "engine/kernels.hpp"

namespace {

// C[i0..i0+rows) += Σ_p coef(i, p) · B[p]  over p = 0..k-1, for rows ≤ 4.
// `coef(i, p)` reads A[i][p] (nn) or A[p][i] (tn).
template <class Coef>
void accumulate_rows(double* C, const double* B, int i0, int rows, int n, int k, Coef coef) {
  double* c0 = C + long(i0) * n;
  for (long j = 0; j < long(rows) * n; j++) c0[j] = 0;
  if (rows == 4) {
    double *c1 = c0 + n, *c2 = c1 + n, *c3 = c2 + n;
    for (int p = 0; p < k; p++) {
      const double a0 = coef(i0, p), a1 = coef(i0 + 1, p), a2 = coef(i0 + 2, p), a3 = coef(i0 + 3, p);
      const double* b = B + long(p) * n;
      for (int j = 0; j < n; j++) {
        const double bj = b[j];
        c0[j] += a0 * bj;
        c1[j] += a1 * bj;
        c2[j] += a2 * bj;
        c3[j] += a3 * bj;
      }
    }
    return;
  }
  for (int r = 0; r < rows; r++) {
    double* c = c0 + long(r) * n;
    for (int p = 0; p < k; p++) {
      const double a = coef(i0 + r, p);
      const double* b = B + long(p) * n;
      for (int j = 0; j < n; j++) c[j] += a * b[j];
    }
  }
}

void scale(double* C, long count, double alpha) {
  if (alpha == 1.0) return;
  for (long i = 0; i < count; i++) C[i] *= alpha;
}

}  // namespace

void matmul_nn(double* C, const double* A, const double* B, int m, int n, int k, double alpha) {
  for (int i0 = 0; i0 < m; i0 += 4)
    accumulate_rows(C, B, i0, m - i0 < 4 ? m - i0 : 4, n, k,
                    [&](int i, int p) { return A[long(i) * k + p]; });
  scale(C, long(m) * n, alpha);
}

void matmul_tn(double* C, const double* A, const double* B, int m, int n, int k, double alpha) {
  for (int i0 = 0; i0 < m; i0 += 4)
    accumulate_rows(C, B, i0, m - i0 < 4 ? m - i0 : 4, n, k,
                    [&](int i, int p) { return A[long(p) * m + i]; });
  scale(C, long(m) * n, alpha);
}

void matmul_nt(double* C, const double* A, const double* B, int m, int n, int k, double alpha, double* scratch) {
  for (int j = 0; j < n; j++)
    for (int p = 0; p < k; p++) scratch[long(p) * n + j] = B[long(j) * k + p];
  matmul_nn(C, A, scratch, m, n, k, alpha);
}
