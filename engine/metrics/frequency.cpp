#include "engine/metrics/frequency.hpp"

#include <cmath>

#include "engine/base/detmath.hpp"

namespace {

void coefficient(const double* v, int n, int k, double& re, double& im) {
  re = 0;
  im = 0;
  for (int j = 0; j < n; j++) {
    const double phase = 2 * detmath::kPi * double((long(j) * k) % n) / n;
    re += v[j] * detmath::cos(phase);
    im -= v[j] * detmath::sin(phase);
  }
  re /= n;
  im /= n;
}

}  // namespace

std::vector<double> dft_magnitudes(const double* v, int n) {
  std::vector<double> out(size_t(n / 2 + 1));
  for (int k = 0; k <= n / 2; k++) {
    double re = 0, im = 0;
    coefficient(v, n, k, re, im);
    out[size_t(k)] = std::sqrt(re * re + im * im);
  }
  return out;
}

std::vector<int> spectrum_peaks(const double* y, int n, double fraction, int max_peaks) {
  const std::vector<double> mag = dft_magnitudes(y, n);
  double largest = 0;
  for (size_t k = 1; k < mag.size(); k++) largest = std::fmax(largest, mag[k]);
  std::vector<int> peaks;
  for (size_t k = 1; k < mag.size() && int(peaks.size()) < max_peaks; k++) {
    const double left = mag[k - 1], right = k + 1 < mag.size() ? mag[k + 1] : 0;
    if (largest > 0 && mag[k] >= fraction * largest && mag[k] > left && mag[k] >= right) peaks.push_back(int(k));
  }
  return peaks;
}

FrequencyProbe::FrequencyProbe(const double* y, int n) : n_(n), peaks_(spectrum_peaks(y, n)) {
  cos_.resize(peaks_.size() * size_t(n));
  sin_.resize(peaks_.size() * size_t(n));
  for (size_t p = 0; p < peaks_.size(); p++) {
    for (int j = 0; j < n; j++) {
      const double phase = 2 * detmath::kPi * double((long(j) * peaks_[p]) % n) / n;
      cos_[p * size_t(n) + size_t(j)] = detmath::cos(phase);
      sin_[p * size_t(n) + size_t(j)] = detmath::sin(phase);
    }
    double re = 0, im = 0;
    coefficient(y, n, peaks_[p], re, im);
    y_re_.push_back(re);
    y_im_.push_back(im);
  }
}

void FrequencyProbe::measure(const double* h, double* out) const {
  for (size_t p = 0; p < peaks_.size(); p++) {
    double re = 0, im = 0;
    const double* c = &cos_[p * size_t(n_)];
    const double* s = &sin_[p * size_t(n_)];
    for (int j = 0; j < n_; j++) {
      re += h[j] * c[j];
      im -= h[j] * s[j];
    }
    re = re / n_ - y_re_[p];
    im = im / n_ - y_im_[p];
    out[p] = std::sqrt(re * re + im * im) / std::sqrt(y_re_[p] * y_re_[p] + y_im_[p] * y_im_[p]);
  }
}
