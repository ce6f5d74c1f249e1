// Neurons of a one-hidden-layer net f(x) = Σ_k a_k σ(w_kᵀx) seen as points (Luo, Xu et al., 2021:
// the phase diagram and condensation of two-layer ReLU nets).
//
// Neuron k is its input weights w_k (row k of W₁, the folded-in bias last) and its output weight a_k (column k of
// W₂), both with their forward multipliers, so the numbers describe the function, not the bookkeeping.
// Condensation: many neurons share a few directions w_k/‖w_k‖ (up to sign: σ(−z) is another neuron's job).
#pragma once
#include <vector>

#include "engine/model/mlp.hpp"

struct NeuronPoint {
  double angle = 0;      // atan2 of w_k's last two coordinates: atan2(b_k, w_k) for 1-D input with bias
  double amplitude = 0;  // A_k = |a_k| ‖w_k‖
};
// Neuron k's point, computed from the weights in place (no allocation: a record step calls it for every neuron).
NeuronPoint neuron_point(const Mlp& m, int k);
std::vector<NeuronPoint> neuron_scatter(const Mlp& m);

// D(u, v) = uᵀv / (‖u‖‖v‖) of the input weight vectors, rows and columns sorted by the entries of the leading
// eigenvector of D (so condensed groups form blocks). `order` (optional) receives the sorted neuron indices.
std::vector<double> cosine_matrix(const Mlp& m, std::vector<int>* order = nullptr);

// Share of the total amplitude held by the neurons whose direction lies within |cos| ≥ threshold of the largest
// neuron's direction: two antipodal groups (one line) hold it all at full condensation.
double antipodal_share(const Mlp& m, double threshold = 0.9);

// The number of lines (directions up to sign) that hold `mass` of the amplitude: greedily take the largest
// remaining neuron and every neuron within |cos| ≥ threshold of it, until `mass` is covered.
int condensed_lines(const Mlp& m, double threshold = 0.9, double mass = 0.95);

// The two measures above with their buffers sized once, for a run that records them every few steps: after the
// constructor nothing allocates (the free functions above build a probe per call).
class CondensationProbe {
 public:
  explicit CondensationProbe(const Mlp& m);
  double antipodal_share(const Mlp& m, double threshold = 0.9);
  int condensed_lines(const Mlp& m, double threshold = 0.9, double mass = 0.95);

 private:
  void load(const Mlp& m);  // the effective neurons of m into the buffers below
  double cosine(int i, int j) const;
  int count_ = 0, dim_ = 0;
  std::vector<double> w_;          // count × dim, effective input weights
  std::vector<double> amplitude_;  // count: A_k = |a_k| ‖w_k‖
  std::vector<double> norm_;       // count: ‖w_k‖
  std::vector<char> taken_;        // count: condensed_lines' bookkeeping
};

// The embedding principle's split: a net one neuron wider whose neuron k is copied, with output weights α a_k and
// (1 − α) a_k; same multipliers and init stds as m, so the output is the same function (up to rounding).
Mlp split_neuron(const Mlp& m, int k, double alpha);
