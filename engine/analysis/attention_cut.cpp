#include "engine/analysis/attention_cut.hpp"

#include <algorithm>
#include <vector>

int cut_position(const int* tokens, int T, CutTarget target) {
  for (int t = 0; t < T; t++)
    if (tokens[t] >= 1 && tokens[t] <= 10) {
      const int p = target == CutTarget::anchor ? t : t + 1;
      return p < T ? p : -1;
    }
  return -1;
}

namespace {

// Row i of P (T × T, causal) loses its weight at column c ≤ i; the rest is renormalised to sum 1.
void cut_column(double* P, int T, int c) {
  for (int i = c; i < T; i++) {
    double* row = P + long(i) * T;
    const double left = 1 - row[c];
    row[c] = 0;
    for (int j = 0; j <= i; j++) row[j] = left > 1e-12 ? row[j] / left : 0;
  }
}

int argmax(const double* z, int V) { return int(std::max_element(z, z + V) - z); }

void count_answer(AnswerShares& s, int answer, int label, const int* tokens, int T) {
  if (answer == label) s.label += 1;
  else if (std::find(tokens, tokens + T, answer) != tokens + T) s.other_token += 1;
  else s.elsewhere += 1;
}

void normalize(AnswerShares& s, int n) {
  if (n == 0) return;
  s.label /= n, s.other_token /= n, s.elsewhere /= n;
}

}  // namespace

const double* forward_with_cut(Transformer& m, const int* tokens, int batch, const AttentionCut& cut) {
  const AttentionEdit edit = [&](int b, int head, double* P, int T) {
    if (cut.head > 0 && head != cut.head - 1) return;
    const int c = cut_position(tokens + long(b) * T, T, cut.target);
    if (c >= 0) cut_column(P, T, c);
  };
  m.set_attention_edit(cut.layer - 1, edit);
  const double* logits = m.forward(tokens, batch);
  m.set_attention_edit(cut.layer - 1, AttentionEdit());
  return logits;
}

CutResult attention_cut_experiment(Transformer& m, const AnchorSet& set, const AttentionCut& cut) {
  const int T = set.seq_len, V = m.config().outputs;
  std::vector<int> intact(size_t(m.max_batch()));
  CutResult r;
  int changed = 0;
  for (int start = 0; start < set.size; start += m.max_batch()) {
    const int n = std::min(m.max_batch(), set.size - start);
    const int* batch_tokens = &set.tokens[size_t(start) * size_t(T)];
    const double* logits = m.forward(batch_tokens, n);
    for (int b = 0; b < n; b++) intact[size_t(b)] = argmax(logits + long(b) * V, V);
    logits = forward_with_cut(m, batch_tokens, n, cut);
    for (int b = 0; b < n; b++) {
      const int* tokens = batch_tokens + long(b) * T;
      if (cut_position(tokens, T, cut.target) < 0) continue;
      const int label = set.labels[size_t(start + b)], answer = argmax(logits + long(b) * V, V);
      count_answer(r.intact, intact[size_t(b)], label, tokens, T);
      count_answer(r.cut, answer, label, tokens, T);
      changed += answer != intact[size_t(b)];
      r.sequences++;
    }
  }
  normalize(r.intact, r.sequences);
  normalize(r.cut, r.sequences);
  if (r.sequences > 0) r.changed = double(changed) / r.sequences;
  return r;
}
