// The anchor-function generators: labels follow the definitions and the splits keep their promises
// (no held-out anchor pair in train, no test sequence in train, the mod-remainder and anchor-based key sets).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "engine/task/anchor_tasks.hpp"

namespace {

std::string row(const AnchorSet& s, int i, const std::vector<int>& tokens) {
  return std::string(tokens.begin() + long(i) * s.seq_len, tokens.begin() + long(i + 1) * s.seq_len);
}
const int* seq(const AnchorSet& s, int i) { return s.tokens.data() + long(i) * s.seq_len; }

AnchorData make(AnchorTaskKind kind, int train = 2000, int test = 500, int ood = 300) {
  AnchorTaskConfig c;
  c.kind = kind;
  c.train_size = train;
  c.test_size = test;
  c.ood_test_size = ood;
  c.seed = 7;
  return make_anchor_task(c);
}

void expect_disjoint(const AnchorSet& train, const AnchorSet& test) {
  std::set<std::string> seen;
  for (int i = 0; i < train.size; i++) seen.insert(row(train, i, train.tokens));
  for (int i = 0; i < test.size; i++) EXPECT_EQ(seen.count(row(test, i, test.tokens)), 0u) << "test sequence " << i;
}

TEST(AnchorTasks, BooksWorkedExample) {
  // (23, a, b, 43, 46, 74, 54, 44, 72) with a = 1 (+5), b = 2 (+1): 23 + 5 + 1 = 29.
  const int tokens[] = {23, 1, 2, 43, 46, 74, 54, 44, 72};
  EXPECT_EQ(composite_label(tokens, 9), 29);
  const int reasoning[] = {50, 60, 3, 4, 21, 22, 23, 24, 25};  // (c, d): −2 − 8
  EXPECT_EQ(composite_label(reasoning, 9), 50);
}

TEST(AnchorTasks, TwoAnchorSplits) {
  const AnchorData d = make(AnchorTaskKind::two_anchor);
  ASSERT_EQ(d.train.size, 2000);
  ASSERT_EQ(d.test.size, 500);
  ASSERT_EQ(d.ood.size, 300);
  std::set<std::pair<int, int>> train_pairs;
  for (int i = 0; i < d.train.size; i++) {
    const int* t = seq(d.train, i);
    EXPECT_EQ(d.train.labels[size_t(i)], composite_label(t, 9));
    int anchors = 0;
    for (int j = 0; j < 9; j++) anchors += t[j] < 20;
    EXPECT_EQ(anchors, 2);
    for (int j = 1; j + 1 < 9; j++)
      if (t[j] < 20) {
        train_pairs.insert({t[j], t[j + 1]});
        break;
      }
  }
  EXPECT_EQ(train_pairs.size(), 14u);  // all 16 ordered pairs but (3,4) and (4,3)
  EXPECT_EQ(train_pairs.count({3, 4}) + train_pairs.count({4, 3}), 0u);
  for (int i = 0; i < d.ood.size; i++) {
    const int* t = seq(d.ood, i);
    EXPECT_EQ(d.ood.labels[size_t(i)], composite_label(t, 9));
    const int* s = d.ood.swapped.data() + long(i) * 9;
    EXPECT_EQ(composite_label(s, 9), d.ood.labels[size_t(i)]);  // commutative: same reasoning answer
    bool held_out = false;
    for (int j = 1; j + 1 < 9; j++) held_out = held_out || (t[j] == 3 && t[j + 1] == 4) || (t[j] == 4 && t[j + 1] == 3);
    EXPECT_TRUE(held_out);
  }
  for (int i = 0; i < d.test.size; i++) EXPECT_EQ(d.test.labels[size_t(i)], composite_label(seq(d.test, i), 9));
  expect_disjoint(d.train, d.test);
  expect_disjoint(d.train, d.ood);
}

TEST(AnchorTasks, CompositeHoldsOutOnePair) {
  const AnchorData d = make(AnchorTaskKind::composite);
  for (int i = 0; i < d.train.size; i++)
    for (int j = 1; j + 1 < 9; j++) EXPECT_FALSE(seq(d.train, i)[j] == 3 && seq(d.train, i)[j + 1] == 4);
  for (int i = 0; i < d.ood.size; i++) {
    bool pair = false;
    for (int j = 1; j + 1 < 9; j++) pair = pair || (seq(d.ood, i)[j] == 3 && seq(d.ood, i)[j + 1] == 4);
    EXPECT_TRUE(pair);
  }
}

TEST(AnchorTasks, IdentityModRemainderSplit) {
  const AnchorData d = make(AnchorTaskKind::identity);
  for (const AnchorSet* s : {&d.train, &d.test})
    for (int i = 0; i < s->size; i++) {
      const int* t = seq(*s, i);
      int threes = 0, p = -1;
      for (int j = 0; j < 9; j++)
        if (t[j] == 3) threes++, p = j + 1;
      ASSERT_EQ(threes, 1);
      ASSERT_LT(p, 9);
      EXPECT_EQ(s->labels[size_t(i)], t[p]);  // the token after the 3
      EXPECT_EQ(t[p] % 8 == (p + 1) % 8, s == &d.test) << "key " << t[p] << " at position " << p + 1;
    }
  expect_disjoint(d.train, d.test);
}

TEST(AnchorTasks, ReadingAndClassificationLabels) {
  const AnchorData r = make(AnchorTaskKind::reading);
  for (int i = 0; i < r.train.size; i++) {
    const int* t = seq(r.train, i);
    int k = -1;
    for (int j = 0; j < 4; j++)
      if (t[2 * j] == t[8]) k = j;
    ASSERT_GE(k, 0);
    EXPECT_EQ(r.train.labels[size_t(i)], t[2 * k + 1]);
  }
  const AnchorData c = make(AnchorTaskKind::classification);
  for (int i = 0; i < c.train.size; i++) {
    const int* t = seq(c.train, i);
    int best = 0;
    for (int j = 1; j < 4; j++)
      if (std::abs(t[2 * j] - t[8]) < std::abs(t[2 * best] - t[8])) best = j;
    EXPECT_EQ(c.train.labels[size_t(i)], t[2 * best + 1]);
  }
}

TEST(AnchorTasks, MultiAnchorSplitsByAnchor) {
  const AnchorData d = make(AnchorTaskKind::multi_anchor);
  for (const AnchorSet* s : {&d.train, &d.test})
    for (int i = 0; i < s->size; i++) {
      const int* t = seq(*s, i);
      int p = -1;
      for (int j = 1; j < 9; j++)
        if (t[j] <= 10) p = j;
      ASSERT_GT(p, 0);
      const int a = t[p], x = t[p - 1];
      EXPECT_EQ(s->labels[size_t(i)], x + a);
      EXPECT_EQ(x >= 12 + 8 * a && x <= 19 + 8 * a, s == &d.test);
    }
}

TEST(AnchorTasks, StatisticalOutputs) {
  const AnchorData one = make(AnchorTaskKind::statistical1);
  int shifted = 0;
  for (int i = 0; i < one.train.size; i++) {
    const int* t = seq(one.train, i);
    int key = 0;
    for (int j = 0; j < 8; j++)
      if (t[j] == 3) key = t[j + 1];
    shifted += one.train.labels[size_t(i)] == key + 1;
    // Each sequence of S comes five times in a row, the fifth with label x+1: the same input carries both labels.
    if (i % 5 == 4) {
      EXPECT_EQ(row(one.train, i, one.train.tokens), row(one.train, i - 4, one.train.tokens));
      EXPECT_EQ(one.train.labels[size_t(i)], one.train.labels[size_t(i - 4)] + 1);
    }
  }
  EXPECT_EQ(shifted, one.train.size / 5);
  const AnchorData two = make(AnchorTaskKind::statistical2);
  shifted = 0;
  for (int i = 0; i < two.train.size; i++) {
    const int* t = seq(two.train, i);
    for (int j = 0; j < 8; j++)
      if (t[j] == 3) shifted += two.train.labels[size_t(i)] == t[j + 1] + 1;
  }
  EXPECT_NEAR(double(shifted) / two.train.size, 0.2, 0.03);
}

TEST(AnchorTasks, SeededAndDeterministic) {
  const AnchorData a = make(AnchorTaskKind::two_anchor), b = make(AnchorTaskKind::two_anchor);
  EXPECT_EQ(a.train.tokens, b.train.tokens);
  EXPECT_EQ(a.ood.labels, b.ood.labels);
  AnchorTaskConfig c;
  c.train_size = 2000;
  c.seed = 8;
  EXPECT_NE(make_anchor_task(c).train.tokens, a.train.tokens);
}

}  // namespace

