#include "engine/model/gradient_loss.hpp"

#include <algorithm>

#include "engine/kernels/kernels.hpp"

GradientLoss::GradientLoss(const Mlp& model) {
  const std::vector<int>& dims = model.dims();
  const size_t rows = 2 * size_t(model.max_batch());
  int widest = 0;
  long largest = 0;
  for (int l = 0; l < model.layers(); l++) {
    const int fan_out = dims[size_t(l) + 1];
    pre_.emplace_back(rows * size_t(fan_out));
    if (l + 1 < model.layers()) {
      post_.emplace_back(rows * size_t(fan_out));
      d1_.emplace_back(rows / 2 * size_t(fan_out));
      d2_.emplace_back(rows / 2 * size_t(fan_out));
    }
    largest = std::max(largest, model.layer_size(l));
  }
  for (int d : dims) widest = std::max(widest, d);
  input_.assign(rows * size_t(dims[0]), 0.0);
  delta_.assign(rows * size_t(widest), 0.0);
  delta_prev_.assign(rows * size_t(widest), 0.0);
  scratch_.assign(size_t(largest), 0.0);
}

void GradientLoss::forward(const Mlp& model, const double* x, int batch) {
  const std::vector<int>& dims = model.dims();
  const int d_in = dims[0];
  std::copy(x, x + long(batch) * d_in, input_.begin());
  double* e = input_.data() + long(batch) * d_in;
  std::fill(e, e + long(batch) * d_in, 0.0);
  for (int i = 0; i < batch; i++) e[long(i) * d_in] = 1;  // ∂x/∂x on the first coordinate
  for (int l = 0; l < model.layers(); l++) {
    const int fan_in = dims[size_t(l)], fan_out = dims[size_t(l) + 1];
    const double* in = l == 0 ? input_.data() : post_[size_t(l) - 1].data();
    double* h = pre_[size_t(l)].data();
    matmul_nt(h, in, model.weights(l), 2 * batch, fan_out, fan_in, model.scaling()[size_t(l)].multiplier,
              scratch_.data());
    if (l + 1 == model.layers()) break;
    const long n = long(batch) * fan_out;
    double* z = post_[size_t(l)].data();
    double* d1 = d1_[size_t(l)].data();
    activation_forward(model.activation(), z, h, n, model.activation_param());
    activation_derivatives(model.activation(), d1, d2_[size_t(l)].data(), h, n, model.activation_param());
    for (long i = 0; i < n; i++) z[n + i] = d1[i] * h[n + i];  // u = phi′(h) t
  }
  tangent_out_ = pre_.back().data() + long(batch) * dims.back();
}

void GradientLoss::backward(Mlp& model, int batch) {
  const std::vector<int>& dims = model.dims();
  for (int l = model.layers() - 1; l >= 0; l--) {
    const int fan_in = dims[size_t(l)], fan_out = dims[size_t(l) + 1];
    const double m = model.scaling()[size_t(l)].multiplier;
    const double* in = l == 0 ? input_.data() : post_[size_t(l) - 1].data();
    // the value and the tangent rows both pass through W: one product sums their contributions
    matmul_tn(model.grads(l), delta_.data(), in, fan_out, fan_in, 2 * batch, m);
    if (l == 0) break;
    matmul_nn(delta_prev_.data(), delta_.data(), model.weights(l), 2 * batch, fan_in, fan_out, m);
    const long n = long(batch) * fan_in;
    const double* d1 = d1_[size_t(l) - 1].data();
    const double* d2 = d2_[size_t(l) - 1].data();
    const double* t = pre_[size_t(l) - 1].data() + n;
    for (long i = 0; i < n; i++) {
      const double dz = delta_prev_[size_t(i)], du = delta_prev_[size_t(n + i)];
      delta_[size_t(i)] = d1[i] * dz + d2[i] * t[i] * du;
      delta_[size_t(n + i)] = d1[i] * du;
    }
  }
  model.mask_gradients();
}

GradientLoss::Value GradientLoss::evaluate(Mlp& model, const double* x, const double* y, const double* dy, int batch,
                                           bool gradient) {
  forward(model, x, batch);
  const int outputs = model.dims().back();
  const long n = long(batch) * outputs;
  const double* f = pre_.back().data();
  Value v;
  for (long i = 0; i < n; i++) {
    const double r = f[i] - y[i], s = f[n + i] - dy[i];
    v.mse += 0.5 * r * r / batch;
    v.slope += 0.5 * s * s / batch;
    delta_[size_t(i)] = r / batch;
    delta_[size_t(n + i)] = s / batch;
  }
  if (gradient) backward(model, batch);
  return v;
}
