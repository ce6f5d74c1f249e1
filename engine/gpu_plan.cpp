#include "engine/gpu_plan.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

const char* gpu_kernel_name(GpuKernel k) {
  switch (k) {
    case GpuKernel::gemm_nn: return "gemm_nn";
    case GpuKernel::gemm_nt: return "gemm_nt";
    case GpuKernel::gemm_tn: return "gemm_tn";
    case GpuKernel::bias_act_forward: return "bias_act_forward";
    case GpuKernel::bias_act_backward: return "bias_act_backward";
    case GpuKernel::reduce_sum: return "reduce_sum";
    case GpuKernel::reduce_rows: return "reduce_rows";
    case GpuKernel::gather_rows: return "gather_rows";
    case GpuKernel::mse: return "mse";
    case GpuKernel::cross_entropy: return "cross_entropy";
    case GpuKernel::softmax_forward: return "softmax_forward";
    case GpuKernel::softmax_backward: return "softmax_backward";
    case GpuKernel::layernorm_forward: return "layernorm_forward";
    case GpuKernel::layernorm_backward: return "layernorm_backward";
    case GpuKernel::layernorm_param_grad: return "layernorm_param_grad";
    case GpuKernel::attention_forward: return "attention_forward";
    case GpuKernel::attention_backward_q: return "attention_backward_q";
    case GpuKernel::attention_backward_kv: return "attention_backward_kv";
    case GpuKernel::sgd: return "sgd";
    case GpuKernel::adam: return "adam";
  }
  return "?";
}

json::Value plan_to_json(const GpuPlan& plan) {
  using json::Value;
  Value root = Value::make_object();
  Value sizes = Value::make_array();
  for (long s : plan.buffers) sizes.push(Value::make_number(double(s)));
  root.set("buffers", sizes);
  Value phases = Value::make_array();
  for (const auto& phase : plan.phases) {
    Value ops = Value::make_array();
    for (const GpuOp& op : phase) {
      Value o = Value::make_object();
      o.set("kernel", Value::make_string(gpu_kernel_name(op.kernel)));
      Value b = Value::make_array(), i = Value::make_array(), f = Value::make_array();
      for (int id : op.buffers) b.push(Value::make_number(id));
      for (uint32_t x : op.ints) i.push(Value::make_number(x));
      for (float x : op.floats) f.push(Value::make_number(double(x)));
      o.set("buffers", b);
      o.set("ints", i);
      o.set("floats", f);
      ops.push(o);
    }
    phases.push(ops);
  }
  root.set("phases", phases);
  return root;
}

