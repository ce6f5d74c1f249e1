#include "engine/metrics/embedding_lattice.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "engine/task/anchor_tasks.hpp"

namespace {

// The leading eigenvector of the symmetric D × D matrix C (power iteration from a fixed start).
std::vector<double> leading_eigenvector(const std::vector<double>& C, int D, double* eigenvalue) {
  std::vector<double> v(size_t(D), 0.0), next(size_t(D), 0.0);
  for (int i = 0; i < D; i++) v[size_t(i)] = 1.0 + 0.01 * i;  // fixed start: deterministic, rarely orthogonal
  double lambda = 0;
  for (int it = 0; it < 300; it++) {
    double n = 0;
    for (int i = 0; i < D; i++) {
      double s = 0;
      for (int j = 0; j < D; j++) s += C[size_t(i) * size_t(D) + size_t(j)] * v[size_t(j)];
      next[size_t(i)] = s;
      n += s * s;
    }
    n = std::sqrt(n);
    if (n == 0) break;
    for (int i = 0; i < D; i++) v[size_t(i)] = next[size_t(i)] / n;
    lambda = n;
  }
  *eigenvalue = lambda;
  return v;
}

}  // namespace

EmbeddingProjection embedding_pca(const Transformer& m, int first, int last) {
  const TransformerTensor* wte = m.find_tensor("wte");
  const int D = wte->cols, count = last - first + 1;
  const double* e = m.params().data() + wte->offset + long(first) * D;
  std::vector<double> mean(size_t(D), 0.0), X(size_t(count) * size_t(D)), C(size_t(D) * size_t(D), 0.0);
  for (int r = 0; r < count; r++)
    for (int c = 0; c < D; c++) mean[size_t(c)] += e[long(r) * D + c] / count;
  for (int r = 0; r < count; r++)
    for (int c = 0; c < D; c++) X[size_t(r) * size_t(D) + size_t(c)] = e[long(r) * D + c] - mean[size_t(c)];
  double total = 0;
  for (int r = 0; r < count; r++)
    for (int i = 0; i < D; i++) {
      const double xi = X[size_t(r) * size_t(D) + size_t(i)];
      total += xi * xi;
      for (int j = 0; j < D; j++) C[size_t(i) * size_t(D) + size_t(j)] += xi * X[size_t(r) * size_t(D) + size_t(j)];
    }
  EmbeddingProjection p;
  p.xy.assign(size_t(count) * 2, 0.0);
  for (int axis = 0; axis < 2; axis++) {
    double lambda = 0;
    const std::vector<double> v = leading_eigenvector(C, D, &lambda);
    p.explained[axis] = total > 0 ? lambda / total : 0;
    for (int r = 0; r < count; r++) {
      double s = 0;
      for (int c = 0; c < D; c++) s += X[size_t(r) * size_t(D) + size_t(c)] * v[size_t(c)];
      p.xy[size_t(r) * 2 + size_t(axis)] = s;
    }
    for (int i = 0; i < D; i++)  // deflate: C -= λ v vᵀ, so the next pass finds the second axis
      for (int j = 0; j < D; j++) C[size_t(i) * size_t(D) + size_t(j)] -= lambda * v[size_t(i)] * v[size_t(j)];
  }
  return p;
}

namespace {

// Each value's rank (0 = smallest) in `x`; continuous coordinates have no ties in practice.
std::vector<double> ranks(const std::vector<double>& x) {
  std::vector<int> order(x.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return x[size_t(a)] < x[size_t(b)]; });
  std::vector<double> r(x.size());
  for (size_t k = 0; k < order.size(); k++) r[size_t(order[k])] = double(k);
  return r;
}

}  // namespace

double embedding_order(const Transformer& m) {
  const EmbeddingProjection p = embedding_pca(m, kAnchorKeyMin, kAnchorKeyMax);
  const int n = kAnchorKeyMax - kAnchorKeyMin + 1;
  std::vector<double> first_axis(static_cast<size_t>(n));
  for (int i = 0; i < n; i++) first_axis[size_t(i)] = p.xy[size_t(2 * i)];
  // Spearman's ρ = Pearson's correlation of the ranks; the tokens' own ranks are 0..n−1 in id order.
  const std::vector<double> r = ranks(first_axis);
  const double mean = (n - 1) / 2.0;
  double cov = 0, var = 0;
  for (int i = 0; i < n; i++) {
    cov += (r[size_t(i)] - mean) * (i - mean);
    var += (i - mean) * (i - mean);
  }
  return std::fabs(cov / var);  // both rank lists are permutations of 0..n−1: equal variances
}
