// The "anchor" tab for Transformer runs on the anchor-function tasks: the γ (× λ) phase plot of chapter 13, and for
// one chosen run its attention maps per layer and head on a chosen sequence, the cosine matrix of layer 1's W_Q
// rows, and the PCA of its number-token embeddings. Drawn each frame from the runner's state.
//
// The masking experiment (the book's §12.7): "cut" removes the shown head's attention to the key (or the anchor) of
// every sequence; the map and the prediction are then drawn with the cut, and "measure" compares the answers on the
// whole set with and without it (engine/analysis/attention_cut.hpp).
//
// Until the reader picks a run, the view shows the one that best makes the sweep's point: the highest final OOD
// accuracy (ID accuracy where there is no OOD set), ties to the larger γ, so the γ sweep opens on the run that
// reasons rather than on the first member. Layers and heads count from 1, as in the titles. The tab's content
// scrolls in a child window under the view tabs.
#pragma once
#include "engine/analysis/attention_cut.hpp"
#include "engine/run/runner.hpp"

struct AnchorView {
  int run = 0;          // which sweep member the maps show
  bool picked = false;  // the reader chose `run` in the picker; cleared when a new Runner starts (App's reset)
  int set = 0;       // 0: in-distribution test, 1: OOD test
  int sequence = 0;  // index into that set
  int layer = 0, head = 0;  // 0-based; shown from 1
  bool cut = false;  // draw the map with the shown head's attention to the cut target removed
  CutTarget cut_target = CutTarget::key;
  bool measured = false;  // `measurement` holds the last "measure" press, of `measured_cut`
  AttentionCut measured_cut;
  CutResult measurement;
};

void anchor_view(AnchorView& v, Runner& runner);