namespace {

// The anchors (tokens 1..10) of one sequence with their 0-based positions.
std::vector<std::pair<int, int>> anchors_of(const int* t, int n) {
  std::vector<std::pair<int, int>> a;
  for (int i = 0; i < n; i++)
    if (t[i] >= 1 && t[i] <= 10) a.push_back({i, t[i]});
  return a;
}

bool mod_test_key(int x, int position_1based) { return x % 8 == position_1based % 8; }

}  // namespace

// Working memory (§12.6.5): key x, then a₁ ∈ {1, 2}, 1–3 keys, a₂ ∈ {3, 4}; label x + g_{a₁} + g_{a₂}, and the
// split by the key's position.
TEST(AnchorTasks, WorkingMemoryHoldsTheFirstResultOverTheGap) {
  const AnchorData d = make(AnchorTaskKind::working_memory);
  std::set<int> gaps;
  for (const AnchorSet* set : {&d.train, &d.test})
    for (int i = 0; i < set->size; i++) {
      const int* t = seq(*set, i);
      const auto a = anchors_of(t, set->seq_len);
      ASSERT_EQ(a.size(), 2u);
      const auto [p1, a1] = a[0];
      const auto [p2, a2] = a[1];
      EXPECT_TRUE(a1 == 1 || a1 == 2);
      EXPECT_TRUE(a2 == 3 || a2 == 4);
      ASSERT_GE(p1, 1);
      gaps.insert(p2 - p1 - 1);
      const int x = t[p1 - 1];
      EXPECT_EQ(set->labels[size_t(i)], x + composite_shift(a1) + composite_shift(a2));
      EXPECT_EQ(mod_test_key(x, p1), set == &d.test);
    }
  EXPECT_EQ(gaps, (std::set<int>{1, 2, 3}));
  expect_disjoint(d.train, d.test);
}

