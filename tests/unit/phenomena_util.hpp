// Helpers shared by the phenomena tests (spec/phenomena.md §6): build a spec from JSON text and step a run.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "engine/runner.hpp"

inline ExperimentSpec spec_from(const std::string& text) {
  SpecResult r = parse_spec_text(text);
  EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0]);
  return r.spec;
}

// The last recorded value of a series (NaN if absent or empty).
inline double last(const Run& run, const std::string& name) {
  const Series* s = run.find_series(name);
  return s && !s->values.empty() ? s->values.back() : NAN;
}
