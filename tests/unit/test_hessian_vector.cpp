// HessianVectorProduct (the R-operator) against central differences of the gradient, where those are accurate: a
// smooth activation, three weight matrices with forward multipliers. For ReLU, against the Hessian written out for
// one hidden layer, and central differences across a kink shown to be what went wrong before.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/metrics/hessian_vector.hpp"
#include "engine/model/loss.hpp"

namespace {

std::vector<double> gradient_at(Mlp& m, const std::vector<double>& theta, const std::vector<double>& x,
                                const std::vector<double>& y, int count) {
  m.params() = theta;
  std::vector<double> dout(y.size());
  mse_loss(m.forward(x.data(), count), y.data(), count, m.dims().back(), dout.data());
  m.backward(dout.data(), count);
  return m.grads();
}

std::vector<double> central_difference(Mlp& m, const std::vector<double>& v, const std::vector<double>& x,
                                       const std::vector<double>& y, int count, double eps) {
  const std::vector<double> theta = m.params();
  std::vector<double> plus = theta, minus = theta;
  for (size_t i = 0; i < theta.size(); i++) plus[i] += eps * v[i], minus[i] -= eps * v[i];
  const std::vector<double> g_plus = gradient_at(m, plus, x, y, count);
  const std::vector<double> g_minus = gradient_at(m, minus, x, y, count);
  m.params() = theta;
  std::vector<double> hv(theta.size());
  for (size_t i = 0; i < hv.size(); i++) hv[i] = (g_plus[i] - g_minus[i]) / (2 * eps);
  return hv;
}

std::vector<double> random_vector(size_t n, Rng& rng) {
  std::vector<double> v(n);
  for (double& e : v) e = rng.normal();
  return v;
}

}  // namespace

// With and without a bias in every layer (multipliers ≠ 1, drawn away from their zero init).
TEST(HessianVectorProduct, MatchesCentralDifferencesForASmoothDeepNet) {
  for (bool biases : {false, true})
  for (Activation act : {Activation::tanh, Activation::sin, Activation::x2_tanh}) {
    std::vector<TensorScaling> scaling(3), bias_scaling;
    for (size_t l = 0; l < 3; l++) scaling[l] = {0.7, 0.5 + 0.4 * double(l), 1};
    if (biases) bias_scaling = {{0, 1.3, 1}, {0, 0.6, 1}, {0, 1.1, 1}};
    Mlp m({3, 7, 5, 2}, act, scaling, 4, bias_scaling);
    Rng rng(3);
    m.init(rng);
    if (biases)
      for (int l = 0; l < m.layers(); l++)
        for (int j = 0; j < m.dims()[size_t(l) + 1]; j++) m.bias(l)[j] = 0.3 * rng.normal();
    const std::vector<double> x = random_vector(12, rng), y = random_vector(8, rng);
    const std::vector<double> v = random_vector(m.params().size(), rng);
    const std::vector<double> theta = m.params();
    HessianVectorProduct product(m, x.data(), y.data(), 4);
    std::vector<double> hv(v.size());
    product.apply(v.data(), hv.data());
    EXPECT_EQ(m.params(), theta);
    const std::vector<double> fd = central_difference(m, v, x, y, 4, 1e-5);
    for (size_t i = 0; i < hv.size(); i++) EXPECT_NEAR(hv[i], fd[i], 1e-7 * (1 + std::fabs(fd[i]))) << i;
  }
}

// f = Σ_k a_k ReLU(w_k · x̃) on n points: H v written out (the Gauss-Newton term JᵀJ/n plus the residual's
// coupling of a_k and w_k), as in tests/crosscheck/phase_gd_reference.py.
TEST(HessianVectorProduct, IsTheReluHessianOffTheKinks) {
  const int width = 6, n = 4;
  std::vector<TensorScaling> scaling{{0.8, 1, 1}, {0.8, 1, 1}};
  Mlp m({2, width, 1}, Activation::relu, scaling, n);
  Rng rng(5);
  m.init(rng);
  const std::vector<double> x{-0.8, 1, -0.3, 1, 0.2, 1, 0.7, 1}, y{0.6, 0.2, 0.5, -0.2};
  const std::vector<double> v = random_vector(m.params().size(), rng);
  HessianVectorProduct product(m, x.data(), y.data(), n);
  std::vector<double> hv(v.size());
  product.apply(v.data(), hv.data());

  const double* W = m.weights(0);
  const double* a = m.weights(1);
  const double* dW = v.data();
  const double* da = v.data() + 2 * width;
  std::vector<double> expect(v.size(), 0.0);
  for (int i = 0; i < n; i++) {
    double f = 0, df = 0;
    for (int k = 0; k < width; k++) {
      const double z = W[2 * k] * x[2 * i] + W[2 * k + 1] * x[2 * i + 1];
      const double dz = dW[2 * k] * x[2 * i] + dW[2 * k + 1] * x[2 * i + 1];
      f += a[k] * std::max(z, 0.0);
      df += da[k] * std::max(z, 0.0) + (z > 0 ? a[k] * dz : 0);
    }
    const double r = f - y[size_t(i)];
    for (int k = 0; k < width; k++) {
      const double z = W[2 * k] * x[2 * i] + W[2 * k + 1] * x[2 * i + 1];
      if (z <= 0) continue;
      const double dz = dW[2 * k] * x[2 * i] + dW[2 * k + 1] * x[2 * i + 1];
      expect[size_t(2 * width + k)] += (df * z + r * dz) / n;
      for (int j = 0; j < 2; j++) expect[size_t(2 * k + j)] += (df * a[k] + r * da[k]) * x[2 * i + j] / n;
    }
  }
  for (size_t i = 0; i < hv.size(); i++) EXPECT_NEAR(hv[i], expect[i], 1e-13) << i;

  // Move unit 0's preactivation on point 2 to 1e-9 above its kink: the exact product does not change, a central
  // difference with ε ≫ 1e-9 along v crosses the kink and is off by far more than the product itself.
  double* w0 = m.weights(0);
  w0[1] = 1e-9 - w0[0] * x[4];
  product.apply(v.data(), hv.data());
  const std::vector<double> fd = central_difference(m, v, x, y, n, 1e-5);
  double hv_norm = 0, error = 0;
  for (size_t i = 0; i < hv.size(); i++) hv_norm += hv[i] * hv[i], error += (fd[i] - hv[i]) * (fd[i] - hv[i]);
  EXPECT_GT(std::sqrt(error), std::sqrt(hv_norm));
}
