// The numbers a preset's description quotes, as checks on a finished run: each quote names the words of the
// description it checks, how the page arrives at the number (the same engine functions its views call), and the
// precision the text gives it. tests/unit/test_preset_quotes.cpp holds the quotes of every preset;
// tests/unit/test_anchor_acceptance.cpp checks those of preset 30 on the run its mechanism checks make anyway.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/analysis/analysis.hpp"
#include "engine/analysis/lr_scan.hpp"
#include "engine/analysis/lr_transfer.hpp"
#include "engine/analysis/word_embedding.hpp"
#include "engine/run/runner.hpp"

using Measure = std::function<double(const Runner&)>;
using Pick = std::function<bool(const MemberCoords&)>;

// A number the description quotes: `words` appear in it verbatim; the measurement lies within `tolerance` of
// `value` (half a unit of the last digit quoted, or what "about" and "~" allow, said at each quote).
struct Quote {
  std::string words;
  Measure measure;
  double value, tolerance;
};

// A bound an acceptance check of the spec puts on the same run (the book's result at the preset's size): `what` says
// which; the measurement lies in [lo, hi].
struct Bound {
  std::string what;
  Measure measure;
  double lo, hi;
};

struct PresetQuotes {
  std::string file;
  std::vector<Quote> quotes;
  std::vector<Bound> bounds = {};
};

// GoogleTest names a parameterized test by this (not by the struct's bytes).
inline void PrintTo(const PresetQuotes& p, std::ostream* os) { *os << p.file; }

inline Pick width_is(int n) {
  return [n](const MemberCoords& c) { return c.width == n; };
}
inline Pick lr_is(double lr) {
  return [lr](const MemberCoords& c) { return std::fabs(c.lr - lr) <= 1e-12 * lr; };
}
inline Pick gamma_is(double gamma) {
  return [gamma](const MemberCoords& c) { return c.gamma == gamma; };
}
inline Pick seed_is(uint64_t seed) {
  return [seed](const MemberCoords& c) { return c.seed == seed; };
}
inline Pick any_member() {
  return [](const MemberCoords&) { return true; };
}

inline const Member& member(const Runner& runner, const Pick& pick) {
  for (const auto& m : runner.members())
    if (pick(m->coords())) return *m;
  throw std::runtime_error("no member matches the pick");
}

inline const Series& series(const Member& m, const std::string& name) {
  const Series* s = m.find_series(name);
  if (!s || s->values.empty()) throw std::runtime_error(m.label() + " records no " + name);
  return *s;
}

// The value of `name` at `step` (a recorded step), or at the last record when step < 0.
inline Measure value_at(const Pick& pick, const std::string& name, int step = -1) {
  return [=](const Runner& r) {
    const Member& m = member(r, pick);
    const Series& s = series(m, name);
    if (step < 0) return s.values.back();
    for (size_t i = 0; i < s.values.size(); i++)
      if (m.recorded_steps()[i] == step) return s.values[i];
    throw std::runtime_error(name + " is not recorded at step " + std::to_string(step));
  };
}

// The first recorded step at which `name` is below `threshold` (the step a curve of the *vs step* view crosses it).
inline Measure first_step_below(const Pick& pick, const std::string& name, double threshold) {
  return [=](const Runner& r) {
    const Member& m = member(r, pick);
    const Series& s = series(m, name);
    for (size_t i = 0; i < s.values.size(); i++)
      if (s.values[i] < threshold) return double(m.recorded_steps()[i]);
    return double(INFINITY);
  };
}

// a − b, for bounds between two members ("OOD accuracy at γ 0.8 at least 0.2 above that at γ 0.5").
inline Measure difference(Measure a, Measure b) {
  return [=](const Runner& r) { return a(r) - b(r); };
}

// The first recorded step at which `name` is at least `threshold`.
inline Measure first_step_at_least(const Pick& pick, const std::string& name, double threshold) {
  return [=](const Runner& r) {
    const Member& m = member(r, pick);
    const Series& s = series(m, name);
    for (size_t i = 0; i < s.values.size(); i++)
      if (s.values[i] >= threshold) return double(m.recorded_steps()[i]);
    return double(INFINITY);
  };
}

// The largest (or smallest, `largest` false) recorded value of `name` from step `first` to step `last` (to the end
// when < 0).
inline Measure extreme(const Pick& pick, const std::string& name, bool largest, int first = 0, int last = -1) {
  return [=](const Runner& r) {
    const Member& m = member(r, pick);
    const Series& s = series(m, name);
    double best = largest ? -INFINITY : INFINITY;
    for (size_t i = 0; i < s.values.size(); i++) {
      const int step = m.recorded_steps()[i];
      if (step >= first && (last < 0 || step <= last))
        best = largest ? std::max(best, s.values[i]) : std::min(best, s.values[i]);
    }
    return best;
  };
}

// The recorded step at which `name` is largest.
inline Measure step_of_max(const Pick& pick, const std::string& name) {
  return [=](const Runner& r) {
    const Member& m = member(r, pick);
    const Series& s = series(m, name);
    const size_t i = size_t(std::max_element(s.values.begin(), s.values.end()) - s.values.begin());
    return double(m.recorded_steps()[i]);
  };
}

// The step at which the picked member diverged (-1 when it did not).
inline Measure diverged_at(const Pick& pick) {
  return [=](const Runner& r) { return double(member(r, pick).diverged_at()); };
}

// 1 when the widest member ends with the lowest `name` of all, else 0.
inline Measure widest_lowest(const std::string& name) {
  return [=](const Runner& r) {
    const Member* widest = r.members().front().get();
    double lowest = INFINITY;
    for (const auto& m : r.members()) {
      if (m->width() > widest->width()) widest = m.get();
      lowest = std::min(lowest, series(*m, name).values.back());
    }
    return series(*widest, name).values.back() == lowest ? 1.0 : 0.0;
  };
}

