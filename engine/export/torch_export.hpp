// `muplay export torch`: a spec as a standalone PyTorch project that trains it under torchrun at any width, and
// writes the same result document as `muplay run` (examples/README.md, "PyTorch export").
//
// train.py is the Python of engine/export/torch/ (header, tasks, models, metrics, train), with the experiment
// written in between: the spec, the series to record, and the scaling rules read from the engine's own tables
// (spec_scaling for an MLP, the Transformer's tensor inits) as c · n^(−e) per tensor, so a reader sees the rule
// and `--widths` can take the experiment to widths the engine never built.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "engine/spec/experiment_spec.hpp"

struct ExportFile {
  std::string path;  // relative: "train.py", "README.md", ...
  std::string text;  // its bytes (a table task's data file is copied as it is)
};

// train.py, README.md, requirements.txt and spec.json for the spec (and a table task's data file, at the path the spec
// names it by); empty, with `errors` filled (each naming the
// spec field it cannot express), when the exporter cannot express the spec.
std::vector<ExportFile> export_torch_project(const ExperimentSpec& s, std::vector<std::string>& errors);

// A table task's data files as the project holds them: the name the spec gives, the file as read, its SHA-256.
struct TableExportFile {
  std::string name;
  std::shared_ptr<const TableFile> file;
  std::string sha256;
};
std::vector<TableExportFile> table_files(const ExperimentSpec& s);
