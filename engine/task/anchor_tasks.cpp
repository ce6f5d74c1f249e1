#include "engine/task/anchor_tasks.hpp"

#include <cstdlib>
#include <set>
#include <stdexcept>
#include <string>

#include "engine/base/rng.hpp"

bool anchor_task_has_ood(AnchorTaskKind k) {
  return k == AnchorTaskKind::composite || k == AnchorTaskKind::two_anchor || k == AnchorTaskKind::synonyms;
}

int composite_shift(int anchor) {
  static const int shifts[] = {0, 5, 1, -2, -8};
  return shifts[anchor];
}

int synonym_shift(int anchor) { return anchor == 9 ? composite_shift(3) : composite_shift(anchor); }

int composite_label(const int* t, int n) {
  auto anchor = [](int x) { return x >= 1 && x <= 4; };
  for (int i = 1; i + 1 < n; i++)
    if (anchor(t[i]) && anchor(t[i + 1])) return t[i - 1] + composite_shift(t[i]) + composite_shift(t[i + 1]);
  return -1;
}

namespace {

// The synonym task's anchor pairs (the book's §12.6.6): the four with the rare anchor 9 first, then the twelve
// common ones (six of the original set, six with the synonym 3), then the two held out.
constexpr int kSynonymPairs[18][2] = {{1, 9}, {2, 9}, {9, 1}, {9, 2}, {1, 2}, {1, 4}, {2, 1}, {4, 1}, {2, 4},
                                      {4, 2}, {1, 3}, {3, 1}, {2, 3}, {3, 2}, {4, 3}, {3, 4}, {4, 9}, {9, 4}};
constexpr int kSynonymRarePairs = 4, kSynonymTrainedPairs = 16;

struct Sample {
  std::vector<int> tokens;
  int label = 0;
  std::vector<int> swapped;
};

enum class Part { train, test, ood };

class Generator {
 public:
  Generator(const AnchorTaskConfig& c) : c_(c), rng_(Rng::stream(c.seed, /*purpose=*/11)) {}

  int key() { return kAnchorKeyMin + int(rng_.below(kAnchorKeyMax - kAnchorKeyMin + 1)); }
  int below(int n) { return int(rng_.below(uint64_t(n))); }
  double uniform() { return rng_.uniform(); }
  std::vector<int> keys() {
    std::vector<int> t(size_t(c_.seq_len));
    for (int& x : t) x = key();
    return t;
  }
  // Mod-remainder: the key x at 1-based position p belongs to the test split iff x ≡ p (mod modulus).
  bool mod_test(int x, int position) const { return x % c_.modulus == position % c_.modulus; }
  bool wanted(bool is_test, Part part) const { return is_test == (part != Part::train); }
  // Synonyms: the train pair to draw (an index of kSynonymPairs), or -1 for any of the common ones.
  void force_synonym_pair(int pair) { synonym_pair_ = pair; }

