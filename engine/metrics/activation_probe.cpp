// act_rms and act_delta_rms: the coordinate check of Tensor Programs V (Yang et al., 2022). Under μP the RMS of
// every layer's preactivation, and of its change since init, stays of order one as the width grows.
#include <algorithm>
#include <cmath>

#include "engine/metrics/probes.hpp"

namespace {

std::vector<std::string> layer_series(const char* metric, const Mlp& m) {
  std::vector<std::string> out;
  for (int l = 0; l < m.layers(); l++)
    out.push_back(std::string(metric) + "/" + (l + 1 == m.layers() ? "f" : "h" + std::to_string(l + 1)));
  return out;
}

class ActivationProbe : public Probe {
 public:
  ActivationProbe(Record& r, bool change)
      : Probe(layer_series(change ? "act_delta_rms" : "act_rms", *r.mlp())),
        rows_(std::min(r.data().train.size, kProbeRows)),
        change_(change) {
    const Mlp& m = *r.mlp();
    long units = 0;
    for (int l = 0; l < m.layers(); l++) units += m.dims()[size_t(l) + 1];
    if (change) initial_.resize(size_t(rows_) * size_t(units));
  }

  void measure(Record& r, double* out) override {
    Mlp& m = *r.mlp();
    m.forward(r.data().train.x.data(), rows_);
    long offset = 0;
    for (int l = 0; l < m.layers(); l++) {
      const long n = long(rows_) * m.dims()[size_t(l) + 1];
      const double* h = m.preactivation(l);
      double* h0 = change_ ? &initial_[size_t(offset)] : nullptr;
      if (h0 && r.index() == 0) std::copy_n(h, n, h0);
      double sum = 0;
      for (long i = 0; i < n; i++) sum += h0 ? (h[i] - h0[i]) * (h[i] - h0[i]) : h[i] * h[i];
      out[l] = std::sqrt(sum / double(n));
      offset += n;
    }
  }

 private:
  int rows_;
  bool change_;
  std::vector<double> initial_;  // the preactivations at the first record, all layers concatenated
};

}  // namespace

std::unique_ptr<Probe> activation_probe(Record& r, bool change) { return std::make_unique<ActivationProbe>(r, change); }
