// How far the weights moved from init: weight_delta_spectral, ‖W_l − W_l⁰‖_* / ‖W_l⁰‖_* per layer (spectral norms),
// and weight_rd, the relative Frobenius distance of the first layer. The trained w and the effective W = n^-a w
// differ by a constant factor, which cancels in both ratios.
#include <algorithm>
#include <cmath>

#include "engine/kernels/spectral.hpp"
#include "engine/metrics/probes.hpp"

namespace {

std::vector<std::string> matrix_series(const Mlp& m) {
  std::vector<std::string> out;
  for (int l = 0; l < m.layers(); l++) out.push_back("weight_delta_spectral/W" + std::to_string(l + 1));
  return out;
}

class WeightChangeProbe : public Probe {
 public:
  explicit WeightChangeProbe(Record& r) : Probe(matrix_series(*r.mlp())), initial_(*r.initial_params) {
    const Mlp& m = *r.mlp();
    const int widest = *std::max_element(m.dims().begin(), m.dims().end());
    u_.resize(size_t(widest));
    v_.resize(size_t(widest));
    for (int l = 0; l < m.layers(); l++)
      initial_norm_.push_back(
          spectral_norm(m.weights(l), nullptr, m.dims()[size_t(l) + 1], m.dims()[size_t(l)], u_.data(), v_.data()));
  }

  void measure(Record& r, double* out) override {
    const Mlp& m = *r.mlp();
    long offset = 0;
    for (int l = 0; l < m.layers(); l++) {
      const double change = spectral_norm(m.weights(l), &initial_[size_t(offset)], m.dims()[size_t(l) + 1],
                                          m.dims()[size_t(l)], u_.data(), v_.data());
      const double init = initial_norm_[size_t(l)];  // 0 for a zero-initialized layer: the ratio is undefined
      out[l] = init > 0 ? change / init : NAN;
      offset += m.layer_size(l);
    }
  }

 private:
  const std::vector<double>& initial_;
  std::vector<double> initial_norm_;  // ‖W_l⁰‖_* per layer
  std::vector<double> u_, v_;         // power-iteration scratch, as long as the widest layer
};

}  // namespace

std::unique_ptr<Probe> weight_change_probe(Record& r) { return std::make_unique<WeightChangeProbe>(r); }

double first_layer_relative_distance(Record& r) {
  const Mlp& m = *r.mlp();
  const double* w = m.weights(0);
  const std::vector<double>& w0 = *r.initial_params;
  double change = 0, init = 0;
  for (long i = 0; i < m.layer_size(0); i++) {
    change += (w[i] - w0[size_t(i)]) * (w[i] - w0[size_t(i)]);
    init += w0[size_t(i)] * w0[size_t(i)];
  }
  return init > 0 ? std::sqrt(change / init) : NAN;
}
