// Experiment E9 (TP4's Word2Vec figure): the PCA of learned word embeddings for NTK, finite widths and ∞.
//
// On the skipgram task (engine/task/task.hpp) the embedding of word i is the first layer's response to its one-hot
// input, h¹(e_i) = W₁ e_i: column i of the effective W₁. What PCA shows depends only on the Gram matrix of those
// columns, (1/n) W₁ᵀ W₁, and that matrix also exists at n = ∞: for a linear one-hidden-layer net in mean-field form
// (μP = MFP) W₁ = [U₀ V₀] P_t (engine/analysis/infinite_width.hpp), so the Gram matrix is P_tᵀ Ĝ P_t with Ĝ at
// infinity. Under NTK the embeddings barely move from their random init (they move by O(n^-1/2), not at all at ∞), so
// their PCA shows no clusters; under μP the words of a cluster, which share contexts, come together — more so at larger
// width, where the random part of the init averages out, and most at ∞.
//
// Separation of the two clusters in the PCA plane: ‖μ₀ − μ₁‖² / (mean squared distance of a point to its cluster's
// centroid). Its chance level comes from the same points with the cluster labels shuffled.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/model/mlp.hpp"
#include "engine/spec/spec.hpp"
#include "engine/task/task.hpp"

// (1/n) W₁ᵀ W₁ (d_in × d_in, row-major) of m's current effective first layer.
std::vector<double> embedding_gram(const Mlp& m);

// The same Gram matrix at n = ∞ after `steps` full-batch SGD steps at learning rate lr on `train`, for a net
// initialized like m (one hidden layer, linear, mean-field form: linear_mean_field(m) must hold).
std::vector<double> embedding_gram_at_infinity(const Mlp& m, const Dataset& train, double lr, int steps);

// The top-2 principal coordinates of `count` points given their Gram matrix (kernel PCA: the Gram matrix is
// centred, then eigendecomposed by cyclic Jacobi): x and y per point, the first component along x.
struct PcaPlane {
  std::vector<double> x, y;
};
PcaPlane pca_plane(const std::vector<double>& gram, int count);

// ‖μ₀ − μ₁‖² / mean within-cluster squared distance of the points, clusters from `labels` (0 or 1).
double cluster_separation(const PcaPlane& p, const std::vector<int>& labels);

// The separation of the same points under `shuffles` random relabelings (same cluster sizes): mean and the 95th
// percentile. A separation at or below the percentile is "at chance".
struct ChanceLevel {
  double mean = 0, p95 = 0;
};
ChanceLevel chance_separation(const PcaPlane& p, const std::vector<int>& labels, int shuffles, uint64_t seed);

// The skipgram clusters of the `words` words of the vocabulary: 0 for the first half, 1 for the second.
std::vector<int> skipgram_clusters(int words);
