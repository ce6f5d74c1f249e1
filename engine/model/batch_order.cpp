#include "engine/model/batch_order.hpp"

#include <algorithm>

BatchOrder::BatchOrder(Rng batch_rng, int rows, bool shuffle_first)
    : rng(batch_rng), order(size_t(rows)), pos(shuffle_first ? rows : 0) {
  for (int i = 0; i < rows; i++) order[size_t(i)] = i;
}

const int* BatchOrder::next(int batch) {
  const int rows = int(order.size());
  if (pos + batch > rows) {  // new epoch: Fisher–Yates shuffle
    for (int i = rows - 1; i > 0; i--) std::swap(order[size_t(i)], order[rng.below(uint64_t(i) + 1)]);
    pos = 0;
  }
  const int* next_rows = &order[size_t(pos)];
  pos += batch;
  return next_rows;
}
