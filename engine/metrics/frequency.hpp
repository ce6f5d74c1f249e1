// The frequency principle's instrument (Xu et al., 2019): the discrete Fourier transform of a 1-D function
// sampled on an even grid of n points, F_k = (1/n) Σ_j v_j e^{−2πi jk/n}, and the relative error at the target's
// peaks, Δ_F(k) = |ĥ_k − ŷ_k| / |ŷ_k| (h the network's output, y the target): Δ_F(1) falls first, then Δ_F(3)...
//
// On the grid x_j = lo + (hi − lo) j/n of [−π, π), index k is the frequency k of sin(kx).
#pragma once
#include <vector>

// |F_k| for k = 0 … n/2.
std::vector<double> dft_magnitudes(const double* v, int n);

// The target's peaks: local maxima of |ŷ_k| (k ≥ 1) holding at least `fraction` of the largest, lowest k first,
// at most max_peaks of them.
std::vector<int> spectrum_peaks(const double* y, int n, double fraction = 0.2, int max_peaks = 8);

// Measures Δ_F at the target's peaks during training: the cosines and sines of the peak frequencies and the
// target's coefficients are computed once, so measure() is O(n · peaks) and allocates nothing.
class FrequencyProbe {
 public:
  FrequencyProbe() = default;
  FrequencyProbe(const double* y, int n);
  const std::vector<int>& peaks() const { return peaks_; }
  // out[p] = Δ_F(peaks[p]) of the outputs h (n values).
  void measure(const double* h, double* out) const;

 private:
  int n_ = 0;
  std::vector<int> peaks_;
  std::vector<double> cos_, sin_;      // peaks × n
  std::vector<double> y_re_, y_im_;    // the target's coefficient at each peak
};
