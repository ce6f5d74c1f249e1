#include "web/app/backend_panel.hpp"

#include <algorithm>

#include "imgui.h"

namespace {

const ImVec4 kNoteColor(1.0f, 0.85f, 0.3f, 1.0f);

Backend doc_backend(const json::Value& doc) {
  const json::Value* b = doc.find("backend");
  Backend out = Backend::auto_;
  if (b && b->is_string()) enum_value(kBackendNames, b->string, out);
  return out;
}

}  // namespace

void backend_controls(App& app) {
  static const char* const kLabels[] = {"auto", "CPU", "WebGPU"};
  static const Backend kValues[] = {Backend::auto_, Backend::cpu, Backend::webgpu};
  int current = int(doc_backend(app.spec_doc));
  ImGui::SetNextItemWidth(110);
  if (ImGui::Combo("backend", &current, kLabels, 3)) {
    // The spec holds the choice (so links and files keep it); auto is the default and stays unwritten.
    if (kValues[current] == Backend::auto_) app.spec_doc.object.erase(std::remove_if(app.spec_doc.object.begin(),
        app.spec_doc.object.end(), [](const auto& kv) { return kv.first == "backend"; }), app.spec_doc.object.end());
    else app.spec_doc.set("backend", json::Value::make_string(backend_name(kValues[current])));
    spec_doc_changed(app);
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("auto: the CPU (WebGPU's speed on a real GPU is not measured yet). WebGPU: use it, even on a "
                      "software adapter.");
  ImGui::SameLine();
  ImGui::PushTextWrapPos(0);  // a narrow panel wraps the adapter's name instead of cutting it
  if (app.gpu)
    ImGui::TextDisabled("adapter: %s%s%s", app.gpu->name().c_str(), app.gpu->is_fallback() ? " (software fallback)" : "",
                        app.gpu->lost() ? " (lost)" : "");
  else
    ImGui::TextDisabled("no WebGPU: %s", app.gpu_why_none.c_str());
  ImGui::PopTextWrapPos();
  const std::string note = app.runner ? app.runner->backend_note() : "";
  if (!note.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(kNoteColor, "%s", note.c_str());
    ImGui::PopTextWrapPos();
  }
}

std::string backend_label(const App& app) {
  const std::string cpu_precision = precision_name(app.runner ? app.runner->spec().precision : Precision::float64);
  if (!app.runner || app.runner->gpu_name().empty()) return "CPU (wasm SIMD, " + cpu_precision + ")";
  if (app.runner->moved_to_cpu()) return "CPU after losing WebGPU (" + cpu_precision + ")";
  return "WebGPU (" + app.runner->gpu_name() + "), float32";
}
