#include "engine/spec/presets.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/spec/spec_migrations.hpp"

bool read_text_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

std::vector<PresetFile> list_presets(const std::string& dir, const SpecLimits& limits) {
  namespace fs = std::filesystem;
  std::vector<PresetFile> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".json") continue;
    PresetFile p;
    p.path = entry.path().string();
    if (!read_text_file(p.path, p.text)) {
      p.errors.push_back("cannot read the file");
    } else {
      SpecResult r = read_spec_text(p.text, limits);  // older preset files are migrated, as the CLI and page do
      p.name = r.spec.name;
      p.description = r.spec.description;
      p.errors = r.errors;
    }
    out.push_back(std::move(p));
  }
  std::sort(out.begin(), out.end(), [](const PresetFile& a, const PresetFile& b) { return a.path < b.path; });
  return out;
}
