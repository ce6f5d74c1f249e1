// The filtering method for high-dimensional inputs (Xu et al., "Frequency principle: Fourier analysis sheds light
// on deep neural networks", 2019): frequency in any input dimension, without a Fourier transform on a grid.
// A Gaussian average over the training inputs splits a function g sampled on them into a low-frequency part and
// the rest,
//   g_low(x_i) = Σ_j g(x_j) G(x_i − x_j) / Σ_j G(x_i − x_j),  G(u) = exp(−‖u‖² / (2δ²)),  g_high = g − g_low,
// (a Gaussian filter passes frequencies up to about 1/δ), and the network's parts are compared with the target's:
//   e_low = ‖h_low − y_low‖ / ‖y_low‖,  e_high = ‖h_high − y_high‖ / ‖y_high‖.
// The frequency principle says e_low falls first.
#pragma once
#include <vector>

#include "engine/task/task.hpp"

constexpr int kMaxFilterPoints = 2048;  // the probe holds an n × n kernel: 32 MB at this size

class FilterProbe {
 public:
  FilterProbe() = default;
  // The row-normalized kernel over the train inputs (all coordinates: a folded-in constant adds nothing to the
  // distances) and the target's two parts; `width` is δ in input units.
  FilterProbe(const Dataset& train, double width);
  // e_low and e_high of the outputs h (one per train point). O(n²); allocates nothing.
  void measure(const double* h, double& e_low, double& e_high);
  int size() const { return n_; }

 private:
  int n_ = 0;
  std::vector<double> kernel_;              // n × n, rows sum to 1
  std::vector<double> y_low_, y_high_;      // the target's parts
  double y_low_norm_ = 0, y_high_norm_ = 0;
};
