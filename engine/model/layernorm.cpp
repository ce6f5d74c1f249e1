#include "engine/model/layernorm.hpp"

#include <cmath>

void layernorm_forward(double* out, double* mean, double* rstd, const double* x, const double* g, const double* b,
                       long rows, int C) {
  for (long r = 0; r < rows; r++) {
    const double* xr = x + r * C;
    double m = 0;
    for (int i = 0; i < C; i++) m += xr[i];
    m /= C;
    double v = 0;
    for (int i = 0; i < C; i++) v += (xr[i] - m) * (xr[i] - m);
    const double s = 1.0 / std::sqrt(v / C + kLayerNormEps);
    double* o = out + r * C;
    for (int i = 0; i < C; i++) o[i] = (xr[i] - m) * s;
    if (g)
      for (int i = 0; i < C; i++) o[i] = o[i] * g[i] + b[i];
    mean[r] = m;
    rstd[r] = s;
  }
}

void layernorm_backward(double* dx, double* dg, double* db, const double* dout, const double* x, const double* g,
                        const double* mean, const double* rstd, long rows, int C) {
  for (long r = 0; r < rows; r++) {
    const double* xr = x + r * C;
    const double* d = dout + r * C;
    const double m = mean[r], s = rstd[r];
    // With n = normalized x and dn = dout·g:  dx = s · (dn − mean(dn) − n · mean(dn·n)).
    double dn_mean = 0, dn_n_mean = 0;
    for (int i = 0; i < C; i++) {
      const double n = (xr[i] - m) * s, dn = g ? d[i] * g[i] : d[i];
      dn_mean += dn;
      dn_n_mean += dn * n;
      if (!dg) continue;
      dg[i] += d[i] * n;
      db[i] += d[i];
    }
    dn_mean /= C;
    dn_n_mean /= C;
    double* dxr = dx + r * C;
    for (int i = 0; i < C; i++) {
      const double n = (xr[i] - m) * s;
      const double dn = g ? d[i] * g[i] : d[i];
      dxr[i] += s * (dn - dn_mean - n * dn_n_mean);
    }
  }
}
