#include "engine/analysis/identity_mechanism.hpp"

#include <algorithm>

namespace {

// The 0-based position of the identity task's anchor 3, or -1.
int anchor_position(const int* tokens, int T) {
  for (int t = 0; t < T; t++)
    if (tokens[t] == 3) return t;
  return -1;
}

// P[row, ·] of head h of sequence b, in attention laid out batch × heads × T × T.
const double* attention_row(const double* probs, int b, int h, int row, int heads, int T) {
  return probs + ((long(b) * heads + h) * T + row) * T;
}

bool shows_broadcast(const double* probs, int b, int heads, int T, int key) {
  double mass = 0;
  for (int h = 0; h < heads; h++) mass += attention_row(probs, b, h, T - 1, heads, T)[key];
  return mass / heads >= 0.5;
}

bool shows_shift(const double* probs, int b, int heads, int T, int anchor) {
  const int key = anchor + 1;
  for (int h = 0; h < heads; h++) {
    const double* row = attention_row(probs, b, h, key, heads, T);
    if (std::max_element(row, row + key + 1) - row == anchor) return true;  // causal: columns 0..key
  }
  return false;
}

}  // namespace

IdentityMechanism identity_mechanism(Transformer& m, const AnchorSet& set, int shift_layer, int broadcast_layer) {
  const int T = set.seq_len, heads = m.config().heads;
  IdentityMechanism r;
  int broadcast = 0, shift = 0;
  for (int start = 0; start < set.size; start += m.max_batch()) {
    const int n = std::min(m.max_batch(), set.size - start);
    const int* tokens = &set.tokens[size_t(start) * size_t(T)];
    m.forward(tokens, n);
    for (int b = 0; b < n; b++) {
      const int anchor = anchor_position(tokens + long(b) * T, T);
      if (anchor < 0 || anchor + 1 >= T) continue;  // not an identity sequence
      r.sequences++;
      broadcast += shows_broadcast(m.attention(broadcast_layer), b, heads, T, anchor + 1);
      shift += shows_shift(m.attention(shift_layer), b, heads, T, anchor);
    }
  }
  if (r.sequences > 0) {
    r.broadcast = double(broadcast) / r.sequences;
    r.shift = double(shift) / r.sequences;
  }
  return r;
}
