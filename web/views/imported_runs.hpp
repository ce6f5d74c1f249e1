// A result document imported as a reference set: its runs are drawn over the page's own runs in the views (the
// overlay), e.g. a PyTorch run of the same spec at widths far beyond what a tab can train (`muplay export torch`).
// Only what the views draw is kept: each run's coordinates, status, recorded steps and series. Nothing is trained
// or re-derived here: the values are the document's.
#pragma once
#include <string>
#include <vector>

#include "engine/base/json.hpp"
#include "engine/run/member.hpp"
#include "engine/spec/experiment_spec.hpp"

struct ImportedRun {
  int width = 0;
  int depth = 0;  // a residual MLP's number of blocks (the document's "depth"); 0 for every other model
  double lr = 0, seed = 0;
  std::string status;  // "finished", "diverged", "failed" or "running", as the document says
  int diverged_at = -1;
  std::vector<int> recorded_steps;
  std::vector<Series> series;  // non-finite values (null in the document) are NaN
  std::string label;  // "n=4096 lr=0.5 seed=0" ("n=128 L=8 lr=0.5 seed=0"), as the page labels its own members

  const Series* find_series(const std::string& name) const;
};

struct ImportedSet {
  std::string name;    // the source: "big.result.json · pytorch · cuda:0 NVIDIA H100", or "... · muplay"
  std::string engine;  // the header's "engine", or "muplay" (the page's own engine writes none)
  std::string device;  // the header's "device", or ""
  std::string experiment;  // what was trained, for the match with the page's experiment: "mlp on sin"
  json::Value spec;        // its spec, as the document has it (its widths may be beyond the page's limits)
  std::vector<ImportedRun> runs;
};

// Reads a result document (schema "muplay-result", version 1) into a reference set named after `file_name` ("" when
// unknown) and the header. Errors name the field ("runs[2].series.train_loss[4]: ..."); then the set is empty.
ImportedSet read_imported_set(const json::Value& doc, const std::string& file_name, std::vector<std::string>& errors);

// Whether a parsed document is a result document (it may still be malformed).
bool is_result_document(const json::Value& doc);

// "mlp on sin", "transformer on anchor (identity)": the model kind and the task of a spec document (absent fields
// read as the defaults, as the spec reader reads them).
std::string experiment_kind(const json::Value& spec);

// Why the set's runs cannot be drawn over an experiment with `spec` (a different model kind or task), or "".
// A different metric set, widths, parametrization or optimizer is fine: the views draw what matches.
std::string overlay_mismatch(const ImportedSet& set, const ExperimentSpec& spec);
