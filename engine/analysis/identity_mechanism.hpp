// The two attention operations by which a 2-layer Transformer solves the identity task 3x→x (the book's §12.7.1):
//
//   shift      layer 1 moves each token's information one position on: at the key's row (the query at the
//              position right after the anchor 3) some head puts its largest weight on the anchor;
//   broadcast  layer 2 copies from the key to the output: the last row puts most of its mass on the key's position.
//
// Both are measured on a set of identity sequences (each holds exactly one 3 at positions 1..n−1, the key after it)
// as the fraction of sequences that show them, from the model's post-softmax attention.
#pragma once
#include "engine/model/transformer.hpp"
#include "engine/task/anchor_tasks.hpp"

struct IdentityMechanism {
  // Fraction of sequences whose last row in block `broadcast_layer`, averaged over heads, puts ≥ 0.5 on the key.
  double broadcast = 0;
  // Fraction of sequences where, at the key's row in block `shift_layer`, some head's argmax is the anchor.
  double shift = 0;
  int sequences = 0;
};

// 0-based blocks: the book's layer 1 is block 0, layer 2 block 1.
IdentityMechanism identity_mechanism(Transformer& m, const AnchorSet& set, int shift_layer = 0,
                                     int broadcast_layer = 1);
