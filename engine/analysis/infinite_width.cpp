#include "engine/analysis/infinite_width.hpp"

#include <cmath>

namespace {

bool close(double a, double b) { return std::fabs(a - b) <= 1e-12 * std::fabs(b); }

// Effective weights: U = m₁ w₁ (n × d_in) and V = n m₂ w₂ᵀ, read as element (i, k) of row i (hidden unit i).
double u_at(const Mlp& m, int i, int k) { return m.scaling()[0].multiplier * m.weights(0)[long(i) * m.dims()[0] + k]; }
double v_at(const Mlp& m, int i, int k) {
  const int n = m.dims()[1];
  return double(n) * m.scaling()[1].multiplier * m.weights(1)[long(k) * n + i];
}

}  // namespace

bool mean_field_form(const Mlp& m, std::string* why) {
  auto fail = [&](const std::string& text) {
    if (why) *why = text;
    return false;
  };
  if (m.layers() != 2) return fail("needs exactly one hidden layer");
  const double n = m.dims()[1];
  // SGD on w moves W = m w with learning rate η · lr_mult · m² (ΔW = m Δw, and ∂L/∂w = m ∂L/∂W).
  const TensorScaling& s1 = m.scaling()[0];
  const TensorScaling& s2 = m.scaling()[1];
  if (!close(s1.lr_multiplier * s1.multiplier * s1.multiplier, n)) return fail("effective LR on W1 is not eta*n");
  if (!close(s2.lr_multiplier * s2.multiplier * s2.multiplier, 1 / n)) return fail("effective LR on W2 is not eta/n");
  return true;
}

bool linear_mean_field(const Mlp& m, std::string* why) {
  if (!mean_field_form(m, why)) return false;
  if (m.activation() == Activation::linear) return true;
  if (why) *why = "needs the linear activation";
  return false;
}

void mean_field_init_std(const Mlp& m, double* u_std, double* v_std) {
  *u_std = m.scaling()[0].multiplier * m.scaling()[0].init_std;
  *v_std = m.dims()[1] * m.scaling()[1].multiplier * m.scaling()[1].init_std;
}

std::vector<double> gram_of(const Mlp& m) {
  const int d_in = m.dims()[0], n = m.dims()[1], d_out = m.dims()[2], k = d_in + d_out;
  std::vector<double> G(size_t(k) * size_t(k), 0.0);
  std::vector<double> row(static_cast<size_t>(k));
  for (int i = 0; i < n; i++) {
    for (int a = 0; a < d_in; a++) row[size_t(a)] = u_at(m, i, a);
    for (int b = 0; b < d_out; b++) row[size_t(d_in + b)] = v_at(m, i, b);
    for (int a = 0; a < k; a++)
      for (int b = 0; b < k; b++) G[size_t(a * k + b)] += row[size_t(a)] * row[size_t(b)];
  }
  for (double& g : G) g /= n;
  return G;
}

std::vector<double> gram_at_infinity(const Mlp& m) {
  const int d_in = m.dims()[0], d_out = m.dims()[2], k = d_in + d_out;
  double su, sv;
  mean_field_init_std(m, &su, &sv);
  std::vector<double> G(size_t(k) * size_t(k), 0.0);
  for (int a = 0; a < k; a++) G[size_t(a * k + a)] = a < d_in ? su * su : sv * sv;
  return G;
}

std::vector<double> linear_limit(const std::vector<double>& G, const double* x, const double* y, int count, int d_in,
                                 int d_out, double lr, int steps, std::vector<double>* final_P) {
  const int k = d_in + d_out;
  // P (k × d_in) and Q (k × d_out), row-major; GP = Ĝ P; the map A = Qᵀ Ĝ P (d_out × d_in) gives f = A ξ.
  std::vector<double> P(size_t(k * d_in), 0.0), Q(size_t(k * d_out), 0.0), GP(size_t(k * d_in));
  std::vector<double> A(size_t(d_out * d_in)), M(size_t(d_out * d_in)), P_next(P.size()), Q_next(Q.size());
  for (int a = 0; a < d_in; a++) P[size_t(a * d_in + a)] = 1;
  for (int b = 0; b < d_out; b++) Q[size_t((d_in + b) * d_out + b)] = 1;
  std::vector<double> trace(size_t(steps + 1) * size_t(count) * size_t(d_out));
  for (int t = 0;; t++) {
    for (int r = 0; r < k; r++)
      for (int c = 0; c < d_in; c++) {
        double s = 0;
        for (int j = 0; j < k; j++) s += G[size_t(r * k + j)] * P[size_t(j * d_in + c)];
        GP[size_t(r * d_in + c)] = s;
      }
    for (int o = 0; o < d_out; o++)
      for (int c = 0; c < d_in; c++) {
        double s = 0;
        for (int j = 0; j < k; j++) s += Q[size_t(j * d_out + o)] * GP[size_t(j * d_in + c)];
        A[size_t(o * d_in + c)] = s;
      }
    // f on every input, and M = (1/B) Σ_b (f_b − y_b) ξ_bᵀ.
    std::fill(M.begin(), M.end(), 0.0);
    for (int b = 0; b < count; b++) {
      const double* xi = x + long(b) * d_in;
      for (int o = 0; o < d_out; o++) {
        double f = 0;
        for (int c = 0; c < d_in; c++) f += A[size_t(o * d_in + c)] * xi[c];
        trace[(size_t(t) * size_t(count) + size_t(b)) * size_t(d_out) + size_t(o)] = f;
        const double g = (f - y[long(b) * d_out + o]) / count;
        for (int c = 0; c < d_in; c++) M[size_t(o * d_in + c)] += g * xi[c];
      }
    }
    if (t == steps) break;
    // P ← P − η Q M and Q ← Q − η P Mᵀ, both from the old P and Q (one simultaneous GD step).
    for (int r = 0; r < k; r++) {
      for (int c = 0; c < d_in; c++) {
        double s = 0;
        for (int o = 0; o < d_out; o++) s += Q[size_t(r * d_out + o)] * M[size_t(o * d_in + c)];
        P_next[size_t(r * d_in + c)] = P[size_t(r * d_in + c)] - lr * s;
      }
      for (int o = 0; o < d_out; o++) {
        double s = 0;
        for (int c = 0; c < d_in; c++) s += P[size_t(r * d_in + c)] * M[size_t(o * d_in + c)];
        Q_next[size_t(r * d_out + o)] = Q[size_t(r * d_out + o)] - lr * s;
      }
    }
    P.swap(P_next);
    Q.swap(Q_next);
  }
  if (final_P) *final_P = P;
  return trace;
}

std::vector<double> linear_limit_scalar(double xi, double y, double lr, int steps) {
  double A = 1, B = 0, C = 0, D = 1;
  std::vector<double> f;
  for (int t = 0;; t++) {
    f.push_back((A * C + B * D) * xi);
    if (t == steps) break;
    const double s = lr * (f.back() - y) * xi;  // η L′ξ
    const double A1 = A - s * C, B1 = B - s * D, C1 = C - s * A, D1 = D - s * B;
    A = A1, B = B1, C = C1, D = D1;
  }
  return f;
}
