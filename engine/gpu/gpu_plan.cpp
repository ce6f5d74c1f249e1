#include "engine/gpu/gpu_plan.hpp"

#include <cmath>

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
    case GpuKernel::layernorm_forward: return "layernorm_forward";
    case GpuKernel::layernorm_backward: return "layernorm_backward";
    case GpuKernel::layernorm_param_grad: return "layernorm_param_grad";
    case GpuKernel::attention_forward: return "attention_forward";
    case GpuKernel::attention_backward_q: return "attention_backward_q";
    case GpuKernel::attention_backward_kv: return "attention_backward_kv";
    case GpuKernel::sgd: return "sgd";
    case GpuKernel::adam: return "adam";
    case GpuKernel::embedding_forward: return "embedding_forward";
    case GpuKernel::embedding_backward: return "embedding_backward";
    case GpuKernel::take_last_rows: return "take_last_rows";
    case GpuKernel::put_last_rows: return "put_last_rows";
    case GpuKernel::add_into: return "add_into";
    case GpuKernel::sum_squares: return "sum_squares";
    case GpuKernel::clip_scale: return "clip_scale";
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

// LayerNorm and attention: as shaders/layernorm_*.wgsl and shaders/attention_*.wgsl, one row or query at a time.
void layernorm_forward(const GpuOp& op, std::vector<std::vector<float>>& d) {
  const uint32_t rows = op.ints[0], cols = op.ints[1];
  const float *x = d[size_t(op.buffers[0])].data(), *gamma = d[size_t(op.buffers[1])].data(),
              *beta = d[size_t(op.buffers[2])].data();
  float *y = d[size_t(op.buffers[3])].data(), *mean = d[size_t(op.buffers[4])].data(),
        *rstd = d[size_t(op.buffers[5])].data();
  for (uint32_t r = 0; r < rows; r++) {
    const float* xr = x + r * cols;
    float s = 0, q = 0;
    for (uint32_t c = 0; c < cols; c++) s += xr[c];
    const float mu = s / float(cols);
    for (uint32_t c = 0; c < cols; c++) q += (xr[c] - mu) * (xr[c] - mu);
    const float rs = 1 / std::sqrt(q / float(cols) + op.floats[0]);
    for (uint32_t c = 0; c < cols; c++) y[r * cols + c] = (xr[c] - mu) * rs * gamma[c] + beta[c];
    mean[r] = mu;
    rstd[r] = rs;
  }
}

void layernorm_backward(const GpuOp& op, std::vector<std::vector<float>>& d) {
  const uint32_t rows = op.ints[0], cols = op.ints[1];
  const float *x = d[size_t(op.buffers[0])].data(), *gamma = d[size_t(op.buffers[1])].data(),
              *dy = d[size_t(op.buffers[2])].data(), *mean = d[size_t(op.buffers[3])].data(),
              *rstd = d[size_t(op.buffers[4])].data();
  float* dx = d[size_t(op.buffers[5])].data();
  for (uint32_t r = 0; r < rows; r++) {
    const uint32_t base = r * cols;
    float s0 = 0, s1 = 0;
    for (uint32_t c = 0; c < cols; c++) {
      const float g = dy[base + c] * gamma[c];
      s0 += g;
      s1 += g * (x[base + c] - mean[r]) * rstd[r];
    }
    s0 /= float(cols);
    s1 /= float(cols);
    for (uint32_t c = 0; c < cols; c++) {
      const float xhat = (x[base + c] - mean[r]) * rstd[r];
      dx[base + c] = rstd[r] * (dy[base + c] * gamma[c] - s0 - xhat * s1);
    }
  }
}

struct AttentionDims {
  uint32_t batch, T, heads, D, C;
  explicit AttentionDims(const GpuOp& op)
      : batch(op.ints[0]), T(op.ints[1]), heads(op.ints[2]), D(op.ints[3]), C(op.ints[2] * op.ints[3]) {}
  uint32_t row(uint32_t b, uint32_t t, uint32_t h) const { return (b * T + t) * C + h * D; }
};