  // One sample of the task for `part`, or false to draw again.
  bool draw(Part part, Sample& s) {
    const int n = c_.seq_len;
    s.tokens = keys();
    s.swapped.clear();
    switch (c_.kind) {
      case AnchorTaskKind::identity:
      case AnchorTaskKind::statistical1:
      case AnchorTaskKind::statistical2: {
        const int p = 1 + below(n - 1);  // the 3 sits at position p ∈ 1..n−1, its key at p+1
        s.tokens[size_t(p - 1)] = 3;
        s.label = s.tokens[size_t(p)];
        return wanted(mod_test(s.label, p + 1), part);
      }
      case AnchorTaskKind::reading: {
        int anchors[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        for (int i = 7; i > 0; i--) std::swap(anchors[i], anchors[below(i + 1)]);
        for (int i = 0; i < 4; i++) s.tokens[size_t(2 * i)] = anchors[i];
        const int k = below(4);
        s.tokens[size_t(n - 1)] = anchors[k];
        s.label = s.tokens[size_t(2 * k + 1)];
        return wanted(mod_test(s.label, 2 * k + 2), part);
      }
      case AnchorTaskKind::classification: {
        for (int i = 0; i < 4; i++) s.tokens[size_t(2 * i + 1)] = 1 + below(8);
        const int x = s.tokens[size_t(n - 1)];
        int best = 0, ties = 0;
        for (int i = 0; i < 4; i++) {
          const int d = std::abs(s.tokens[size_t(2 * i)] - x), bd = std::abs(s.tokens[size_t(2 * best)] - x);
          if (d < bd) best = i, ties = 0;
          else if (i > 0 && d == bd) ties++;
        }
        if (ties) return false;  // the nearest key must be unique
        s.label = s.tokens[size_t(2 * best + 1)];
        return wanted(mod_test(x, n), part);
      }
      case AnchorTaskKind::multi_anchor: {
        const int p = 2 + below(n - 1);  // anchor at position p ∈ 2..n, its key at p−1
        const int a = 1 + below(10);
        s.tokens[size_t(p - 1)] = a;
        const int x = s.tokens[size_t(p - 2)];
        s.label = x + a;
        const bool test = x >= 12 + 8 * a && x <= 19 + 8 * a;
        return wanted(test, part);
      }
      case AnchorTaskKind::composite:
      case AnchorTaskKind::two_anchor: {
        const int p = 2 + below(n - 2);  // the pair at positions p, p+1 ∈ 2..n, its key at p−1
        const int a = 1 + below(4), b = 1 + below(4);
        const bool held_out = (a == 3 && b == 4) || (c_.kind == AnchorTaskKind::two_anchor && a == 4 && b == 3);
        if (held_out != (part == Part::ood)) return false;
        s.tokens[size_t(p - 1)] = a;
        s.tokens[size_t(p)] = b;
        s.label = s.tokens[size_t(p - 2)] + composite_shift(a) + composite_shift(b);
        if (part == Part::ood) {
          s.swapped = s.tokens;
          std::swap(s.swapped[size_t(p - 1)], s.swapped[size_t(p)]);
        }
        return true;
      }
      case AnchorTaskKind::working_memory: {
        const int gap = 1 + below(3);      // irrelevant keys between the two anchors
        const int q = 1 + below(n - 2 - gap);  // the key x at q, a₁ at q+1, a₂ at q+2+gap ≤ n
        const int a1 = 1 + below(2), a2 = 3 + below(2);
        s.tokens[size_t(q)] = a1;
        s.tokens[size_t(q + 1 + gap)] = a2;
        const int x = s.tokens[size_t(q - 1)];
        s.label = x + composite_shift(a1) + composite_shift(a2);
        return wanted(mod_test(x, q), part);
      }
      case AnchorTaskKind::synonyms: {
        const int pair = part == Part::ood    ? kSynonymTrainedPairs + below(2)
                         : part == Part::test ? below(kSynonymTrainedPairs)
                         : synonym_pair_ >= 0 ? synonym_pair_
                                              : kSynonymRarePairs + below(kSynonymTrainedPairs - kSynonymRarePairs);
        const int p = 2 + below(n - 2);  // the pair at positions p, p+1 ∈ 2..n, its key at p−1
        const int a = kSynonymPairs[pair][0], b = kSynonymPairs[pair][1];
        s.tokens[size_t(p - 1)] = a;
        s.tokens[size_t(p)] = b;
        s.label = s.tokens[size_t(p - 2)] + synonym_shift(a) + synonym_shift(b);
        if (part == Part::ood) {
          s.swapped = s.tokens;
          std::swap(s.swapped[size_t(p - 1)], s.swapped[size_t(p)]);
        }
        return true;
      }
      case AnchorTaskKind::recite_previous:
      case AnchorTaskKind::recite_next: {
        const int p = 2 + below(n - 3);  // the 3 at p ∈ 2..n−2, m at p−1, n at p+1; the query at position n
        s.tokens[size_t(p - 1)] = 3;
        const int before = s.tokens[size_t(p - 2)], after = s.tokens[size_t(p)];
        const bool previous = c_.kind == AnchorTaskKind::recite_previous;
        s.tokens[size_t(n - 1)] = previous ? after : before;
        s.label = previous ? before : after;
        const bool test = mod_test(before, p - 1);
        if (mod_test(after, p + 1) != test) return false;  // both keys test keys, or neither
        return wanted(test, part);
      }
    }
    return false;
  }

 private:
  const AnchorTaskConfig& c_;
  Rng rng_;
  int synonym_pair_ = -1;
};

std::string key_of(const std::vector<int>& tokens) { return std::string(tokens.begin(), tokens.end()); }

void push(AnchorSet& set, const Sample& s) {
  set.tokens.insert(set.tokens.end(), s.tokens.begin(), s.tokens.end());
  set.labels.push_back(s.label);
  set.swapped.insert(set.swapped.end(), s.swapped.begin(), s.swapped.end());
  set.size++;
}

// Draws `count` distinct samples of `part` that are not in `exclude`.
void fill(Generator& g, Part part, int count, AnchorSet& out, std::set<std::string>& seen,
          const std::set<std::string>* exclude) {
  Sample s;
  long tries = 0;
  while (out.size < count) {
    if (++tries > 200L * count + 100000)
      throw std::runtime_error("anchor task: cannot draw " + std::to_string(count) +
                               " distinct sequences (lower the sizes)");
    if (!g.draw(part, s)) continue;
    const std::string k = key_of(s.tokens);
    if (seen.count(k) || (exclude && exclude->count(k))) continue;
    seen.insert(k);
    push(out, s);
  }
}

}  // namespace

AnchorData make_anchor_task(const AnchorTaskConfig& c) {
  AnchorData d;
  d.vocab = c.vocab;
  for (AnchorSet* s : {&d.train, &d.test, &d.ood}) s->seq_len = c.seq_len;
  Generator g(c);
  std::set<std::string> train_seen, test_seen, ood_seen;
  if (c.kind == AnchorTaskKind::statistical1) {
    // S, copied five times; the fifth copy says x+1: the same input with two labels, 4 : 1. The copies of one
    // sequence are adjacent, so any prefix of the train set (the run measures train accuracy on the first 1000
    // sequences) holds the 4 : 1 mix and shows the 0.8 cap.
    AnchorSet base;
    base.seq_len = c.seq_len;
    fill(g, Part::train, (c.train_size + 4) / 5, base, train_seen, nullptr);
    for (int i = 0; i < base.size; i++)
      for (int copy = 0; copy < 5 && d.train.size < c.train_size; copy++) {
        Sample s;
        s.tokens.assign(base.tokens.begin() + long(i) * c.seq_len, base.tokens.begin() + long(i + 1) * c.seq_len);
        s.label = base.labels[size_t(i)] + (copy == 4 ? 1 : 0);
        push(d.train, s);
      }
  } else if (c.kind == AnchorTaskKind::synonyms) {
    // The book's counts: 100 sequences of each pair with the rare 9, the rest spread over the common pairs.
    if (c.train_size <= kSynonymRarePairs * kSynonymRarePerPair)
      throw std::runtime_error("anchor task synonyms: train_size must exceed " +
                               std::to_string(kSynonymRarePairs * kSynonymRarePerPair) + " (100 per pair with 9)");
    for (int pair = 0; pair < kSynonymRarePairs; pair++) {
      g.force_synonym_pair(pair);
      fill(g, Part::train, (pair + 1) * kSynonymRarePerPair, d.train, train_seen, nullptr);
    }
    g.force_synonym_pair(-1);
    fill(g, Part::train, c.train_size, d.train, train_seen, nullptr);
  } else {
    fill(g, Part::train, c.train_size, d.train, train_seen, nullptr);
  }
  if (c.kind == AnchorTaskKind::statistical2)
    for (int& label : d.train.labels)
      if (g.uniform() < 0.2) label += 1;
  fill(g, Part::test, c.test_size, d.test, test_seen, &train_seen);
  if (anchor_task_has_ood(c.kind)) fill(g, Part::ood, c.ood_test_size, d.ood, ood_seen, &train_seen);
  return d;
}
