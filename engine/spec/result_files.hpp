// The files an experiment is saved as, written the same way by the CLI and by the page's downloads, so a file
// from either reads the same: the spec (JSON), the result document (JSON, examples/README.md: the result document)
// and its metrics as CSV.
#pragma once
#include <string>

#include "engine/base/json.hpp"
#include "engine/spec/spec.hpp"

// The result document's version. It is raised when the document's layout changes or when the engine computes
// different numbers for the same spec and backend; a share link carries it ("&r=1"), so that a link opened by a
// build of another version can say its numbers may differ.
constexpr int kResultVersion = 1;

std::string spec_file_text(const ExperimentSpec& spec);
std::string result_file_text(const json::Value& results);

// One row per run and recorded step: width,lr,seed,status,step, then one column per series (the union over runs,
// in order of first appearance; a run without that series leaves the cell empty, as does a non-finite value).
std::string results_csv(const json::Value& results);
