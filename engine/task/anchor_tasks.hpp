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
//
// Splits: mod-remainder (identity, reading, classification, statistical): a key x at position p is a test key iff
// x ≡ p (mod modulus). Anchor-based (multi_anchor): anchor a's test keys are [12+8a, 19+8a], the others train
// (book §12.6.9). Composite-anchor (composite, two_anchor): held-out anchor pairs form the OOD test; the ID test
// holds unseen sequences of the trained pairs (no test sequence occurs in train).
#pragma once
#include <cstdint>
#include <vector>

#include "engine/base/enum_names.hpp"

enum class AnchorTaskKind { identity, reading, classification, composite, two_anchor, statistical1, statistical2,
                            multi_anchor };
inline constexpr EnumName<AnchorTaskKind> kAnchorTaskNames[] = {
    {AnchorTaskKind::identity, "identity"},
    {AnchorTaskKind::reading, "reading"},
    {AnchorTaskKind::classification, "classification"},
    {AnchorTaskKind::composite, "composite"},
    {AnchorTaskKind::two_anchor, "two_anchor"},
    {AnchorTaskKind::statistical1, "statistical1"},
    {AnchorTaskKind::statistical2, "statistical2"},
    {AnchorTaskKind::multi_anchor, "multi_anchor"},
};

inline const char* anchor_task_name(AnchorTaskKind k) { return enum_name(kAnchorTaskNames, k); }
bool anchor_task_has_ood(AnchorTaskKind k);  // composite, two_anchor

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

// The composite label of a sequence: g_b(g_a(key)) for its one adjacent pair (a, b) of anchors 1..4, whose key
// is the token just before it; -1 if the sequence has no such pair.
int composite_label(const int* tokens, int seq_len);

AnchorData make_anchor_task(const AnchorTaskConfig& config);
