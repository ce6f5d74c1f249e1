#include "engine/spec/reach_table.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "engine/spec/metric_table.hpp"
#include "engine/spec/spec_fields.hpp"

namespace {

std::string row(const std::string& feature, bool on_device, const std::string& not_exported) {
  return "| " + feature + " | " + (on_device ? "yes" : "CPU only") + " | " +
         (not_exported.empty() ? "yes" : "no: " + not_exported) + " |\n";
}

// A choice's names that reach less far than the field, one row per reach: "`model.activation` `sin`, `ricker`".
std::string name_rows(const SpecField& f) {
  std::vector<std::pair<std::string, std::string>> reaches;  // (on device ? "yes" : "", why not exported)
  std::vector<std::string> names;
  for (const std::string& name : f.choices) {
    const bool on_device = f.device_names.empty() ||
                           std::find(f.device_names.begin(), f.device_names.end(), name) != f.device_names.end();
    const auto refused = f.names_not_exported.find(name);
    const std::pair<std::string, std::string> reach{on_device ? "yes" : "",
                                                    refused == f.names_not_exported.end() ? "" : refused->second};
    if (on_device && reach.second.empty()) continue;
    const auto at = std::find(reaches.begin(), reaches.end(), reach);
    if (at == reaches.end()) {
      reaches.push_back(reach);
      names.push_back("`" + name + "`");
    } else {
      names[size_t(at - reaches.begin())] += ", `" + name + "`";
    }
  }
  std::string out;
  for (size_t i = 0; i < reaches.size(); i++)
    out += row("`" + f.path + "` " + names[i], !reaches[i].first.empty(), reaches[i].second);
  return out;
}

}  // namespace

std::string reach_markdown() {
  std::string out = "| feature | on WebGPU | in the PyTorch export |\n|---|---|---|\n";
  for (const SpecField& f : spec_fields()) {
    if (!f.on_device || !f.not_exported.empty()) out += row("`" + f.path + "`", f.on_device, f.not_exported);
    if (f.kind == FieldKind::choice) out += name_rows(f);
  }
  for (const MetricDef& m : metric_table())
    if (m.listable && (!m.on_device || !m.exported))
      out += row("metric `" + std::string(m.name) + "`", m.on_device, m.exported ? "" : "not recorded");
  return out;
}
