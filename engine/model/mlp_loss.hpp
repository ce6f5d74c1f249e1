// The loss of an Mlp on rows of a task's data: the mean square error for regression, the cross-entropy for
// classification. The one place that picks between them, for the training step, the metrics and gd_auto.
#pragma once
#include "engine/model/mlp.hpp"
#include "engine/task/task.hpp"

// `size` rows of inputs x; targets y (regression) or labels (classification).
struct Rows {
  const double* x;
  const double* y;
  const int* labels;
  int size;
};

// The loss of outputs f (rows × data.outputs) on `rows`; dout = ∂L/∂f (may be null); `correct` (optional) counts
// argmax hits of a classification task.
double loss_of_outputs(const double* f, const Rows& rows, const TaskData& data, double* dout, int* correct);

// The mean loss of m on the whole of `d` (a split of `data`), in chunks its buffers hold; `correct` as above.
double dataset_loss(Mlp& m, const Dataset& d, const TaskData& data, int* correct);