namespace {

constexpr float kGeluK = 0.7978845608028654f, kGeluC = 0.044715f;

float act_forward(uint32_t code, float h) {
  switch (code) {
    case 0: return h > 0 ? h : 0.0f;
    case 1: return std::tanh(h);
    case 2: return 0.5f * h * (1 + std::tanh(kGeluK * (h + kGeluC * h * h * h)));
    case 4: return 1 / (1 + std::exp(-h));
    default: return h;
  }
}

float act_backward(uint32_t code, float dx, float h, float x) {
  switch (code) {
    case 0: return h > 0 ? dx : 0.0f;
    case 1: return dx * (1 - x * x);
    case 2: {
      const float t = std::tanh(kGeluK * (h + kGeluC * h * h * h));
      const float dt = (1 - t * t) * kGeluK * (1 + 3 * kGeluC * h * h);
      return dx * (0.5f * (1 + t) + 0.5f * h * dt);
    }
    case 4: return dx * x * (1 - x);
    default: return dx;
  }
}

// C = alpha op(A) op(B); op(A) m×k, op(B) k×n.
void gemm(const GpuOp& op, std::vector<std::vector<float>>& d, bool ta, bool tb) {
  const uint32_t m = op.ints[0], n = op.ints[1], k = op.ints[2];
  const float* A = d[size_t(op.buffers[0])].data();
  const float* B = d[size_t(op.buffers[1])].data();
  float* C = d[size_t(op.buffers[2])].data();
  for (uint32_t i = 0; i < m; i++)
    for (uint32_t j = 0; j < n; j++) {
      float s = 0;
      for (uint32_t p = 0; p < k; p++) s += (ta ? A[p * m + i] : A[i * k + p]) * (tb ? B[j * k + p] : B[p * n + j]);
      C[i * n + j] = op.floats[0] * s;
    }
}

void run_op(const GpuOp& op, std::vector<std::vector<float>>& d) {
  auto buf = [&](int i) { return d[size_t(op.buffers[size_t(i)])].data(); };
  const auto& u = op.ints;
  const auto& f = op.floats;
  switch (op.kernel) {
    case GpuKernel::gemm_nn: return gemm(op, d, false, false);
    case GpuKernel::gemm_nt: return gemm(op, d, false, true);
    case GpuKernel::gemm_tn: return gemm(op, d, true, false);
    case GpuKernel::bias_act_forward: {
      float *bias = buf(0), *h = buf(1), *x = buf(2);
      for (uint32_t i = 0; i < u[0] * u[1]; i++) {
        if (u[3]) h[i] += bias[i % u[1]];
        x[i] = act_forward(u[2], h[i]);
      }
      return;
    }
    case GpuKernel::bias_act_backward: {
      float *dx = buf(0), *h = buf(1), *x = buf(2), *dh = buf(3);
      for (uint32_t i = 0; i < u[0] * u[1]; i++) dh[i] = act_backward(u[2], dx[i], h[i], x[i]);
      return;
    }
    case GpuKernel::reduce_sum: {
      float s = 0;
      for (uint32_t i = 0; i < u[0]; i++) s += buf(0)[i];
      buf(2)[uint32_t(buf(1)[0]) + u[1]] = f[0] * s;
      return;
    }
    case GpuKernel::reduce_rows:
      for (uint32_t c = 0; c < u[1]; c++) {
        float s = 0;
        for (uint32_t r = 0; r < u[0]; r++) s += buf(0)[r * u[1] + c];
        buf(1)[c] = s;
      }
      return;
    case GpuKernel::gather_rows:
      for (uint32_t i = 0; i < u[0] * u[1]; i++) buf(2)[i] = buf(0)[uint32_t(buf(1)[i / u[1]]) * u[1] + i % u[1]];
      return;
    case GpuKernel::mse: {
      const float batch = float(u[0]);
      for (uint32_t i = 0; i < u[0] * u[1]; i++) {
        const float r = buf(0)[i] - buf(1)[i];
        buf(2)[i] = r / batch;
        buf(3)[i] = r * r / (2 * batch);
      }
      return;
    }
    case GpuKernel::cross_entropy: {
      const uint32_t classes = u[1];
      const float batch = float(u[0]);
      for (uint32_t i = 0; i < u[0]; i++) {
        const float* z = buf(0) + i * classes;
        float zmax = z[0];
        for (uint32_t k = 1; k < classes; k++) zmax = std::fmax(zmax, z[k]);
        float norm = 0;
        for (uint32_t k = 0; k < classes; k++) norm += std::exp(z[k] - zmax);
        const float log_norm = std::log(norm) + zmax;
        const uint32_t label = uint32_t(buf(1)[i]);
        buf(3)[i] = (log_norm - z[label]) / batch;
        for (uint32_t k = 0; k < classes; k++)
          buf(2)[i * classes + k] = (std::exp(z[k] - log_norm) - (k == label ? 1.0f : 0.0f)) / batch;
      }
      return;
    }
    case GpuKernel::sgd: {
      float *g = buf(0), *w = buf(1), *m = buf(2);
      for (uint32_t i = 0; i < u[0]; i++) {
        float gi = g[i] + f[2] * w[i];
        if (u[1]) gi = m[i] = f[1] * m[i] + gi;
        w[i] -= f[0] * gi;
      }
      return;
    }
    case GpuKernel::adam: {
      float *g = buf(0), *step = buf(1), *w = buf(2), *m = buf(3), *v = buf(4);
      const bool decoupled = u[1] != 0;
      for (uint32_t i = 0; i < u[0]; i++) {
        const float gi = decoupled ? g[i] : g[i] + f[4] * w[i];
        m[i] = f[1] * m[i] + (1 - f[1]) * gi;
        v[i] = f[2] * v[i] + (1 - f[2]) * gi * gi;
        const float update = (m[i] / step[1]) / (std::sqrt(v[i] / step[2]) + f[3]);
        w[i] -= f[0] * (decoupled ? update + f[4] * w[i] : update);
      }
      return;
    }
    default:
      std::fprintf(stderr, "run_reference: no CPU reference for kernel %s\n", gpu_kernel_name(op.kernel));
      std::abort();
  }
}

}  // namespace

void run_reference(const GpuPlan& plan, int phase, std::vector<std::vector<float>>& data) {
  for (const GpuOp& op : plan.phases[size_t(phase)]) run_op(op, data);
}
