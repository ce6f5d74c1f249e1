// Analyses of an anchor-function Transformer that the page draws (the book's chapter 13): the cosine matrix of
// W_Q's rows (condensation, Fig 13.10) and the 2-D PCA of token embeddings (Fig 13.12). Plain computations on the
// model's parameters; the page only draws the numbers.
#pragma once
#include <vector>

#include "engine/model/transformer.hpp"

// cos(row i, row j) of block `layer`'s W_Q (heads·d_head rows of d_model), rows × rows, row-major.
std::vector<double> query_cosine_matrix(const Transformer& m, int layer);

struct EmbeddingProjection {
  std::vector<double> xy;  // count × 2: each token's coordinates on the first two principal axes
  double explained[2] = {0, 0};  // fraction of the variance along each axis
};

// PCA of the token embeddings of ids first..last (inclusive), centred; deterministic power iteration.
EmbeddingProjection embedding_pca(const Transformer& m, int first, int last);
