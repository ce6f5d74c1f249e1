// The book's masking experiment (chapter 12 §12.7, chapter 13's masking analyses): cut one head's attention to one
// position of every sequence and watch the answer change. If layer 2 broadcasts from the key (identity task 3x→x),
// cutting its attention to the key should take the right answer away.
//
// The cut acts after the softmax, on every query row that can see the position: its weight there is set to 0 and
// the row renormalised over the positions left (a row whose whole mass sat there becomes 0). It applies only while
// the analysis runs; the trained model is left without edits. The cut's fields: AttentionCut (transformer_spec.hpp).
#pragma once
#include "engine/model/transformer.hpp"
#include "engine/spec/transformer_spec.hpp"
#include "engine/task/anchor_tasks.hpp"

struct AnswerShares {
  double label = 0;        // the answer is the label
  double other_token = 0;  // another token of the sequence (a copy from the wrong position)
  double elsewhere = 0;    // a token the sequence does not hold
};

struct CutResult {
  AnswerShares intact, cut;
  double changed = 0;  // fraction of sequences whose answer differs with the cut
  int sequences = 0;   // sequences with a target position
};

// The target's 0-based position in a sequence, or -1 when it has none.
int cut_position(const int* tokens, int T, CutTarget target);

// One forward pass of `batch` sequences with the cut applied: the last position's logits, and the model's attention
// buffers hold the cut pass (for drawing); the edit is cleared afterwards.
const double* forward_with_cut(Transformer& m, const int* tokens, int batch, const AttentionCut& cut);

// Answers of `set` with and without the cut (sequences without a target position are skipped).
CutResult attention_cut_experiment(Transformer& m, const AnchorSet& set, const AttentionCut& cut);
