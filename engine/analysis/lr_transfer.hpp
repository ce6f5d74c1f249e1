// Learning-rate transfer (Tensor Programs V), experiment E2: the best learning rate η* per width.
// Under μP η* stays put as the width grows (tune small, train big); under SP with Adam it shrinks.
//
// η* is read off a loss-vs-log₂η curve on a grid of half-octave steps: take the grid minimum, fit a parabola in
// log₂η through it and its two neighbours, and take the vertex. The loss is the mean training loss over the
// epoch (the series batch_loss_mean at its final record): final test losses are too noisy for this.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/run/runner.hpp"

struct LrCurve {
  int width = 0;
  int depth = 0;               // a residual MLP's number of blocks; 0 for every other model
  std::vector<double> lrs;     // ascending
  std::vector<double> losses;  // per lr: mean over seeds (+inf when a run diverged)
  int grid_min = -1;           // index of the smallest loss
  double best_lr = 0;          // η*: the parabola's vertex, or the grid minimum when a neighbour is missing
  double best_loss = 0;        // the parabola's value at the vertex (or the grid minimum's loss)
  bool bracketed = false;      // the grid minimum has a finite neighbour on each side (the parabola was used)
};

// Vertex (x, y) of the parabola through three points with distinct x. False when it is not convex.
bool parabola_vertex(const double x[3], const double y[3], double& vx, double& vy);

// Sets grid_min, best_lr, best_loss and bracketed from lrs and losses.
void fit_best_lr(LrCurve& c);

// One member's point: its width, learning rate and final value of a series (+inf when it did not finish), and its
// depth (a residual MLP's number of blocks, else 0).
struct LrPoint {
  int width = 0;
  double lr = 0, value = 0;
  int depth = 0;
};
// One curve per (width, depth): the points of each (width, depth, lr) averaged over seeds, η* fitted.
std::vector<LrCurve> lr_curves(const std::vector<LrPoint>& points);
// The same from a finished sweep (width × depth × lr × seeds), from the final value of `series`.
std::vector<LrCurve> lr_curves(const Runner& runner, const std::string& series = "batch_loss_mean");

// Finds η* of one net without a wide fixed grid: runs the spec (every seed of its sweep, metric
// batch_loss_mean added; its sweep must hold at most one width and one depth) at start·2^(k/2) for k = −1, 0, 1
// and walks the half-octave grid downhill until the grid minimum has both neighbours, or `max_points` learning
// rates were tried. The curve is unimodal in practice (too small: slow; too large: unstable), so this finds the
// grid minimum a full grid would. fashion_mnist_dir: as for Runner.
LrCurve bracket_best_lr(const ExperimentSpec& spec, const std::string& fashion_mnist_dir, double start,
                        int max_points = 12);
