#include "engine/model/attention.hpp"

#include "engine/base/detmath.hpp"

void attention_forward(double* y, double* probs, const double* q, const double* k, const double* v,
                       const AttentionShape& s, const AttentionEdit* edit) {
  const int T = s.T, dh = s.d_head, W = s.width();
  for (int b = 0; b < s.batch; b++)
    for (int h = 0; h < s.heads; h++) {
      double* P = probs + (long(b) * s.heads + h) * T * T;
      const long base = long(b) * T * W + long(h) * dh;
      for (int i = 0; i < T; i++) {
        const double* qi = q + base + long(i) * W;
        double* row = P + long(i) * T;
        double max = -1e300;
        for (int j = 0; j <= i; j++) {
          const double* kj = k + base + long(j) * W;
          double dot = 0;
          for (int c = 0; c < dh; c++) dot += qi[c] * kj[c];
          row[j] = s.scale * dot;
          if (row[j] > max) max = row[j];
        }
        double sum = 0;
        for (int j = 0; j <= i; j++) sum += row[j] = detmath::exp(row[j] - max);
        for (int j = 0; j <= i; j++) row[j] /= sum;
        for (int j = i + 1; j < T; j++) row[j] = 0;  // the causal mask: no weight on later tokens
      }
      if (edit && *edit) (*edit)(b, h, P, T);
      for (int i = 0; i < T; i++) {
        double* yi = y + base + long(i) * W;
        for (int c = 0; c < dh; c++) yi[c] = 0;
        for (int j = 0; j <= i; j++) {
          const double p = P[long(i) * T + j];
          const double* vj = v + base + long(j) * W;
          for (int c = 0; c < dh; c++) yi[c] += p * vj[c];
        }
      }
    }
}

void attention_backward(double* dq, double* dk, double* dv, const double* dy, const double* probs, const double* q,
                        const double* k, const double* v, const AttentionShape& s, double* dprobs) {
  const int T = s.T, dh = s.d_head, W = s.width();
  for (int b = 0; b < s.batch; b++)
    for (int h = 0; h < s.heads; h++) {
      const double* P = probs + (long(b) * s.heads + h) * T * T;
      const long base = long(b) * T * W + long(h) * dh;
      for (int i = 0; i < T; i++) {
        double* dqi = dq + base + long(i) * W;
        double* dki = dk + base + long(i) * W;
        double* dvi = dv + base + long(i) * W;
        for (int c = 0; c < dh; c++) dqi[c] = dki[c] = dvi[c] = 0;
      }
      // dP = dY Vᵀ and dV = Pᵀ dY (causal: j ≤ i only).
      for (int i = 0; i < T; i++) {
        const double* dyi = dy + base + long(i) * W;
        for (int j = 0; j <= i; j++) {
          const double* vj = v + base + long(j) * W;
          double* dvj = dv + base + long(j) * W;
          const double p = P[long(i) * T + j];
          double dot = 0;
          for (int c = 0; c < dh; c++) {
            dot += dyi[c] * vj[c];
            dvj[c] += p * dyi[c];
          }
          dprobs[long(i) * T + j] = dot;
        }
      }
      // Softmax backward: dS_ij = P_ij (dP_ij − Σ_j' P_ij' dP_ij'); then dQ = scale · dS K, dK = scale · dSᵀ Q.
      for (int i = 0; i < T; i++) {
        double inner = 0;
        for (int j = 0; j <= i; j++) inner += P[long(i) * T + j] * dprobs[long(i) * T + j];
        const double* qi = q + base + long(i) * W;
        double* dqi = dq + base + long(i) * W;
        for (int j = 0; j <= i; j++) {
          const double ds = s.scale * P[long(i) * T + j] * (dprobs[long(i) * T + j] - inner);
          const double* kj = k + base + long(j) * W;
          double* dkj = dk + base + long(j) * W;
          for (int c = 0; c < dh; c++) {
            dqi[c] += ds * kj[c];
            dkj[c] += ds * qi[c];
          }
        }
      }
    }
}
