#include "engine/analysis/update_rank.hpp"

double stable_rank(const double* a, const double* b, int rows, int cols, double* u, double* v, PowerIteration it) {
  double frobenius2 = 0;
  const long count = long(rows) * cols;
  for (long i = 0; i < count; i++) {
    const double d = b ? a[i] - b[i] : a[i];
    frobenius2 += d * d;
  }
  if (frobenius2 == 0) return 0;
  const double spectral = spectral_norm(a, b, rows, cols, u, v, it);
  return frobenius2 / (spectral * spectral);
}
