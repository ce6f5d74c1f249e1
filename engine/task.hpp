// Synthetic tasks: seeded, deterministic generators of train and test sets.
//
//   sin_regression: x uniform on the unit sphere in R^d, y = sin(frequency · x·v), v a fixed random unit vector
//                   (spec/parametrizations.md §7: d = 8, frequency 2).
//   sectors:        2-D classification, x uniform in the unit disk (radius ≥ 0.1), class = angular sector
//                   (k sectors), twisted by `twist` radians per unit radius into spiral arms.
#pragma once
#include <cstdint>
#include <vector>

enum class TaskKind { sin_regression, sectors };

const char* task_name(TaskKind k);

struct TaskConfig {
  TaskKind kind = TaskKind::sin_regression;
  int input_dim = 8;
  int train_size = 64;
  int test_size = 256;
  double frequency = 2;  // sin_regression
  int classes = 3;       // sectors
  double twist = 0;      // sectors
  uint64_t seed = 0;     // data seed: the same data for every sweep member
};

struct Dataset {
  int size = 0, input_dim = 0, outputs = 0;
  std::vector<double> x;    // size × input_dim
  std::vector<double> y;    // size × outputs (regression)
  std::vector<int> labels;  // size (classification)
};

struct TaskData {
  Dataset train, test;
  bool classification = false;
  int outputs = 1;  // network outputs: 1 for regression, `classes` for classification
};

TaskData make_task(const TaskConfig& config);

// Append a constant 1 to every input: folds a first-layer bias into W_1 (x → (x, 1)).
void append_constant_input(Dataset& d);
