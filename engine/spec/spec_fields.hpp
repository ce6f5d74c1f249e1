// Every field of the spec document, one row each: its JSON path, what it holds and the range it must lie in, a line of
// help, how it is read into an ExperimentSpec and written back, and when the writer writes it. Its default is what the
// row writes for ExperimentSpec{}.
//
// One table serves everyone who needs a field's facts: parse_spec reads by it (engine/spec/spec.cpp), spec_to_json
// writes by it, the page's Fields editor shows each field's range and help (web/views/spec_editor.cpp), and `muplay fields`
// prints it as the field table of examples/README.md (a test checks that the two agree). Adding a field is one row
// here and the code that uses the member it fills.
//
// Checks that involve more than one field (a task's sizes, which options combine) are check_spec's (spec.hpp).
#pragma once
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "engine/base/json.hpp"
#include "engine/spec/experiment_spec.hpp"

enum class FieldKind {
  object,        // holds fields of its own (their paths start with this one's)
  number,
  integer,
  boolean,
  text,          // a string of at most max_items characters
  choice,        // one of `choices`
  numbers,       // a list of numbers in [lo, hi], at most max_items
  integers,      // a list of integers in [lo, hi], at most max_items
  names,         // a list of strings (metric names: check_spec checks them against the metric table)
  abc_layers,    // parametrization.custom: a list of {"a", "b", "c"}, each in [lo, hi]
  number_pairs,  // sweep.phase_points: a list of [γ, γ′], each in [lo, hi]
};

struct SpecField {
  std::string path;  // "schedule.batch_size"
  FieldKind kind = FieldKind::number;
  double lo = 0, hi = 0;             // numbers, integers and the items of lists
  size_t max_items = 0;              // lists; text: its longest length in bytes
  std::vector<std::string> choices;  // choice: the names accepted, in the order an error lists them
  std::string help;                  // one line, plain text
  // Reads the value found at `path` into the spec, or adds an error naming `path` (for a list, the item's path).
  std::function<void(const json::Value& v, const std::string& path, ExperimentSpec& s,
                     std::vector<std::string>& errors)> read;
  std::function<json::Value(const ExperimentSpec& s)> write;  // null for an object
  // When spec_to_json writes the field (inside its object, when that is written); null: when its value differs from
  // the default. Fields added after share links existed are written only when set, so those links stay the same.
  bool (*written)(const ExperimentSpec& s) = nullptr;
  // Where the field means something (null: everywhere), and that place in words for the error "PATH: only for
  // WHAT" that check_spec gives a field set elsewhere: the cross-field rule each such field would otherwise need.
  bool (*used)(const ExperimentSpec& s) = nullptr;
  std::string used_by;

  // Its reach where it is set away from its default, beside the metrics' (engine/spec/metric_table.hpp): false
  // `on_device`: the GPU plans lack it, so a member that sets it trains on the CPU; a non-empty `not_exported`: why
  // the PyTorch export refuses a spec that sets it. A choice's names may reach less far than the field:
  // `device_names` (when not empty) are the only names the GPU plans have.
  bool on_device = true;
  std::string not_exported;
  std::vector<std::string> device_names;

  SpecField& only_for(bool (*where)(const ExperimentSpec& s), const char* what) {
    used = where;
    used_by = what;
    return *this;
  }
  SpecField& cpu_only() { return on_device = false, *this; }
  SpecField& not_exported_because(const char* why) { return not_exported = why, *this; }
  SpecField& on_device_only_as(std::vector<std::string> names) { return device_names = std::move(names), *this; }
};

// In the order spec_to_json writes them: an object's row comes before its fields.
const std::vector<SpecField>& spec_fields();
// The row of `path` ("model.transformer.d_model"); null for a path the spec does not have.
const SpecField* spec_field(const std::string& path);

// Whether the spec sets the field away from its default (an object: whether it is written at all).
bool field_is_set(const SpecField& f, const ExperimentSpec& s);
// What the field allows, in words: "integer in [1, 16384]", "relu, tanh, ...", "up to 16 integers in [1, 16384]".
std::string field_allowed(const SpecField& f);
// Its help, and where it means something: "the number L of residual blocks; only for model.kind \"residual_mlp\"".
std::string field_meaning(const SpecField& f);
// The field's default as JSON text ("0.1", "[64, 64]", "\"mup\""); "" for an object.
std::string field_default(const SpecField& f);
// The field table of examples/README.md, in Markdown: field, default, allowed, meaning; objects left out.
std::string spec_fields_markdown();

// The first field the spec sets that the GPU plans lack ("model.asi", "optimizer.kind \"gd_auto\""); "" when a
// member of this spec can train on a device.
std::string first_cpu_only_field(const ExperimentSpec& s);
// Why the PyTorch export refuses each field the spec sets that it cannot express, one "PATH: why" each.
std::vector<std::string> fields_not_exported(const ExperimentSpec& s);

// The fields whose value is one of a few names, by path, with their names (the Fields editor's combo boxes).
const std::map<std::string, std::vector<std::string>>& spec_choice_fields();
// The names of one such field; empty for a field that takes any value of its type.
const std::vector<std::string>& spec_field_choices(const std::string& json_path);
