// The data sets of the book's phenomena chapters (frequency principle, phase diagram, condensation):
//
//   function_1d:  n points of a 1-D target on an even grid (train) and a grid offset by half a step (test):
//                 sin135 = sin x + sin 3x + sin 5x, sin15 = sin x + sin 5x, step = sign(x), noisy_sin = sin x plus
//                 N(0, noise²) on the train points only (on [−π, π)); piecewise_relu = the chapter-8 target
//                 −ReLU(x) + ReLU(2(x+0.3)) − ReLU(1.5(x−0.4)) + ReLU(0.5(x−0.8)) on [−1, 1); four_points = the
//                 phase-diagram data x = (−0.8, −0.3, 0.2, 0.7), y = (0.6, 0.2, 0.5, −0.2), tested against their
//                 linear interpolation on [−1, 1] (so test loss says how near-linear the fit is).
//   boolean_cube: the 2^d corners of {±1}^d in a seeded random order, the first train_size to train and the next
//                 test_size to test; target parity Π x_j, or the control x₁·x₂.
//   sum_sin:      x_k ~ U[−4, 2], y = Σ_k 3.5 sin(5 x_k + 1) (initial condensation, 5-50-1).
//   image_2d:     a side × side grey image as a function of the pixel position (u, v) ∈ [−1, 1]² (FP-4): the odd
//                 columns train, the even ones test (side² / 2 points each, row by row). The image is drawn by
//                 image_2d_pixel: a smooth ramp, a bright disk, a dark square and a band of fine stripes, so it has
//                 low frequencies, sharp edges and detail.
//
// The grids make the DFT of a 1-D target exact at integer frequencies (engine/metrics/frequency.hpp).
#pragma once
#include "engine/base/rng.hpp"
#include "engine/task/task_config.hpp"

constexpr int kFourPoints = 4;
constexpr int kMaxCubeBits = 16;

Dataset function_1d_train(const TaskConfig& c, Rng& rng);
Dataset function_1d_test(const TaskConfig& c);
// The derivative of a smooth function_1d target (sin135, sin15) at x: the gradient-augmented loss fits it.
double function_1d_slope(Target t, double x);
// The interval a function_1d target lives on: [−π, π) or [−1, 1).
void function_1d_interval(Target t, double& lo, double& hi);
void boolean_cube(const TaskConfig& c, Rng& rng, Dataset& train, Dataset& test);
Dataset sum_sin(const TaskConfig& c, Rng& rng, int size);
// The side of an image_2d task's image: train_size = side² / 2 (0 if train_size is not of that form).
int image_2d_side(const TaskConfig& c);
double image_2d_pixel(double u, double v);
void image_2d(const TaskConfig& c, Dataset& train, Dataset& test);
// Subtracts the train set's mean target from train and test (task.center_target).
void center_targets(Dataset& train, Dataset& test);
