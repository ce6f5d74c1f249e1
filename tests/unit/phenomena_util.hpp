// Helpers shared by the phenomena tests: build a spec from JSON text and step a run.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "engine/run/runner.hpp"

inline ExperimentSpec spec_from(const std::string& text) {
  SpecResult r = parse_spec_text(text);
  EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0]);
  return r.spec;
}

// The last recorded value of a series (NaN if absent or empty).
inline double last(const Member& run, const std::string& name) {
  const Series* s = run.find_series(name);
  return s && !s->values.empty() ? s->values.back() : NAN;
}

// The frequency principle's t_k: the first steps with Δ_F(k) < 0.1 for k = 1, 3, 5, and Δ_F(5) at t₁.
struct Peaks {
  int t1 = -1, t3 = -1, t5 = -1;
  double delta5_at_t1 = NAN;
};

// Trains until Δ_F(5) first drops below 0.1 (or the spec's steps run out), noting t_1, t_3, t_5.
inline Peaks first_convergence(const ExperimentSpec& s) {
  Runner runner(s);
  const Member& run = *runner.members()[0];
  Peaks p;
  while (runner.step()) {
    const int t = run.recorded_steps().back();
    if (p.t1 < 0 && last(run, "delta_F/k=1") < 0.1) {
      p.t1 = t;
      p.delta5_at_t1 = last(run, "delta_F/k=5");
    }
    if (p.t3 < 0 && last(run, "delta_F/k=3") < 0.1) p.t3 = t;
    if (last(run, "delta_F/k=5") < 0.1) {
      p.t5 = t;
      break;
    }
  }
  return p;
}
