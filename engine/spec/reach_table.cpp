#include "engine/spec/reach_table.hpp"

#include <algorithm>
#include <vector>

#include "engine/spec/metric_table.hpp"
#include "engine/spec/spec_fields.hpp"

namespace {

std::string row(const std::string& feature, bool on_device, const std::string& not_exported) {
  return "| " + feature + " | " + (on_device ? "yes" : "CPU only") + " | " +
         (not_exported.empty() ? "yes" : "no: " + not_exported) + " |\n";
}

// A choice's names that the GPU plans lack, in one row: "`model.activation` `sin`, `ricker`" ("" when none).
std::string name_rows(const SpecField& f) {
  std::string names;
  for (const std::string& name : f.choices)
    if (!f.device_names.empty() &&
        std::find(f.device_names.begin(), f.device_names.end(), name) == f.device_names.end())
      names += (names.empty() ? "`" : ", `") + name + "`";
  return names.empty() ? "" : row("`" + f.path + "` " + names, false, "");
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
