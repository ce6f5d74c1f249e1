// The token embeddings of an anchor-function Transformer as a picture and as a number (the book's Fig 13.12: in
// phase 3, small initialization, the PCA of the key tokens' embeddings is an ordered lattice: x sits between x − 1
// and x + 1).
#pragma once
#include <vector>

#include "engine/model/transformer.hpp"

struct EmbeddingProjection {
  std::vector<double> xy;  // count × 2: each token's coordinates on the first two principal axes
  double explained[2] = {0, 0};  // fraction of the variance along each axis
};

// PCA of the token embeddings of ids first..last (inclusive), centred; deterministic power iteration.
EmbeddingProjection embedding_pca(const Transformer& m, int first, int last);

// How well the first principal axis orders the key tokens 20..100 by their number: |Spearman's ρ| between each
// token's coordinate on that axis and the token's value (1: the axis lists them in order; ~0.1 for random
// embeddings of 81 tokens).
double embedding_order(const Transformer& m);
