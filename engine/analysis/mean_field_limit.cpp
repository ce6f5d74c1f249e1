#include "engine/analysis/mean_field_limit.hpp"

#include <cmath>

#include "engine/base/detmath.hpp"

void gauss_hermite_normal(int m, std::vector<double>& nodes, std::vector<double>& weights) {
  // Roots of the physicists' Hermite polynomial H_m by Newton's method from the classic asymptotic guesses
  // (Numerical Recipes' gauher), using the orthonormal recurrence so nothing overflows; weights for e^{-x²}.
  std::vector<double> x(static_cast<size_t>(m)), w(static_cast<size_t>(m));
  const double pi_m4 = 0.7511255444649425;  // π^{-1/4}
  double z = 0;
  for (int i = 0; i < (m + 1) / 2; i++) {
    if (i == 0) z = std::sqrt(2.0 * m + 1) - 1.85575 * std::pow(2.0 * m + 1, -1.0 / 6);
    else if (i == 1) z -= 1.14 * std::pow(double(m), 0.426) / z;
    else if (i == 2) z = 1.86 * z - 0.86 * x[0];
    else if (i == 3) z = 1.91 * z - 0.91 * x[1];
    else z = 2 * z - x[size_t(i) - 2];
    double pp = 0;
    for (int iter = 0; iter < 100; iter++) {
      double p1 = pi_m4, p2 = 0;
      for (int j = 1; j <= m; j++) {
        const double p3 = p2;
        p2 = p1;
        p1 = z * std::sqrt(2.0 / j) * p2 - std::sqrt(double(j - 1) / j) * p3;
      }
      pp = std::sqrt(2.0 * m) * p2;
      const double step = p1 / pp;
      z -= step;
      if (std::fabs(step) < 1e-15 * (1 + std::fabs(z))) break;
    }
    x[size_t(i)] = z;
    x[size_t(m - 1 - i)] = -z;
    w[size_t(i)] = w[size_t(m - 1 - i)] = 2 / (pp * pp);
  }
  // ∫ e^{-x²} g(x) dx with x = z/√2 is √π E g(Z/√2)... so E g(Z) = Σ w/√π g(√2 x).
  nodes.resize(size_t(m));
  weights.resize(size_t(m));
  for (int i = 0; i < m; i++) {
    nodes[size_t(i)] = std::sqrt(2.0) * x[size_t(i)];
    weights[size_t(i)] = w[size_t(i)] / std::sqrt(detmath::kPi);
  }
}

Neurons gauss_hermite_neurons(int d, int m, double u_std, double v_std) {
  std::vector<double> z, w;
  gauss_hermite_normal(m, z, w);
  Neurons out;
  out.d = d;
  long count = 1;
  for (int k = 0; k <= d; k++) count *= m;
  out.u.resize(size_t(count * d));
  out.v.resize(size_t(count));
  out.weight.resize(size_t(count));
  for (long j = 0; j < count; j++) {
    long rest = j;  // the node's digits in base m: one per coordinate, v last
    double weight = 1;
    for (int k = 0; k <= d; k++) {
      const size_t digit = size_t(rest % m);
      rest /= m;
      weight *= w[digit];
      if (k < d) out.u[size_t(j * d + k)] = u_std * z[digit];
      else out.v[size_t(j)] = v_std * z[digit];
    }
    out.weight[size_t(j)] = weight;
  }
  return out;
}

Neurons network_neurons(int d, int n, const double* w1, const double* v) {
  Neurons out;
  out.d = d;
  out.u.assign(w1, w1 + long(n) * d);
  out.v.assign(v, v + n);
  out.weight.assign(size_t(n), 1.0 / n);
  return out;
}

namespace {

// h (count × K) = u ξᵀ, x = φ(h); f_k = Σ_j weight_j v_j x_jk.
void forward(const Neurons& nn, const MeanFieldData& data, Activation act, std::vector<double>& h,
             std::vector<double>& x, double* f) {
  const int count = nn.count(), K = data.points, d = nn.d;
  for (int j = 0; j < count; j++)
    for (int k = 0; k < K; k++) {
      double dot = 0;
      for (int c = 0; c < d; c++) dot += nn.u[size_t(j * d + c)] * data.x[k * d + c];
      h[size_t(j * K + k)] = dot;
    }
  activation_forward(act, x.data(), h.data(), long(count) * K);
  for (int k = 0; k < K; k++) f[k] = 0;
  for (int j = 0; j < count; j++)
    for (int k = 0; k < K; k++) f[k] += nn.weight[size_t(j)] * nn.v[size_t(j)] * x[size_t(j * K + k)];
}

}  // namespace

std::vector<double> mean_field_trajectory(Neurons& nn, const MeanFieldData& data, Activation act, double lr,
                                          int steps) {
  const int count = nn.count(), K = data.points, d = nn.d;
  std::vector<double> traj(size_t((steps + 1) * K));
  std::vector<double> h(static_cast<size_t>(count) * size_t(K)), x(h.size()), dx(h.size()), dh(h.size()),
      g(static_cast<size_t>(K));
  for (int t = 0; t <= steps; t++) {
    double* f = &traj[size_t(t * K)];
    forward(nn, data, act, h, x, f);
    if (t == steps) break;
    for (int k = 0; k < K; k++) g[size_t(k)] = (f[k] - data.y[k]) / K;
    // φ′(h_jk) g_k v_j: the backward pass of the engine's Mlp, per neuron.
    for (int j = 0; j < count; j++)
      for (int k = 0; k < K; k++) dx[size_t(j * K + k)] = g[size_t(k)] * nn.v[size_t(j)];
    activation_backward(act, dh.data(), dx.data(), h.data(), x.data(), long(count) * K);
    for (int j = 0; j < count; j++) {
      double dv = 0;
      for (int k = 0; k < K; k++) dv += g[size_t(k)] * x[size_t(j * K + k)];
      for (int c = 0; c < d; c++) {
        double du = 0;
        for (int k = 0; k < K; k++) du += dh[size_t(j * K + k)] * data.x[k * d + c];
        nn.u[size_t(j * d + c)] -= lr * du;
      }
      nn.v[size_t(j)] -= lr * dv;
    }
  }
  return traj;
}
