// Multi-head causal self-attention on precomputed queries, keys and values (llm.c style, one sequence at a time).
//
// q, k, v, y are (batch·T) × (heads·d_head) row-major, head h in columns [h·d_head, (h+1)·d_head).
// For each sequence and head:  S = scale · Q Kᵀ (entries j > i masked),  P = softmax_rows(S),  Y = P V.
// P is kept (batch × heads × T × T, zero above the diagonal): backward needs it and the page draws it.
#pragma once
#include <functional>

struct AttentionShape {
  int batch = 0, T = 0, heads = 1, d_head = 0;
  double scale = 1;  // 1/sqrt(d_head) (standard) or 1/d_head (muP)
  int width() const { return heads * d_head; }
};

// Called after the softmax with one T × T probability matrix (row i = query i), which it may edit in place
// (masking analyses). Backward then treats the edited probabilities as the layer's output.
using AttentionEdit = std::function<void(int sequence, int head, double* probs, int T)>;

void attention_forward(double* y, double* probs, const double* q, const double* k, const double* v,
                       const AttentionShape& s, const AttentionEdit* edit);
// Overwrites dq, dk, dv. dprobs is scratch of T × T doubles.
void attention_backward(double* dq, double* dk, double* dv, const double* dy, const double* probs, const double* q,
                        const double* k, const double* v, const AttentionShape& s, double* dprobs);
