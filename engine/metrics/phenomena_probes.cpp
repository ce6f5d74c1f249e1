// The probes of the training phenomena: the frequency principle (fp_delta, fp_filter; Xu et al., 2019), sign
// accuracy on parity-like targets, the sharpness of edge of stability (Cohen et al., 2021) and the condensation of
// one-hidden-layer nets (Luo, Xu et al., 2021).
#include <algorithm>

#include "engine/metrics/frequency.hpp"
#include "engine/metrics/frequency_filter.hpp"
#include "engine/metrics/neurons.hpp"
#include "engine/metrics/probes.hpp"

namespace {

std::vector<std::string> peak_series(const FrequencyProbe& f) {
  std::vector<std::string> out;
  for (int k : f.peaks()) out.push_back("delta_F/k=" + std::to_string(k));
  return out;
}

class FrequencyPrincipleProbe : public Probe {
 public:
  FrequencyPrincipleProbe(Record& r, FrequencyProbe f) : Probe(peak_series(f)), frequency_(std::move(f)) {
    r.reserve_train_outputs();
  }
  void measure(Record& r, double* out) override { frequency_.measure(r.train_outputs(), out); }

 private:
  FrequencyProbe frequency_;
};

class FilterErrorProbe : public Probe {
 public:
  FilterErrorProbe(Record& r, double width)
      : Probe({"filter/e_low", "filter/e_high"}), filter_(r.data().train, width) {
    r.reserve_train_outputs();
  }
  void measure(Record& r, double* out) override { filter_.measure(r.train_outputs(), out[0], out[1]); }

 private:
  FilterProbe filter_;
};

class SignAccuracyProbe : public Probe {
 public:
  SignAccuracyProbe() : Probe({"sign_accuracy/train", "sign_accuracy/test"}) {}
  void measure(Record& r, double* out) override {
    out[0] = share_of_signs(*r.mlp(), r.data().train);
    out[1] = share_of_signs(*r.mlp(), r.data().test);
  }

 private:
  static double share_of_signs(Mlp& m, const Dataset& d) {
    int hits = 0;
    for (int start = 0; start < d.size; start += m.max_batch()) {
      const int n = std::min(m.max_batch(), d.size - start);
      const double* f = m.forward(&d.x[size_t(start) * size_t(d.input_dim)], n);
      for (int i = 0; i < n; i++) hits += (f[i] > 0) == (d.y[size_t(start + i)] > 0);
    }
    return double(hits) / d.size;
  }
};

class SharpnessProbe : public Probe {
 public:
  explicit SharpnessProbe(Record& r) : Probe({"sharpness"}), grads_(r.mlp()->grads().size()) {}
  void measure(Record& r, double* out) override {
    // The Hessian-vector products overwrite the gradient buffer, which the coming optimizer step still needs.
    std::vector<double>& g = r.mlp()->grads();
    std::copy(g.begin(), g.end(), grads_.begin());
    out[0] = r.hessian->top_eigenvalue();
    std::copy(grads_.begin(), grads_.end(), g.begin());
  }

 private:
  std::vector<double> grads_;
};

class NeuronCondensationProbe : public Probe {
 public:
  explicit NeuronCondensationProbe(Record& r)
      : Probe({"condensation/share", "condensation/lines"}), condensation_(*r.mlp()) {}
  void measure(Record& r, double* out) override {
    out[0] = condensation_.antipodal_share(*r.mlp());
    out[1] = condensation_.condensed_lines(*r.mlp());
  }

 private:
  CondensationProbe condensation_;
};

// Every neuron's (angle, amplitude) at each record: the trajectories the book's polar figure draws (Fig. 8.2-8.3).
// Two series per neuron, so the memory is that of any 2m series: bounded by steps / record_every.
class NeuronPathsProbe : public Probe {
 public:
  explicit NeuronPathsProbe(Record& r) : Probe(series_names(r.mlp()->dims()[1])) {}
  void measure(Record& r, double* out) override {
    for (int k = 0; k < r.mlp()->dims()[1]; k++) {
      const NeuronPoint p = neuron_point(*r.mlp(), k);
      out[2 * k] = p.angle;
      out[2 * k + 1] = p.amplitude;
    }
  }

 private:
  static std::vector<std::string> series_names(int count) {
    std::vector<std::string> names;
    for (int k = 0; k < count; k++) {
      names.push_back("neuron_paths/" + std::to_string(k) + "/angle");
      names.push_back("neuron_paths/" + std::to_string(k) + "/amplitude");
    }
    return names;
  }
};

}  // namespace

std::unique_ptr<Probe> frequency_probe(Record& r) {
  return std::make_unique<FrequencyPrincipleProbe>(r, FrequencyProbe(r.data().train.y.data(), r.data().train.size));
}
std::unique_ptr<Probe> filter_probe(Record& r, double width) { return std::make_unique<FilterErrorProbe>(r, width); }
std::unique_ptr<Probe> sign_accuracy_probe(Record&) { return std::make_unique<SignAccuracyProbe>(); }
std::unique_ptr<Probe> sharpness_probe(Record& r) { return std::make_unique<SharpnessProbe>(r); }
std::unique_ptr<Probe> condensation_probe(Record& r) { return std::make_unique<NeuronCondensationProbe>(r); }
std::unique_ptr<Probe> neuron_paths_probe(Record& r) { return std::make_unique<NeuronPathsProbe>(r); }
