#include "engine/metrics/hessian_vector.hpp"

#include <algorithm>

#include "engine/kernels/activation.hpp"
#include "engine/kernels/kernels.hpp"

namespace {

void add(double* y, const double* x, long n) {
  for (long i = 0; i < n; i++) y[i] += x[i];
}

}  // namespace

HessianVectorProduct::HessianVectorProduct(Mlp& m, const double* x, const double* y, int count)
    : m_(m), x_(x), y_(y), count_(count) {
  const std::vector<int>& dims = m.dims();
  const int widest = *std::max_element(dims.begin(), dims.end());
  for (int l = 1; l + 1 < int(dims.size()); l++) {
    const size_t n = size_t(count) * size_t(dims[size_t(l)]);
    for (auto* buffers : {&phi_, &d1_, &d2_, &r_h_, &r_phi_}) buffers->emplace_back(n);
  }
  r_out_.resize(size_t(count) * size_t(dims.back()));
  for (auto* buffer : {&delta_, &r_delta_, &da_, &r_da_}) buffer->resize(size_t(count) * size_t(widest));
  long largest = 0;
  for (int l = 0; l < m.layers(); l++) largest = std::max(largest, m.layer_size(l));
  scratch_.resize(size_t(largest));
  tmp_.resize(std::max(delta_.size(), scratch_.size()));
}

void HessianVectorProduct::apply(const double* v, double* hv) {
  forward_tangent(v);
  backward_tangent(v, hv);
}

// The model's forward pass for h_l, then φ, φ′, φ″ of every hidden layer and R{h_l}, R{a_l+1} along v.
void HessianVectorProduct::forward_tangent(const double* v) {
  m_.forward(x_, count_);
  const std::vector<int>& dims = m_.dims();
  const double* theta = m_.params().data();
  for (int l = 0; l < m_.layers(); l++) {
    const int in = dims[size_t(l)], out = dims[size_t(l) + 1];
    const double c = m_.scaling()[size_t(l)].multiplier;
    const double* V = v + (m_.weights(l) - theta);
    const bool last = l + 1 == m_.layers();
    double* r_h = last ? r_out_.data() : r_h_[size_t(l)].data();
    matmul_nt(r_h, layer_input(l), V, count_, out, in, c, scratch_.data());  // c a_l Vᵀ
    if (l > 0) {                                                          // + c R{a_l} Wᵀ
      matmul_nt(tmp_.data(), r_phi_[size_t(l) - 1].data(), m_.weights(l), count_, out, in, c, scratch_.data());
      add(r_h, tmp_.data(), long(count_) * out);
    }
    if (m_.has_biases()) {  // + c′ V_b on every row
      const double cb = m_.bias_scaling()[size_t(l)].multiplier;
      const double* Vb = v + m_.bias_offset(l);
      for (int i = 0; i < count_; i++)
        for (int j = 0; j < out; j++) r_h[size_t(i) * size_t(out) + size_t(j)] += cb * Vb[j];
    }
    if (last) break;
    const long n = long(count_) * out;
    const double* h = m_.preactivation(l);
    activation_forward(m_.activation(), phi_[size_t(l)].data(), h, n, m_.activation_param());
    activation_derivatives(m_.activation(), d1_[size_t(l)].data(), d2_[size_t(l)].data(), h, n,
                           m_.activation_param());
    for (long i = 0; i < n; i++) r_phi_[size_t(l)][size_t(i)] = d1_[size_t(l)][size_t(i)] * r_h[i];
  }
}

// δ and R{δ} from the output back to the input, writing R{∇W_l} into hv layer by layer.
void HessianVectorProduct::backward_tangent(const double* v, double* hv) {
  const std::vector<int>& dims = m_.dims();
  const double* theta = m_.params().data();
  const int outputs = dims.back();
  const double* f = m_.preactivation(m_.layers() - 1);
  for (long i = 0; i < long(count_) * outputs; i++) {
    delta_[size_t(i)] = (f[i] - y_[i]) / count_;
    r_delta_[size_t(i)] = r_out_[size_t(i)] / count_;
  }
  for (int l = m_.layers() - 1; l >= 0; l--) {
    const int in = dims[size_t(l)], out = dims[size_t(l) + 1];
    const double c = m_.scaling()[size_t(l)].multiplier;
    const double* W = m_.weights(l);
    const double* V = v + (W - theta);
    double* r_grad = hv + (W - theta);
    matmul_tn(r_grad, r_delta_.data(), layer_input(l), out, in, count_, c);  // c R{δ}ᵀ a_l
    if (m_.has_biases()) {                                                   // R{∇b} = c′ Σ_rows R{δ}
      const double cb = m_.bias_scaling()[size_t(l)].multiplier;
      double* r_grad_b = hv + m_.bias_offset(l);
      for (int j = 0; j < out; j++) {
        double sum = 0;
        for (int i = 0; i < count_; i++) sum += r_delta_[size_t(i) * size_t(out) + size_t(j)];
        r_grad_b[j] = cb * sum;
      }
    }
    if (l == 0) break;                                                       // (R{a_0} = 0)
    matmul_tn(tmp_.data(), delta_.data(), r_phi_[size_t(l) - 1].data(), out, in, count_, c);  // + c δᵀ R{a_l}
    add(r_grad, tmp_.data(), long(out) * in);
    matmul_nn(da_.data(), delta_.data(), W, count_, in, out, c);     // δa = c δ W
    matmul_nn(r_da_.data(), r_delta_.data(), W, count_, in, out, c);  // R{δa} = c (R{δ} W + δ V)
    matmul_nn(tmp_.data(), delta_.data(), V, count_, in, out, c);
    const long n = long(count_) * in;
    add(r_da_.data(), tmp_.data(), n);
    const std::vector<double>& d1 = d1_[size_t(l) - 1];
    const std::vector<double>& d2 = d2_[size_t(l) - 1];
    const std::vector<double>& r_h = r_h_[size_t(l) - 1];
    for (long i = 0; i < n; i++) {
      const size_t k = size_t(i);
      r_delta_[k] = d2[k] * r_h[k] * da_[k] + d1[k] * r_da_[k];
      delta_[k] = d1[k] * da_[k];
    }
  }
}
