#include "engine/analysis/word_embedding.hpp"

#include <algorithm>
#include <cmath>

#include "engine/analysis/infinite_width.hpp"
#include "engine/base/rng.hpp"
#include "engine/kernels/symmetric_eigen.hpp"

std::vector<double> embedding_gram(const Mlp& m) {
  const int d = m.dims()[0], n = m.dims()[1];
  const double scale = m.scaling()[0].multiplier * m.scaling()[0].multiplier / n;
  const double* w = m.weights(0);  // n × d: row k holds hidden unit k's weights on every word
  std::vector<double> G(size_t(d) * size_t(d), 0.0);
  for (int k = 0; k < n; k++) {
    const double* row = w + long(k) * d;
    for (int i = 0; i < d; i++)
      for (int j = 0; j < d; j++) G[size_t(i * d + j)] += row[i] * row[j];
  }
  for (double& g : G) g *= scale;
  return G;
}

std::vector<double> embedding_gram_at_infinity(const Mlp& m, const Dataset& train, double lr, int steps) {
  const std::vector<double> G = gram_at_infinity(m);
  std::vector<double> P;
  linear_limit(G, train.x.data(), train.y.data(), train.size, train.input_dim, train.outputs, lr, steps, &P);
  const int d = train.input_dim, k = train.input_dim + train.outputs;
  std::vector<double> out(size_t(d) * size_t(d), 0.0);
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d; j++) {
      double s = 0;
      for (int a = 0; a < k; a++)
        for (int b = 0; b < k; b++) s += P[size_t(a * d + i)] * G[size_t(a * k + b)] * P[size_t(b * d + j)];
      out[size_t(i * d + j)] = s;
    }
  return out;
}

PcaPlane pca_plane(const std::vector<double>& gram, int count) {
  // Centre the points: C = J G J with J = I − 11ᵀ/count, so the components are those of the centred cloud.
  std::vector<double> row_mean(static_cast<size_t>(count), 0.0);
  double mean = 0;
  for (int i = 0; i < count; i++) {
    for (int j = 0; j < count; j++) row_mean[size_t(i)] += gram[size_t(i * count + j)] / count;
    mean += row_mean[size_t(i)] / count;
  }
  std::vector<double> C(size_t(count) * size_t(count)), V;
  for (int i = 0; i < count; i++)
    for (int j = 0; j < count; j++)
      C[size_t(i * count + j)] = gram[size_t(i * count + j)] - row_mean[size_t(i)] - row_mean[size_t(j)] + mean;
  jacobi_diagonalize(C, count, &V);
  std::vector<int> order(static_cast<size_t>(count));
  for (int i = 0; i < count; i++) order[size_t(i)] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return C[size_t(a * count + a)] > C[size_t(b * count + b)]; });
  PcaPlane p;
  for (int axis = 0; axis < 2; axis++) {
    const int e = order[size_t(std::min(axis, count - 1))];
    const double scale = std::sqrt(std::max(0.0, C[size_t(e * count + e)]));
    std::vector<double>& coord = axis == 0 ? p.x : p.y;
    for (int i = 0; i < count; i++) coord.push_back(scale * V[size_t(i * count + e)]);
  }
  return p;
}

double cluster_separation(const PcaPlane& p, const std::vector<int>& labels) {
  double sx[2] = {0, 0}, sy[2] = {0, 0};
  int size[2] = {0, 0};
  for (size_t i = 0; i < labels.size(); i++) {
    sx[labels[i]] += p.x[i];
    sy[labels[i]] += p.y[i];
    size[labels[i]]++;
  }
  const double mx[2] = {sx[0] / size[0], sx[1] / size[1]}, my[2] = {sy[0] / size[0], sy[1] / size[1]};
  double within = 0;
  for (size_t i = 0; i < labels.size(); i++) {
    const double dx = p.x[i] - mx[labels[i]], dy = p.y[i] - my[labels[i]];
    within += dx * dx + dy * dy;
  }
  within /= double(labels.size());
  const double between = (mx[0] - mx[1]) * (mx[0] - mx[1]) + (my[0] - my[1]) * (my[0] - my[1]);
  return within > 0 ? between / within : 0;
}

ChanceLevel chance_separation(const PcaPlane& p, const std::vector<int>& labels, int shuffles, uint64_t seed) {
  Rng rng = Rng::stream(seed, /*purpose=*/9);
  std::vector<int> shuffled = labels;
  std::vector<double> values;
  for (int s = 0; s < shuffles; s++) {
    for (size_t i = shuffled.size() - 1; i > 0; i--)  // Fisher–Yates
      std::swap(shuffled[i], shuffled[std::min(i, size_t(rng.uniform() * double(i + 1)))]);
    values.push_back(cluster_separation(p, shuffled));
  }
  std::sort(values.begin(), values.end());
  ChanceLevel c;
  for (double v : values) c.mean += v / double(values.size());
  c.p95 = values[std::min(values.size() - 1, size_t(0.95 * double(values.size())))];
  return c;
}

std::vector<int> skipgram_clusters(int words) {
  std::vector<int> labels;
  for (int i = 0; i < words; i++) labels.push_back(skipgram_cluster(i, words));
  return labels;
}