void attention_forward(const GpuOp& op, std::vector<std::vector<float>>& d) {
  const AttentionDims a(op);
  const float *q = d[size_t(op.buffers[0])].data(), *k = d[size_t(op.buffers[1])].data(),
              *v = d[size_t(op.buffers[2])].data();
  float *P = d[size_t(op.buffers[3])].data(), *o = d[size_t(op.buffers[4])].data();
  for (uint32_t id = 0; id < a.batch * a.heads * a.T; id++) {
    const uint32_t i = id % a.T, h = (id / a.T) % a.heads, b = id / (a.T * a.heads);
    float* pr = P + id * a.T;
    float m = -3.4e38f;
    for (uint32_t j = 0; j <= i; j++) {
      float s = 0;
      for (uint32_t c = 0; c < a.D; c++) s += q[a.row(b, i, h) + c] * k[a.row(b, j, h) + c];
      pr[j] = s * op.floats[0];
      m = std::fmax(m, pr[j]);
    }
    float z = 0;
    for (uint32_t j = 0; j <= i; j++) z += pr[j] = std::exp(pr[j] - m);
    for (uint32_t j = 0; j < a.T; j++) pr[j] = j <= i ? pr[j] / z : 0.0f;
    for (uint32_t c = 0; c < a.D; c++) {
      float acc = 0;
      for (uint32_t j = 0; j <= i; j++) acc += pr[j] * v[a.row(b, j, h) + c];
      o[a.row(b, i, h) + c] = acc;
    }
  }
}

void attention_backward_q(const GpuOp& op, std::vector<std::vector<float>>& d) {
  const AttentionDims a(op);
  const float *k = d[size_t(op.buffers[0])].data(), *v = d[size_t(op.buffers[1])].data(),
              *P = d[size_t(op.buffers[2])].data(), *dO = d[size_t(op.buffers[3])].data();
  float *dS = d[size_t(op.buffers[4])].data(), *dQ = d[size_t(op.buffers[5])].data();
  for (uint32_t id = 0; id < a.batch * a.heads * a.T; id++) {
    const uint32_t i = id % a.T, h = (id / a.T) % a.heads, b = id / (a.T * a.heads);
    const float* pr = P + id * a.T;
    float* ds = dS + id * a.T;
    float dsum = 0;
    for (uint32_t j = 0; j <= i; j++) {
      float dp = 0;
      for (uint32_t c = 0; c < a.D; c++) dp += dO[a.row(b, i, h) + c] * v[a.row(b, j, h) + c];
      ds[j] = dp;
      dsum += dp * pr[j];
    }
    for (uint32_t j = 0; j < a.T; j++) ds[j] = j <= i ? pr[j] * (ds[j] - dsum) : 0.0f;
    for (uint32_t c = 0; c < a.D; c++) {
      float acc = 0;
      for (uint32_t j = 0; j <= i; j++) acc += ds[j] * k[a.row(b, j, h) + c];
      dQ[a.row(b, i, h) + c] = op.floats[0] * acc;
    }
  }
}

