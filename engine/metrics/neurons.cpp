#include "engine/metrics/neurons.hpp"

#include <algorithm>
#include <cmath>

#include "engine/base/detmath.hpp"

namespace {

struct Neurons {
  int count = 0, dim = 0;
  std::vector<double> w;  // count × dim, effective input weights
  std::vector<double> a;  // count, effective output weights
  std::vector<double> norm;
};

Neurons neurons_of(const Mlp& m) {
  Neurons n;
  n.dim = m.dims()[0];
  n.count = m.dims()[1];
  const double m1 = m.scaling()[0].multiplier, m2 = m.scaling()[1].multiplier;
  n.w.resize(size_t(n.count) * size_t(n.dim));
  for (size_t i = 0; i < n.w.size(); i++) n.w[i] = m1 * m.weights(0)[i];
  for (int k = 0; k < n.count; k++) {
    n.a.push_back(m2 * m.weights(1)[k]);  // W₂ is 1 × count (a single output)
    double s = 0;
    for (int d = 0; d < n.dim; d++) s += n.w[size_t(k * n.dim + d)] * n.w[size_t(k * n.dim + d)];
    n.norm.push_back(std::sqrt(s));
  }
  return n;
}

double cosine(const Neurons& n, int i, int j) {
  if (n.norm[size_t(i)] == 0 || n.norm[size_t(j)] == 0) return 0;
  double dot = 0;
  for (int d = 0; d < n.dim; d++) dot += n.w[size_t(i * n.dim + d)] * n.w[size_t(j * n.dim + d)];
  return dot / (n.norm[size_t(i)] * n.norm[size_t(j)]);
}

}  // namespace

NeuronPoint neuron_point(const Mlp& m, int k) {
  const int dim = m.dims()[0];
  const double m1 = m.scaling()[0].multiplier, m2 = m.scaling()[1].multiplier;
  const double* w = m.weights(0) + long(k) * dim;
  double norm2 = 0;
  for (int d = 0; d < dim; d++) norm2 += w[d] * w[d];
  NeuronPoint p;
  // The multiplier m1 > 0 scales w_k without turning it, so the angle can be read from the stored weights.
  p.angle = dim >= 2 ? detmath::atan2(w[dim - 1], w[dim - 2]) : (w[0] >= 0 ? 0.0 : M_PI);
  p.amplitude = std::fabs(m2 * m.weights(1)[k]) * m1 * std::sqrt(norm2);  // W₂ is 1 × count
  return p;
}

std::vector<NeuronPoint> neuron_scatter(const Mlp& m) {
  std::vector<NeuronPoint> out(static_cast<size_t>(m.dims()[1]));
  for (int k = 0; k < m.dims()[1]; k++) out[size_t(k)] = neuron_point(m, k);
  return out;
}

std::vector<double> cosine_matrix(const Mlp& m, std::vector<int>* order_out) {
  const Neurons n = neurons_of(m);
  const int c = n.count;
  std::vector<double> d(size_t(c) * size_t(c));
  for (int i = 0; i < c; i++)
    for (int j = 0; j < c; j++) d[size_t(i * c + j)] = cosine(n, i, j);
  // Leading eigenvector by power iteration from the all-ones vector (D's top eigenvalue is positive: trace > 0).
  std::vector<double> v(size_t(c), 1.0), next(static_cast<size_t>(c));
  for (int it = 0; it < 200; it++) {
    double s = 0;
    for (int i = 0; i < c; i++) {
      next[size_t(i)] = 0;
      for (int j = 0; j < c; j++) next[size_t(i)] += d[size_t(i * c + j)] * v[size_t(j)];
      s += next[size_t(i)] * next[size_t(i)];
    }
    s = std::sqrt(s);
    if (s == 0) break;
    for (int i = 0; i < c; i++) v[size_t(i)] = next[size_t(i)] / s;
  }
  std::vector<int> order(static_cast<size_t>(c));
  for (int i = 0; i < c; i++) order[size_t(i)] = i;
  std::stable_sort(order.begin(), order.end(), [&](int i, int j) { return v[size_t(i)] < v[size_t(j)]; });
  std::vector<double> sorted(d.size());
  for (int i = 0; i < c; i++)
    for (int j = 0; j < c; j++) sorted[size_t(i * c + j)] = d[size_t(order[size_t(i)] * c + order[size_t(j)])];
  if (order_out) *order_out = order;
  return sorted;
}

