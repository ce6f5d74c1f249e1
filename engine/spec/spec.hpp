// Reading and writing an ExperimentSpec (engine/spec/experiment_spec.hpp) as JSON.
//
// parse_spec() reads JSON and validates every field, collecting *all* problems, each with its path, the value
// and the allowed range (e.g. `model.widths[2]: 0 is not in [1, 16384]`). Unknown fields are errors.
// Absent fields take the defaults of ExperimentSpec, so a spec file only needs what differs. Both directions go by
// the table of fields (engine/spec/spec_fields.hpp); the checks across fields are check_spec's.
#pragma once
#include <string>
#include <vector>

#include "engine/base/json.hpp"
#include "engine/spec/experiment_spec.hpp"
#include "engine/spec/spec_fields.hpp"
#include "engine/spec/time_budget.hpp"

struct SpecResult {
  ExperimentSpec spec;
  std::vector<std::string> errors;  // empty when valid
  bool ok() const { return errors.empty(); }
};

// What a spec is checked against that the front end decides: the time a sweep may take and where the data files are.
// The defaults are the command line's budget, no Fashion-MNIST folder (a fashion_mnist spec is refused) and table
// files named relative to the working directory.
struct SpecLimits {
  TimeBudget budget = kCommandLineTimeBudget;
  std::string fashion_mnist_dir;  // the folder of the four files (engine/task/fashion_mnist.hpp)
  // A front end that fetches the files on demand (the page) declares the sizes of the subset its build serves, so a
  // spec validates before the files arrive (0: nothing declared; the files must be in the folder, as for the CLI).
  int fashion_mnist_train = 0, fashion_mnist_test = 0;
  // Where a table task's file is (task.table.file names it inside this folder): the command line gives the spec's
  // folder, the page the folder of the files imported into it.
  std::string table_dir;
  // false: the sweep's memory and time on this machine are not checked, for a spec that trains elsewhere (the PyTorch
  // export); every field's own range still is.
  bool host_budgets = true;
};

// A table task's file is read from limits.table_dir into spec.task.table_file (and its sha256 and size filled in when
// the spec does not name them yet).
SpecResult parse_spec(const json::Value& v, const SpecLimits& limits = {});
SpecResult parse_spec_text(const std::string& text, const SpecLimits& limits = {});
json::Value spec_to_json(const ExperimentSpec& s);
// Every field of every object the spec has (a Transformer's and an anchor task's only for them), each at its value,
// defaults included: for a program that reads the JSON without knowing the defaults (the PyTorch export's train.py).
json::Value spec_to_json_every_field(const ExperimentSpec& s);

// Checks that need the whole spec (sizes against the memory and time budgets, options that fit the task, ...).
// parse_spec already calls it; exposed for code that edits a spec in place.
std::vector<std::string> check_spec(const ExperimentSpec& s, const SpecLimits& limits = {});
