// The width-∞ curve of an experiment's train loss, drawn beside its finite widths (experiments E6–E8).
//
// Which curve depends on the experiment, and the engine only draws one where it knows the limit exactly or
// says plainly what it approximates:
//   - one hidden layer, linear activation, mean-field form (MFP, or μP, the same net for one hidden layer):
//     the exact P/Q recursion of engine/analysis/infinite_width.hpp with the Gram matrix at n = ∞ (E7);
//   - one hidden layer, nonlinear, mean-field form, one output, input dimension ≤ 3: Gauss–Hermite quadrature
//     over a neuron's initial (u, v), 20 nodes per dimension (E8; for ReLU the kink makes it converge slowly);
//   - two hidden layers of one width under μP (SGD), a φ with a continuous derivative, one output, ≤ 4 train
//     points and ≤ 60 steps: the DMFT of engine/analysis/dmft.hpp, Monte Carlo with up to 2^14 draws per layer
//     (E10; the label names the count: the curve carries that Monte Carlo error, ~ a width-2^14 net's);
//   - a kernel-regime parametrization (NTP, SP with LR ∝ 1/n, ...; TP4 r > 0): kernel gradient descent with the
//     tangent kernel at init (E6). The engine computes the empirical kernel of the widest member, seed 0, so the
//     label names that width: it is the n = ∞ curve up to that network's own O(n^-1/2) fluctuation.
// All four need plain full-batch SGD (no momentum, no weight decay) on the square loss; otherwise `why` says
// which condition fails, so the page can tell the student why no ∞ curve is drawn.
#pragma once
#include <string>
#include <vector>

#include "engine/spec/spec.hpp"
#include "engine/task/task.hpp"

struct LimitCurve {
  std::string label;         // e.g. "n=inf (exact linear limit), lr=0.1"
  double lr = 0;             // the learning rate it belongs to (one curve per learning rate of the sweep)
  std::vector<int> steps;    // the steps a run of this spec records
  std::vector<double> train_loss;  // at those steps
};

// The limit curves of `spec` (one per learning rate of its sweep) on `data`, or none with the reason in `why`.
std::vector<LimitCurve> limit_curves(const ExperimentSpec& spec, const TaskData& data, std::string* why);