// Synonyms (§12.6.6): 100 train sequences of each pair with 9, the common pairs (with the synonym 3) the rest;
// (4, 9) and (9, 4) only in the OOD test; g₉ = g₃.
TEST(AnchorTasks, SynonymsHoldOutTheRarePairsOfFourAndNine) {
  const AnchorData d = make(AnchorTaskKind::synonyms, 2000, 500, 200);
  EXPECT_EQ(synonym_shift(9), synonym_shift(3));
  std::map<std::pair<int, int>, int> train_pairs;
  auto check = [](const AnchorSet& s, int i) {
    const int* t = seq(s, i);
    const auto a = anchors_of(t, s.seq_len);
    EXPECT_EQ(a.size(), 2u);
    EXPECT_EQ(a[1].first, a[0].first + 1);
    EXPECT_EQ(s.labels[size_t(i)], t[a[0].first - 1] + synonym_shift(a[0].second) + synonym_shift(a[1].second));
    return std::make_pair(a[0].second, a[1].second);
  };
  for (int i = 0; i < d.train.size; i++) train_pairs[check(d.train, i)]++;
  EXPECT_EQ(train_pairs.size(), 16u);
  for (auto rare : {std::make_pair(1, 9), {2, 9}, {9, 1}, {9, 2}}) EXPECT_EQ(train_pairs[rare], kSynonymRarePerPair);
  for (auto held : {std::make_pair(4, 9), {9, 4}}) EXPECT_EQ(train_pairs.count(held), 0u);
  for (int i = 0; i < d.test.size; i++) {
    const auto p = check(d.test, i);
    EXPECT_FALSE(p == std::make_pair(4, 9) || p == std::make_pair(9, 4));
  }
  std::set<std::pair<int, int>> ood_pairs;
  for (int i = 0; i < d.ood.size; i++) ood_pairs.insert(check(d.ood, i));
  EXPECT_EQ(ood_pairs, (std::set<std::pair<int, int>>{{4, 9}, {9, 4}}));
  expect_disjoint(d.train, d.test);
}

// Recitation (§12.6.7): (…, m, 3, n, …, query). recite_previous (the book's "forward") asks with n for m;
// recite_next (the book's "backward") asks with m for n. Test sequences hold test keys at both m and n.
TEST(AnchorTasks, RecitationAsksForTheNeighbourOnTheOtherSide) {
  for (AnchorTaskKind kind : {AnchorTaskKind::recite_previous, AnchorTaskKind::recite_next}) {
    const AnchorData d = make(kind);
    const bool previous = kind == AnchorTaskKind::recite_previous;
    for (const AnchorSet* set : {&d.train, &d.test})
      for (int i = 0; i < set->size; i++) {
        const int* t = seq(*set, i);
        const int n = set->seq_len;
        const auto a = anchors_of(t, n);
        ASSERT_EQ(a.size(), 1u);
        const int p = a[0].first;  // 0-based position of the 3
        EXPECT_EQ(a[0].second, 3);
        ASSERT_TRUE(p >= 1 && p + 1 <= n - 2) << p;
        const int m = t[p - 1], after = t[p + 1];
        EXPECT_EQ(t[n - 1], previous ? after : m) << anchor_task_name(kind);
        EXPECT_EQ(set->labels[size_t(i)], previous ? m : after) << anchor_task_name(kind);
        EXPECT_EQ(mod_test_key(m, p), set == &d.test);
        EXPECT_EQ(mod_test_key(after, p + 2), set == &d.test);
      }
    expect_disjoint(d.train, d.test);
  }
}
