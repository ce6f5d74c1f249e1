// Mini-batches drawn from shuffled epochs of a train set's rows: each new epoch is a Fisher–Yates shuffle of the row
// indices with the member's batch RNG. A value type: a copy is a checkpoint of where the batches stand (a member
// that lost its GPU rewinds to one).
#pragma once
#include <vector>

#include "engine/base/rng.hpp"

struct BatchOrder {
  BatchOrder() = default;
  // The rows 0…rows−1 in order; with `shuffle_first` the first next() starts a new (shuffled) epoch.
  BatchOrder(Rng batch_rng, int rows, bool shuffle_first);
  // The next `batch` row indices (a new epoch when fewer than `batch` remain in this one).
  const int* next(int batch);

  Rng rng{0};
  std::vector<int> order;  // the rows of the current epoch
  int pos = 0;             // where the next mini-batch starts
};
