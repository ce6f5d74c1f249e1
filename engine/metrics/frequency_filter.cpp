#include "engine/metrics/frequency_filter.hpp"

#include <cmath>

#include "engine/base/detmath.hpp"

FilterProbe::FilterProbe(const Dataset& train, double width)
    : n_(train.size),
      kernel_(size_t(n_) * size_t(n_)),
      y_low_(size_t(n_)),
      y_high_(size_t(n_)) {
  const int d = train.input_dim;
  for (int i = 0; i < n_; i++) {
    double* row = &kernel_[size_t(i) * size_t(n_)];
    double sum = 0;
    for (int j = 0; j < n_; j++) {
      double dist2 = 0;
      for (int k = 0; k < d; k++) {
        const double u = train.x[size_t(i * d + k)] - train.x[size_t(j * d + k)];
        dist2 += u * u;
      }
      row[j] = detmath::exp(-dist2 / (2 * width * width));
      sum += row[j];
    }
    for (int j = 0; j < n_; j++) row[j] /= sum;  // sum ≥ 1: the point itself
  }
  for (int i = 0; i < n_; i++) {
    const double* row = &kernel_[size_t(i) * size_t(n_)];
    double low = 0;
    for (int j = 0; j < n_; j++) low += row[j] * train.y[size_t(j)];
    y_low_[size_t(i)] = low;
    y_high_[size_t(i)] = train.y[size_t(i)] - low;
    y_low_norm_ += low * low;
    y_high_norm_ += y_high_[size_t(i)] * y_high_[size_t(i)];
  }
  y_low_norm_ = std::sqrt(y_low_norm_);
  y_high_norm_ = std::sqrt(y_high_norm_);
}

void FilterProbe::measure(const double* h, double& e_low, double& e_high) {
  double low = 0, high = 0;
  for (int i = 0; i < n_; i++) {
    const double* row = &kernel_[size_t(i) * size_t(n_)];
    double s = 0;
    for (int j = 0; j < n_; j++) s += row[j] * h[j];
    const double dl = s - y_low_[size_t(i)], dh = (h[i] - s) - y_high_[size_t(i)];
    low += dl * dl;
    high += dh * dh;
  }
  e_low = y_low_norm_ > 0 ? std::sqrt(low) / y_low_norm_ : NAN;
  e_high = y_high_norm_ > 0 ? std::sqrt(high) / y_high_norm_ : NAN;
}
