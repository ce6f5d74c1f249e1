// Experiment presets: the JSON spec files of a folder (examples/ natively, /examples in the browser's
// virtual file system), listed in file-name order.
#pragma once
#include <string>
#include <vector>

#include "engine/spec/spec.hpp"

struct PresetFile {
  std::string path;
  std::string name;         // the spec's "name"
  std::string description;  // the spec's "description"
  std::string text;         // the file's JSON text
  std::vector<std::string> errors;  // non-empty when the file is not a valid spec (under the limits it was listed with)
};

std::vector<PresetFile> list_presets(const std::string& dir, const SpecLimits& limits = {});

// Whole file as a string; false when it cannot be read.
bool read_text_file(const std::string& path, std::string& out);
