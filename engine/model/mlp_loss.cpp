#include "engine/model/mlp_loss.hpp"

#include <algorithm>

#include "engine/model/loss.hpp"

double loss_of_outputs(const double* f, const Rows& rows, const TaskData& data, double* dout, int* correct) {
  if (data.classification) return cross_entropy_loss(f, rows.labels, rows.size, data.outputs, dout, correct);
  return mse_loss(f, rows.y, rows.size, data.outputs, dout);
}

double dataset_loss(Mlp& m, const Dataset& d, const TaskData& data, int* correct) {
  double sum = 0;
  int hits = 0;
  for (int start = 0; start < d.size; start += m.max_batch()) {
    const int n = std::min(m.max_batch(), d.size - start);
    const Rows rows{&d.x[size_t(start) * size_t(d.input_dim)],
                    data.classification ? nullptr : &d.y[size_t(start) * size_t(d.outputs)],
                    data.classification ? &d.labels[size_t(start)] : nullptr, n};
    int chunk_hits = 0;
    sum += loss_of_outputs(m.forward(rows.x, n), rows, data, nullptr, &chunk_hits) * n;
    hits += chunk_hits;
  }
  if (correct) *correct = hits;
  return sum / d.size;
}