// The *vs width* view's slope: log-log slope of `name` against width at record `record`, mean over seeds.
inline Measure width_slope(const std::string& name, int record) {
  return [=](const Runner& r) { return mean_sem(slopes_per_seed(r, name, record)).mean; };
}

// The *vs learning rate* view's η* of width n (vertex of the parabola through the grid minimum and its neighbours),
// as log₂ η*.
inline Measure log2_eta_star(int n) {
  return [=](const Runner& r) {
    for (const LrCurve& c : lr_curves(r))
      if (c.width == n) return std::log2(c.best_lr);
    throw std::runtime_error("no lr curve at width " + std::to_string(n));
  };
}
// The *vs depth* view's slope: log-log slope against L of `metric`'s last stream, "<metric>/h{L+1}", at record
// `record` (geometric mean over seeds).
inline Measure depth_slope(const std::string& metric, int record) {
  return [=](const Runner& r) {
    std::map<int, std::pair<double, int>> log_sums;  // depth → Σ log value, count
    for (const auto& m : r.members()) {
      const int L = member_depth(r.spec(), m->coords());
      const double v = series(*m, metric + "/h" + std::to_string(L + 1)).values.at(size_t(record));
      log_sums[L].first += std::log(v);
      log_sums[L].second++;
    }
    std::vector<double> depths, values;
    for (const auto& [L, sum] : log_sums) {
      depths.push_back(L);
      values.push_back(std::exp(sum.first / sum.second));
    }
    return loglog_slope(depths, values);
  };
}

// log₂ η* of the net of width n and depth L (a residual MLP's curve in the *vs learning rate* view).
inline Measure log2_eta_star_at(int n, int depth) {
  return [=](const Runner& r) {
    for (const LrCurve& c : lr_curves(r))
      if (c.width == n && c.depth == depth) return std::log2(c.best_lr);
    throw std::runtime_error("no lr curve at width " + std::to_string(n) + ", depth " + std::to_string(depth));
  };
}

// The slope of log₂ η* against log₂ L over the curves of width n.
inline Measure depth_eta_slope(int n) {
  return [=](const Runner& r) {
    std::vector<double> depths, best;
    for (const LrCurve& c : lr_curves(r))
      if (c.width == n) {
        depths.push_back(c.depth);
        best.push_back(c.best_lr);
      }
    return loglog_slope(depths, best);
  };
}

// The slope of log₂ η* against log₂ width over every width's curve.
inline Measure eta_star_width_slope() {
  return [](const Runner& r) {
    std::vector<double> widths, best;
    for (const LrCurve& c : lr_curves(r)) {
      widths.push_back(c.width);
      best.push_back(c.best_lr);
    }
    return loglog_slope(widths, best);
  };
}
// The grid learning rate with the lowest loss at width n, as log₂ η.
inline Measure log2_grid_min(int n) {
  return [=](const Runner& r) {
    for (const LrCurve& c : lr_curves(r))
      if (c.width == n) return std::log2(c.lrs[size_t(c.grid_min)]);
    throw std::runtime_error("no lr curve at width " + std::to_string(n));
  };
}

// The *max LR* view's slope of η_max against width (mean over seeds).
inline Measure max_lr_slope() {
  return [](const Runner& r) { return max_lr_table(r).slope.mean; };
}

// The *embeddings* view's cluster separation of seed 0 at width n.
inline Measure separation(int n) {
  return [=](const Runner& r) {
    const Member& m = member(r, [n](const MemberCoords& c) { return c.width == n && c.seed == 0; });
    const int words = r.spec().task.input_dim;
    return cluster_separation(pca_plane(embedding_gram(*m.mlp()), words), skipgram_clusters(words));
  };
}

// The same at n = ∞: the linear limit's embeddings after the run's steps at its learning rate (seed 0's data).
inline Measure separation_at_infinity() {
  return [](const Runner& r) {
    const Member& m = member(r, [](const MemberCoords& c) { return c.seed == 0; });
    const int words = r.spec().task.input_dim;
    const std::vector<double> gram =
        embedding_gram_at_infinity(*m.mlp(), r.data().train, m.coords().lr, r.spec().schedule.steps);
    return cluster_separation(pca_plane(gram, words), skipgram_clusters(words));
  };
}

inline void expect_bounds(const std::string& file, const Runner& runner, const std::vector<Bound>& bounds) {
  for (const Bound& b : bounds) {
    const double measured = b.measure(runner);
    std::printf("%s: %s: measured %.4g, bound [%g, %g]\n", file.c_str(), b.what.c_str(), measured, b.lo, b.hi);
    EXPECT_GE(measured, b.lo) << file << ": " << b.what;
    EXPECT_LE(measured, b.hi) << file << ": " << b.what;
  }
}

// Checks every quote on a finished run of the preset `file` whose description is `description`.
inline void expect_quotes(const std::string& file, const std::string& description, const Runner& runner,
                          const std::vector<Quote>& quotes) {
  for (const Quote& q : quotes) {
    EXPECT_NE(description.find(q.words), std::string::npos) << file << ": the description no longer says \""
                                                            << q.words << "\"";
    const double measured = q.measure(runner);
    std::printf("%s: \"%s\": measured %.4g, quoted %.4g +- %.3g\n", file.c_str(), q.words.c_str(), measured, q.value,
                q.tolerance);
    EXPECT_NEAR(measured, q.value, q.tolerance) << file << ": \"" << q.words << "\"";
  }
}