CondensationProbe::CondensationProbe(const Mlp& m)
    : count_(m.dims()[1]),
      dim_(m.dims()[0]),
      w_(size_t(count_) * size_t(dim_)),
      amplitude_(size_t(count_)),
      norm_(size_t(count_)),
      taken_(size_t(count_)) {}

void CondensationProbe::load(const Mlp& m) {
  const double m1 = m.scaling()[0].multiplier, m2 = m.scaling()[1].multiplier;
  for (size_t i = 0; i < w_.size(); i++) w_[i] = m1 * m.weights(0)[i];
  for (int k = 0; k < count_; k++) {
    double s = 0;
    for (int d = 0; d < dim_; d++) s += w_[size_t(k * dim_ + d)] * w_[size_t(k * dim_ + d)];
    norm_[size_t(k)] = std::sqrt(s);
    amplitude_[size_t(k)] = std::fabs(m2 * m.weights(1)[k]) * norm_[size_t(k)];  // W₂ is 1 × count
  }
}

double CondensationProbe::cosine(int i, int j) const {
  if (norm_[size_t(i)] == 0 || norm_[size_t(j)] == 0) return 0;
  double dot = 0;
  for (int d = 0; d < dim_; d++) dot += w_[size_t(i * dim_ + d)] * w_[size_t(j * dim_ + d)];
  return dot / (norm_[size_t(i)] * norm_[size_t(j)]);
}

double CondensationProbe::antipodal_share(const Mlp& m, double threshold) {
  load(m);
  int largest = 0;
  double total = 0;
  for (int k = 0; k < count_; k++) {
    total += amplitude_[size_t(k)];
    if (amplitude_[size_t(k)] > amplitude_[size_t(largest)]) largest = k;
  }
  double held = 0;
  for (int k = 0; k < count_; k++)
    if (std::fabs(cosine(k, largest)) >= threshold) held += amplitude_[size_t(k)];
  return total > 0 ? held / total : 0;
}

int CondensationProbe::condensed_lines(const Mlp& m, double threshold, double mass) {
  load(m);
  std::fill(taken_.begin(), taken_.end(), 0);
  double total = 0, held = 0;
  for (int k = 0; k < count_; k++) total += amplitude_[size_t(k)];
  int lines = 0;
  while (held < mass * total && lines < count_) {
    int largest = -1;
    for (int k = 0; k < count_; k++)
      if (!taken_[size_t(k)] && (largest < 0 || amplitude_[size_t(k)] > amplitude_[size_t(largest)])) largest = k;
    if (largest < 0) break;
    lines++;
    for (int k = 0; k < count_; k++)
      if (!taken_[size_t(k)] && (k == largest || std::fabs(cosine(k, largest)) >= threshold)) {
        taken_[size_t(k)] = 1;
        held += amplitude_[size_t(k)];
      }
  }
  return lines;
}

double antipodal_share(const Mlp& m, double threshold) { return CondensationProbe(m).antipodal_share(m, threshold); }

int condensed_lines(const Mlp& m, double threshold, double mass) {
  return CondensationProbe(m).condensed_lines(m, threshold, mass);
}

Mlp split_neuron(const Mlp& m, int k, double alpha) {
  std::vector<int> dims = m.dims();
  const int d = dims[0], width = dims[1];
  dims[1] = width + 1;
  MlpConfig c = m.config();  // every setting of m, one neuron wider
  c.dims = dims;
  Mlp out(std::move(c));
  std::copy(m.weights(0), m.weights(0) + long(width) * d, out.weights(0));
  std::copy(m.weights(0) + long(k) * d, m.weights(0) + long(k + 1) * d, out.weights(0) + long(width) * d);
  std::copy(m.weights(1), m.weights(1) + width, out.weights(1));
  out.weights(1)[k] = alpha * m.weights(1)[k];
  out.weights(1)[width] = (1 - alpha) * m.weights(1)[k];
  if (m.has_biases()) {  // the new neuron keeps neuron k's bias; the readout's bias is unchanged
    std::copy(m.bias(0), m.bias(0) + width, out.bias(0));
    out.bias(0)[width] = m.bias(0)[k];
    std::copy(m.bias(1), m.bias(1) + dims.back(), out.bias(1));
  }
  return out;
}
