// The "anchor" tab for Transformer runs on the anchor-function tasks: the γ (× λ) phase plot of chapter 13, and for
// one chosen run its attention maps per layer and head on a chosen sequence, the cosine matrix of layer 1's W_Q
// rows, and the PCA of its number-token embeddings. Drawn each frame from the runner's state.
#pragma once
#include "engine/run/runner.hpp"

struct AnchorView {
  int run = 0;       // which sweep member the maps show
  int set = 0;       // 0: in-distribution test, 1: OOD test
  int sequence = 0;  // index into that set
  int layer = 0, head = 0;
};

void anchor_view(AnchorView& v, Runner& runner);