void attention_backward_kv(const GpuOp& op, std::vector<std::vector<float>>& d) {
  const AttentionDims a(op);
  const float *q = d[size_t(op.buffers[0])].data(), *P = d[size_t(op.buffers[1])].data(),
              *dS = d[size_t(op.buffers[2])].data(), *dO = d[size_t(op.buffers[3])].data();
  float *dK = d[size_t(op.buffers[4])].data(), *dV = d[size_t(op.buffers[5])].data();
  for (uint32_t id = 0; id < a.batch * a.heads * a.T; id++) {
    const uint32_t j = id % a.T, bh = id / a.T, h = bh % a.heads, b = bh / a.heads;
    for (uint32_t c = 0; c < a.D; c++) {
      float dk = 0, dv = 0;
      for (uint32_t i = j; i < a.T; i++) {
        const uint32_t pij = (bh * a.T + i) * a.T + j, row = a.row(b, i, h) + c;
        dk += dS[pij] * q[row];
        dv += P[pij] * dO[row];
      }
      dK[a.row(b, j, h) + c] = op.floats[0] * dk;
      dV[a.row(b, j, h) + c] = dv;
    }
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
        if (u[3]) h[i] += f[0] * bias[i % u[1]];
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
        buf(1)[c] = f[0] * s;
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
        const float lr = u.size() > 2 && u[2] ? f[0] * step[3] : f[0];
        w[i] -= lr * (decoupled ? update + f[4] * w[i] : update);
      }
      return;
    }
    case GpuKernel::layernorm_forward: return layernorm_forward(op, d);
    case GpuKernel::layernorm_backward: return layernorm_backward(op, d);
    case GpuKernel::layernorm_param_grad: {
      const float *x = buf(0), *dy = buf(1), *mean = buf(2), *rstd = buf(3);
      for (uint32_t c = 0; c < u[1]; c++) {
        float dg = 0, db = 0;
        for (uint32_t r = 0; r < u[0]; r++) {
          const float g = dy[r * u[1] + c];
          dg += g * (x[r * u[1] + c] - mean[r]) * rstd[r];
          db += g;
        }
        buf(4)[c] = dg;
        buf(5)[c] = db;
      }
      return;
    }
    case GpuKernel::attention_forward: return attention_forward(op, d);
    case GpuKernel::attention_backward_q: return attention_backward_q(op, d);
    case GpuKernel::attention_backward_kv: return attention_backward_kv(op, d);
    case GpuKernel::embedding_forward: {
      const uint32_t T = u[1], D = u[2];
      for (uint32_t e = 0; e < u[0] * D; e++) {
        const uint32_t n = e / D, i = e % D;
        buf(3)[e] = f[0] * buf(1)[uint32_t(buf(0)[n]) * D + i] + f[1] * buf(2)[(n % T) * D + i];
      }
      return;
    }
    case GpuKernel::embedding_backward: {
      const uint32_t rows = u[0], T = u[1], D = u[2], vocab = u[3];
      const float *g = buf(0), *tokens = buf(1);
      for (uint32_t e = 0; e < vocab * D; e++) {
        float s = 0;
        for (uint32_t n = 0; n < rows; n++)
          if (uint32_t(tokens[n]) == e / D) s += g[n * D + e % D];
        buf(2)[e] = f[0] * s;
      }
      for (uint32_t e = 0; e < T * D; e++) {
        float s = 0;
        for (uint32_t n = e / D; n < rows; n += T) s += g[n * D + e % D];
        buf(3)[e] = f[1] * s;
      }
      return;
    }
    case GpuKernel::take_last_rows:
      for (uint32_t e = 0; e < u[0] * u[2]; e++) buf(1)[e] = buf(0)[((e / u[2] + 1) * u[1] - 1) * u[2] + e % u[2]];
      return;
    case GpuKernel::put_last_rows:
      for (uint32_t e = 0; e < u[0] * u[1] * u[2]; e++) {
        const uint32_t n = e / u[2];
        buf(1)[e] = n % u[1] == u[1] - 1 ? buf(0)[(n / u[1]) * u[2] + e % u[2]] : 0.0f;
      }
      return;
    case GpuKernel::add_into:
      for (uint32_t i = 0; i < u[0]; i++) buf(1)[i] += buf(0)[i];
      return;
    case GpuKernel::sum_squares: {
      float s = 0;
      for (uint32_t i = 0; i < u[0]; i++) s += buf(0)[i] * buf(0)[i];
      buf(1)[0] = (u[1] ? buf(1)[0] : 0.0f) + s;
      return;
    }
    case GpuKernel::clip_scale: {
      const float coef = f[0] / (std::sqrt(buf(0)[0]) + 1e-6f);
      if (coef < 1)
        for (uint32_t i = 0; i < u[0]; i++) buf(1)[i] *= coef;
      return;
    }
  }
}

}  // namespace

void run_reference(const GpuPlan& plan, int phase, std::vector<std::vector<float>>& data) {
  for (const GpuOp& op : plan.phases[size_t(phase)]) run_op(op, data);
}
