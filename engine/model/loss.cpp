#include "engine/model/loss.hpp"

#include "engine/base/detmath.hpp"

double mse_loss(const double* f, const double* y, int batch, int outputs, double* dout) {
  const long n = long(batch) * outputs;
  double sum = 0;
  for (long i = 0; i < n; i++) {
    const double r = f[i] - y[i];
    sum += r * r;
    if (dout) dout[i] = r / batch;
  }
  return sum / (2.0 * batch);
}

double cross_entropy_loss(const double* f, const int* labels, int batch, int classes, double* dout, int* correct) {
  double sum = 0;
  int hits = 0;
  for (int i = 0; i < batch; i++) {
    const double* z = f + long(i) * classes;
    int argmax = 0;
    for (int k = 1; k < classes; k++)
      if (z[k] > z[argmax]) argmax = k;
    hits += argmax == labels[i];
    // Subtract the max so exp never overflows.
    double norm = 0;
    for (int k = 0; k < classes; k++) norm += detmath::exp(z[k] - z[argmax]);
    const double log_norm = detmath::log(norm) + z[argmax];
    sum += log_norm - z[labels[i]];
    if (dout)
      for (int k = 0; k < classes; k++)
        dout[long(i) * classes + k] = (detmath::exp(z[k] - log_norm) - (k == labels[i] ? 1.0 : 0.0)) / batch;
  }
  if (correct) *correct = hits;
  return sum / batch;
}
