#include "engine/kernels/spectral.hpp"

#include <cmath>

#include "engine/base/rng.hpp"

namespace {

// Normalizes x in place; returns its norm before (0 leaves x as it is).
double normalize(double* x, int count) {
  double sum = 0;
  for (int i = 0; i < count; i++) sum += x[i] * x[i];
  const double norm = std::sqrt(sum);
  if (norm > 0)
    for (int i = 0; i < count; i++) x[i] /= norm;
  return norm;
}

// Σ_j (a_j − b_j) v_j (b may be null). Four partial sums, in a fixed order, break the chain of dependent adds
// so the loop runs several times faster; the order is the same on every platform, and so is the result.
double dot(const double* a, const double* b, const double* v, int count) {
  double s[4] = {0, 0, 0, 0};
  int j = 0;
  if (b) {
    for (; j + 4 <= count; j += 4)
      for (int k = 0; k < 4; k++) s[k] += (a[j + k] - b[j + k]) * v[j + k];
    for (; j < count; j++) s[0] += (a[j] - b[j]) * v[j];
  } else {
    for (; j + 4 <= count; j += 4)
      for (int k = 0; k < 4; k++) s[k] += a[j + k] * v[j + k];
    for (; j < count; j++) s[0] += a[j] * v[j];
  }
  return (s[0] + s[1]) + (s[2] + s[3]);
}

// u = (A − B) v
void multiply(const double* a, const double* b, int rows, int cols, const double* v, double* u) {
  for (int i = 0; i < rows; i++) u[i] = dot(a + long(i) * cols, b ? b + long(i) * cols : nullptr, v, cols);
}

// v = (A − B)ᵀ u, accumulated row by row so the inner loop runs along contiguous memory.
void multiply_transposed(const double* a, const double* b, int rows, int cols, const double* u, double* v) {
  for (int j = 0; j < cols; j++) v[j] = 0;
  for (int i = 0; i < rows; i++) {
    const double* ar = a + long(i) * cols;
    const double* br = b ? b + long(i) * cols : nullptr;
    const double ui = u[i];
    if (br) for (int j = 0; j < cols; j++) v[j] += (ar[j] - br[j]) * ui;
    else for (int j = 0; j < cols; j++) v[j] += ar[j] * ui;
  }
}

}  // namespace

double spectral_norm(const double* a, const double* b, int rows, int cols, double* u, double* v, PowerIteration it) {
  Rng rng(0x5EC7A1u);
  for (int j = 0; j < cols; j++) v[j] = rng.normal();
  normalize(v, cols);
  double sigma = 0;
  for (int k = 0; k < it.max_iters; k++) {
    multiply(a, b, rows, cols, v, u);
    if (normalize(u, rows) == 0) return 0;  // M v = 0: M is zero (a random v is almost surely not in its kernel)
    multiply_transposed(a, b, rows, cols, u, v);
    const double next = normalize(v, cols);  // ‖Mᵀu‖ for unit u
    const bool converged = next - sigma <= it.tol * next;
    sigma = next;
    if (converged) break;
  }
  return sigma;
}
