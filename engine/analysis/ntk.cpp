#include "engine/analysis/ntk.hpp"

#include <cmath>

Ntk::Ntk(const Mlp& m, int count) : count_(count), params_(long(m.params().size())) {
  rows_.assign(size_t(count) * size_t(params_), 0.0);
}

void Ntk::compute(Mlp& m, const double* x, double* K) {
  const int d_in = m.dims()[0];
  // Per-example gradient of f (one output), scaled by √lr_l so that the dot product carries the LR weights.
  for (int i = 0; i < count_; i++) {
    m.forward(x + long(i) * d_in, 1);
    m.backward(&one_, 1);
    double* row = &rows_[size_t(i) * size_t(params_)];
    const double* g = m.grads().data();
    for (const TensorSlice& t : layer_slices(m)) {  // every weight matrix, then every bias
      const double s = std::sqrt(t.lr_multiplier);
      for (long k = t.offset; k < t.offset + t.size; k++) row[k] = s * g[k];
    }
  }
  for (int i = 0; i < count_; i++) {
    const double* a = &rows_[size_t(i) * size_t(params_)];
    for (int j = 0; j <= i; j++) {
      const double* b = &rows_[size_t(j) * size_t(params_)];
      double sum = 0;
      for (long k = 0; k < params_; k++) sum += a[k] * b[k];
      K[long(i) * count_ + j] = K[long(j) * count_ + i] = sum;
    }
  }
}

void kernel_gd_step(const double* K, const double* y, int count, double lr, double* f, double* scratch) {
  for (int j = 0; j < count; j++) scratch[j] = f[j] - y[j];
  for (int i = 0; i < count; i++) {
    double sum = 0;
    for (int j = 0; j < count; j++) sum += K[long(i) * count + j] * scratch[j];
    f[i] -= lr / count * sum;
  }
}

double relative_change(const double* a, const double* b, int count) {
  double diff = 0, base = 0;
  for (long k = 0; k < long(count) * count; k++) {
    diff += (a[k] - b[k]) * (a[k] - b[k]);
    base += b[k] * b[k];
  }
  return std::sqrt(diff / base);
}
