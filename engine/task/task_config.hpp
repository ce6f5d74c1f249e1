// What a task is: its kind, its target, its settings (TaskConfig) and the arrays a generator fills (Dataset).
// Apart from engine/task/task.hpp so that the generators of engine/task/ can use these types while task.cpp calls them.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/task/anchor_tasks.hpp"

enum class TaskKind { sin_regression, sectors, fashion_mnist, skipgram, anchor, function_1d, boolean_cube, sum_sin,
                      image_2d };
// The target of function_1d and boolean_cube (engine/task/phenomena_tasks.hpp); `none` for the other kinds.
enum class Target { none, sin135, sin15, step, noisy_sin, piecewise_relu, four_points, parity, x1x2 };

constexpr double kSkipgramSameCluster = 0.7;

struct TaskConfig {
  TaskKind kind = TaskKind::sin_regression;
  int input_dim = 8;
  int train_size = 64;
  int test_size = 256;
  double frequency = 2;  // sin_regression
  int classes = 3;       // sectors
  double twist = 0;      // sectors
  uint64_t seed = 0;     // data seed: the same data for every sweep member
  // anchor: token sequences for a Transformer (engine/task/anchor_tasks.hpp). train_size, test_size and seed above
  // are used; anchor.train_size, anchor.test_size and anchor.seed are overwritten by them.
  AnchorTaskConfig anchor;
  Target target = Target::none;  // function_1d, boolean_cube
  double noise = 0.3;            // noisy_sin: std of the noise on the train targets
  bool center_target = false;    // subtract the train mean of y (initial condensation with sigmoid)
  // Train on the gradient-augmented loss (book eq. 6.3, engine/model/gradient_loss.hpp): the MSE plus the MSE of ∂f/∂x
  // against the target's derivative (function_1d targets sin135, sin15)
  bool gradient_loss = false;
  double filter_width = 0.2;  // δ of the fp_filter metric's Gaussian, in input units (engine/metrics/frequency_filter.hpp)
};

struct Dataset {
  int size = 0, input_dim = 0, outputs = 0;
  std::vector<double> x;    // size × input_dim
  std::vector<double> y;    // size × outputs (regression)
  std::vector<int> labels;  // size (classification)
};
