// Analyses of an anchor-function Transformer that the page draws (the book's chapter 13): the cosine matrix of
// W_Q's rows (condensation, Fig 13.10) and the 2-D PCA of token embeddings (Fig 13.12,
// engine/metrics/embedding_lattice.hpp, which a run also records as a metric). Plain computations on the model's
// parameters; the page only draws the numbers.
#pragma once
#include <vector>

#include "engine/metrics/embedding_lattice.hpp"
#include "engine/model/transformer.hpp"

// cos(row i, row j) of block `layer`'s W_Q (heads·d_head rows of d_model), rows × rows, row-major.
std::vector<double> query_cosine_matrix(const Transformer& m, int layer);
