#include "engine/analysis/gd_trace.hpp"

#include <algorithm>

#include "engine/model/loss.hpp"

std::vector<double> gd_output_trace(Mlp& m, const OptimizerConfig& opt, const double* x, const double* y, int count,
                                    int steps) {
  const int outputs = m.dims().back();
  const long per_step = long(count) * outputs;
  std::vector<double> trace(size_t(steps + 1) * size_t(per_step));
  std::vector<double> dout(static_cast<size_t>(per_step));
  Optimizer optimizer(opt, layer_slices(m), long(m.params().size()));
  for (int t = 0;; t++) {
    const double* f = m.forward(x, count);
    std::copy(f, f + per_step, trace.begin() + long(t) * per_step);
    if (t == steps) break;
    mse_loss(f, y, count, outputs, dout.data());
    m.backward(dout.data(), count);
    optimizer.step(m.params().data(), m.grads().data());
  }
  return trace;
}
