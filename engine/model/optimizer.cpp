#include "engine/model/optimizer.hpp"

#include <algorithm>
#include <cmath>

#include "engine/base/detmath.hpp"

Optimizer::Optimizer(OptimizerConfig config, std::vector<TensorSlice> tensors, long total_size)
    : config_(config), tensors_(std::move(tensors)), total_size_(total_size) {
  if (config_.kind == OptimizerKind::gd_auto) config_.momentum = 0;  // plain GD
}

// Adam's moments are two more copies of θ: sized at the first step (or the first read of them), so that a model
// which never trains (the page's replica of a run trained in a worker) never holds them.
void Optimizer::size_state() {
  state_sized_ = true;
  const bool plain = config_.kind == OptimizerKind::sgd || config_.kind == OptimizerKind::gd_auto;
  if (!plain || config_.momentum != 0) m_.assign(size_t(total_size_), 0.0);
  if (!plain) v_.assign(size_t(total_size_), 0.0);
}

std::vector<double>& Optimizer::first_moment() {
  if (!state_sized_) size_state();
  return m_;
}

std::vector<double>& Optimizer::second_moment() {
  if (!state_sized_) size_state();
  return v_;
}

namespace {

struct AdamStep {
  double beta1, beta2, bias1, bias2, eps, lr, decay;
};

// One Adam (decoupled: AdamW) update of n parameters. A branch-free body over unaliased arrays, so that the compiler
// vectorizes it: the three divisions and the square root, which bound this loop, then run two or more lanes at a
// time. Each lane performs the same IEEE operations in the same order, so the bits do not change.
template <bool kDecoupled>
void adam_update(const AdamStep& a, double* __restrict w, const double* __restrict g, double* __restrict m,
                 double* __restrict v, long n) {
  for (long i = 0; i < n; i++) {
    const double gi = kDecoupled ? g[i] : g[i] + a.decay * w[i];
    m[i] = a.beta1 * m[i] + (1 - a.beta1) * gi;
    v[i] = a.beta2 * v[i] + (1 - a.beta2) * gi * gi;
    const double update = (m[i] / a.bias1) / (std::sqrt(v[i] / a.bias2) + a.eps);
    w[i] -= a.lr * (kDecoupled ? update + a.decay * w[i] : update);
  }
}

}  // namespace

double lr_schedule_factor(const LrSchedule& s, long step) {
  if (step < s.warmup_steps) return double(step + 1) / s.warmup_steps;
  if (!s.cosine || s.total_steps <= s.warmup_steps) return 1;
  const double progress = std::min(1.0, double(step - s.warmup_steps) / (s.total_steps - s.warmup_steps));
  return s.final_fraction + (1 - s.final_fraction) * 0.5 * (1 + detmath::cos(detmath::kPi * progress));
}

double clip_grad_norm(double* grads, long size, double max_norm) {
  double sum = 0;
  for (long i = 0; i < size; i++) sum += grads[i] * grads[i];
  const double norm = std::sqrt(sum);
  const double coef = max_norm / (norm + 1e-6);
  if (coef < 1)
    for (long i = 0; i < size; i++) grads[i] *= coef;
  return norm;
}

void Optimizer::step(double* params, const double* grads) { step(params, grads, 1.0); }

void Optimizer::step(double* params, const double* grads, double lr_factor) {
  if (!state_sized_) size_state();
  t_++;
  const OptimizerConfig& c = config_;
  for (const TensorSlice& s : tensors_) {
    // lr_factor 1 leaves c.lr unchanged bit for bit: the unscheduled path is the one the MLP tests pin down.
    const double lr = c.lr * lr_factor * s.lr_multiplier;
    const double decay = s.decay ? c.weight_decay : 0.0;
    double* w = params + s.offset;
    const double* g = grads + s.offset;
    if (c.kind == OptimizerKind::sgd || c.kind == OptimizerKind::gd_auto) {
      for (long i = 0; i < s.size; i++) {
        double gi = g[i] + decay * w[i];
        if (!m_.empty()) gi = m_[size_t(s.offset + i)] = c.momentum * m_[size_t(s.offset + i)] + gi;
        w[i] -= lr * gi;
      }
      continue;
    }
    // Adam: bias-corrected moments. pow() of integers is replaced by exp(t log β) from detmath for determinism.
    const double bias1 = 1 - detmath::exp(double(t_) * detmath::log(c.beta1));
    const double bias2 = 1 - detmath::exp(double(t_) * detmath::log(c.beta2));
    const AdamStep a{c.beta1, c.beta2, bias1, bias2, c.eps, lr, decay};
    if (c.kind == OptimizerKind::adamw)
      adam_update<true>(a, w, g, m_.data() + s.offset, v_.data() + s.offset, s.size);
    else
      adam_update<false>(a, w, g, m_.data() + s.offset, v_.data() + s.offset, s.size);
  }
}
