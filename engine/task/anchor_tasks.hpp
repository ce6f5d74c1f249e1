// Anchor-function tasks (the book's chapters 12 and 13): seeded generators of token
// sequences with their train / in-distribution test / out-of-distribution test splits.
//
// Every sequence has seq_len tokens: "keys" drawn uniformly from [20, 100] and small-integer anchors (1–10) written
// in by the task's pattern. The label is the next token after the sequence (one class per token id); only the last
// position is supervised. Positions below are 1-based, as in the book.
//
//   identity            3x→x: exactly one 3 at positions 1..n−1; label = the token after it.
//   reading             (a₁,x₁,…,a₄,x₄,a), distinct aᵢ ∈ 1..8, a one of them: label x_k where a_k = a.
//   classification      (x₁,a₁,…,x₄,a₄,x): label a_k, k = argmin |xᵢ − x| (a unique nearest key).
//   composite           ch.12: one adjacent anchor pair (a, b) from 1..4, key = the token before it,
//                       label g_b(g_a(key)) with g₁ = +5, g₂ = +1, g₃ = −2, g₄ = −8; pair (3,4) held out.
//   two_anchor          ch.13: the same with (3,4) and (4,3) never trained: the OOD test (reasoning answer key − 10).
//   statistical1        identity set S copied five times, the fifth copy labelled x+1: train accuracy caps at 0.8.
//   statistical2        identity set with 20% of its labels set to x+1 (each input has one label).
//   multi_anchor        one anchor a ∈ 1..10 after its key x: label x + a.
//   working_memory      §12.6.5: (…, x, a₁, *, …, *, a₂, …), a₁ ∈ {1, 2} right after its key x, a₂ ∈ {3, 4} after
//                       1–3 irrelevant keys: label g_{a₂}(g_{a₁}(x)) (the composite shifts); the model must hold
//                       g_{a₁}(x) over the gap.
//   synonyms            §12.6.6: a composite pair after its key, g₁ = +5, g₂ = +1, g₄ = −8 and g₃ = g₉ = −2 (3 is a
//                       synonym of 9). Trained pairs: (1,9) (2,9) (9,1) (9,2), 100 sequences each, and (1,2) (1,4)
//                       (2,1) (4,1) (2,4) (4,2) (1,3) (3,1) (2,3) (3,2) (4,3) (3,4) sharing the rest; OOD test:
//                       (4,9) and (9,4), learnable only through the synonym.
//   recite_previous     §12.6.7 (the book's "forward" recitation): (*, m, 3, n, *, …, n): label m, the token before
//                       the anchor, asked for by the token after it.
//   recite_next         §12.6.7 (the book's "backward" recitation): (*, m, 3, n, *, …, m): label n, the token after
//                       the anchor, asked for by the token before it. (Everyday usage names the two the other way
//                       round: reciting the next line is "forward".)
//
// Splits: mod-remainder (identity, reading, classification, statistical, working_memory, recitation): a key x at
// position p is a test key iff x ≡ p (mod modulus); a recitation sequence is a test sequence iff both m and n are
// test keys, a train sequence iff neither is. Anchor-based (multi_anchor): anchor a's test keys are [12+8a, 19+8a], the others train
// (book §12.6.9). Composite-anchor (composite, two_anchor, synonyms): held-out anchor pairs form the OOD test; the ID test
// holds unseen sequences of the trained pairs (no test sequence occurs in train).
#pragma once
#include <cstdint>
#include <vector>

#include "engine/base/enum_names.hpp"

enum class AnchorTaskKind { identity, reading, classification, composite, two_anchor, statistical1, statistical2,
                            multi_anchor, working_memory, synonyms, recite_previous, recite_next };
inline constexpr EnumName<AnchorTaskKind> kAnchorTaskNames[] = {
    {AnchorTaskKind::identity, "identity"},
    {AnchorTaskKind::reading, "reading"},
    {AnchorTaskKind::classification, "classification"},
    {AnchorTaskKind::composite, "composite"},
    {AnchorTaskKind::two_anchor, "two_anchor"},
    {AnchorTaskKind::statistical1, "statistical1"},
    {AnchorTaskKind::statistical2, "statistical2"},
    {AnchorTaskKind::multi_anchor, "multi_anchor"},
    {AnchorTaskKind::working_memory, "working_memory"},
    {AnchorTaskKind::synonyms, "synonyms"},
    {AnchorTaskKind::recite_previous, "recite_previous"},
    {AnchorTaskKind::recite_next, "recite_next"},
};

inline const char* anchor_task_name(AnchorTaskKind k) { return enum_name(kAnchorTaskNames, k); }
bool anchor_task_has_ood(AnchorTaskKind k);  // composite, two_anchor, synonyms

constexpr int kAnchorKeyMin = 20, kAnchorKeyMax = 100;
constexpr int kAnchorMinVocab = 112;  // labels reach 100 + 10

struct AnchorTaskConfig {
  AnchorTaskKind kind = AnchorTaskKind::two_anchor;
  int vocab = 128;  // token ids (and output classes) 0..vocab−1
  int seq_len = 9;
  int train_size = 10000;
  int test_size = 2000;      // in-distribution test
  int ood_test_size = 1000;  // held-out anchor pairs (composite, two_anchor)
  int modulus = 8;           // mod-remainder split
  uint64_t seed = 0;
};

struct AnchorSet {
  int size = 0, seq_len = 0;
  std::vector<int> tokens;  // size × seq_len
  std::vector<int> labels;  // size
  // OOD sets of the composite tasks: each sequence with its anchor pair swapped (commutativity).
  std::vector<int> swapped;
};

struct AnchorData {
  AnchorSet train, test, ood;  // ood is empty unless anchor_task_has_ood
  int vocab = 0;
};

// The shift g_a of a composite anchor a ∈ 1..4.
int composite_shift(int anchor);

// The synonym task's shift g_a of an anchor a ∈ {1, 2, 3, 4, 9}: as composite_shift, with g₉ = g₃ = −2.
int synonym_shift(int anchor);
// Train sequences of each pair that holds the rare anchor 9 (the book's 100; the other pairs share the rest).
constexpr int kSynonymRarePerPair = 100;

// The composite label of a sequence: g_b(g_a(key)) for its one adjacent pair (a, b) of anchors 1..4, whose key
// is the token just before it; -1 if the sequence has no such pair.
int composite_label(const int* tokens, int seq_len);

AnchorData make_anchor_task(const AnchorTaskConfig& config);
