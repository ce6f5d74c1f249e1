#include "engine/metrics/hessian.hpp"

#include <algorithm>
#include <cmath>

#include "engine/kernels/activation.hpp"
#include "engine/model/loss.hpp"

namespace {

double norm(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

}  // namespace

HessianProbe::HessianProbe(Mlp& m, const double* x, const double* y, int count)
    : m_(m), x_(x), y_(y), count_(count) {
  const size_t p = m.params().size();
  sqrt_lr_.resize(p);
  for (const TensorSlice& t : layer_slices(m))
    std::fill_n(sqrt_lr_.begin() + t.offset, t.size, std::sqrt(t.lr_multiplier));
  if (activation_has_second_derivative(m.activation()))
    exact_ = std::make_unique<HessianVectorProduct>(m, x, y, count);
  theta_.resize(p);
  g_plus_.resize(p);
  v_.resize(p);
  hv_.resize(p);
  scaled_v_.resize(p);
  dout_.resize(size_t(count) * size_t(m.dims().back()));
  // A fixed start vector (not the run's seed), so a given θ always gives the same estimate.
  uint64_t z = 0x2545F4914F6CDD1Dull;
  for (double& e : v_) {
    z ^= z << 13, z ^= z >> 7, z ^= z << 17;
    e = double(z >> 11) / 9007199254740992.0 - 0.5;
  }
}

double HessianProbe::gradient() {
  const double* f = m_.forward(x_, count_);
  const double loss = mse_loss(f, y_, count_, m_.dims().back(), dout_.data());
  m_.backward(dout_.data(), count_);
  return loss;
}

void HessianProbe::product(const double* v, double* hv) {
  const size_t p = m_.params().size();
  for (size_t i = 0; i < p; i++) scaled_v_[i] = sqrt_lr_[i] * v[i];
  std::vector<double>& h_scaled_v = m_.grads();  // H P^½ v, masked as a gradient is (ASI's fixed weights)
  if (exact_) exact_->apply(scaled_v_.data(), h_scaled_v.data());
  else central_difference(scaled_v_.data(), h_scaled_v.data());
  m_.mask_gradients();
  for (size_t i = 0; i < p; i++) hv[i] = sqrt_lr_[i] * h_scaled_v[i];
}

void HessianProbe::central_difference(const double* v, double* hv) {
  std::vector<double>& theta = m_.params();
  std::copy(theta.begin(), theta.end(), theta_.begin());
  const double eps = 1e-5 * std::max(norm(theta_), 1e-6);
  const size_t p = theta.size();
  for (size_t i = 0; i < p; i++) theta[i] = theta_[i] + eps * v[i];
  gradient();
  std::copy(m_.grads().begin(), m_.grads().end(), g_plus_.begin());
  for (size_t i = 0; i < p; i++) theta[i] = theta_[i] - eps * v[i];
  gradient();
  for (size_t i = 0; i < p; i++) hv[i] = (g_plus_[i] - m_.grads()[i]) / (2 * eps);
  std::copy(theta_.begin(), theta_.end(), theta.begin());
}

double HessianProbe::power_iteration(double shift, int max_iters, double tol) {
  double lambda = 0;
  for (int it = 0; it < max_iters; it++) {
    const double n = norm(v_);
    if (n == 0) return 0;
    for (double& e : v_) e /= n;
    product(v_.data(), hv_.data());
    double rayleigh = 0;
    for (size_t i = 0; i < v_.size(); i++) {
      hv_[i] += shift * v_[i];
      rayleigh += v_[i] * hv_[i];
    }
    std::swap(v_, hv_);
    const bool converged = it > 0 && std::fabs(rayleigh - lambda) <= tol * std::fabs(rayleigh);
    lambda = rayleigh;
    if (converged) break;
  }
  return lambda;
}

double HessianProbe::top_eigenvalue(int max_iters, double tol) {
  // Power iteration finds the eigenvalue of largest magnitude; near a saddle (small init) that can be a negative
  // one. Then H̃ + |λ| I has only eigenvalues ≥ 0 and its largest is λ_max + |λ|.
  const double largest = power_iteration(0, max_iters, tol);
  if (largest >= 0) return largest;
  const double shift = -largest;
  return power_iteration(shift, max_iters, tol) - shift;
}

std::vector<double> HessianProbe::matrix() {
  const size_t p = m_.params().size();
  std::vector<double> h(p * p), e(p, 0.0), column(p);
  for (size_t j = 0; j < p; j++) {
    e[j] = 1;
    product(e.data(), column.data());
    e[j] = 0;
    for (size_t i = 0; i < p; i++) h[i * p + j] = column[i];
  }
  for (size_t i = 0; i < p; i++)  // symmetrize: the differences are symmetric only up to rounding
    for (size_t j = i + 1; j < p; j++) h[i * p + j] = h[j * p + i] = 0.5 * (h[i * p + j] + h[j * p + i]);
  return h;
}
