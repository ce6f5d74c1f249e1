#include "engine/analysis/anchor_analysis.hpp"

#include <cmath>

std::vector<double> query_cosine_matrix(const Transformer& m, int layer) {
  const TransformerTensor* wq = m.find_tensor("h" + std::to_string(layer) + ".wq");
  const double* w = m.params().data() + wq->offset;
  const int rows = wq->rows, cols = wq->cols;
  std::vector<double> norm(size_t(rows), 0.0), out(size_t(rows) * size_t(rows), 0.0);
  for (int i = 0; i < rows; i++) {
    double s = 0;
    for (int c = 0; c < cols; c++) s += w[long(i) * cols + c] * w[long(i) * cols + c];
    norm[size_t(i)] = std::sqrt(s);
  }
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < rows; j++) {
      double dot = 0;
      for (int c = 0; c < cols; c++) dot += w[long(i) * cols + c] * w[long(j) * cols + c];
      const double n = norm[size_t(i)] * norm[size_t(j)];
      out[size_t(i) * size_t(rows) + size_t(j)] = n > 0 ? dot / n : 0;
    }
  return out;
}
