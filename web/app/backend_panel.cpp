#include "web/app/backend_panel.hpp"

#include <algorithm>

#include "imgui.h"
#include "web/draw/i18n.hpp"
#include "web/draw/semantics.hpp"
#include "web/draw/wrapped_text.hpp"

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
  static const char* const kLabels[] = {"auto", "CPU", "WebGPU"};  // the spec's values and names: not translated
  static const Backend kValues[] = {Backend::auto_, Backend::cpu, Backend::webgpu};
  int current = int(doc_backend(app.spec_doc));
  ImGui::SetNextItemWidth(110);
  bool picked = false;
  if (const std::optional<std::string> given =
          semantics_combo(tr_label("backend"), kLabels[current], {kLabels, kLabels + 3})) {
    current = int(std::find(kLabels, kLabels + 3, *given) - kLabels);
    picked = true;
  }
  if (ImGui::Combo(tr_label("backend"), &current, kLabels, 3) || picked) {
    // The spec holds the choice (so links and files keep it); auto is the default and stays unwritten.
    if (kValues[current] == Backend::auto_) app.spec_doc.object.erase(std::remove_if(app.spec_doc.object.begin(),
        app.spec_doc.object.end(), [](const auto& kv) { return kv.first == "backend"; }), app.spec_doc.object.end());
    else app.spec_doc.set("backend", json::Value::make_string(backend_name(kValues[current])));
    spec_doc_changed(app);
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", tr("auto: the CPU (WebGPU's speed on a real GPU is not measured yet). WebGPU: use it, even "
                               "on a software adapter."));
  ImGui::SameLine();
  // A narrow panel wraps the adapter's name instead of cutting it.
  if (app.gpu)
    wrapped_text_disabled(trf("adapter: %s%s%s", app.gpu->name().c_str(),
                              app.gpu->is_fallback() ? tr(" (software fallback)") : "",
                              app.gpu->lost() ? tr(" (lost)") : ""));
  else
    wrapped_text_disabled(trf("no WebGPU: %s", tr_message(app.gpu_why_none).c_str()));
  const std::string note = app.runner ? tr_message(app.runner->backend_note()) : "";
  if (!note.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kNoteColor);
    wrapped_text(note);
    ImGui::PopStyleColor();
  }
}

std::string backend_label(const App& app) {
  const std::string cpu_precision = precision_name(app.runner ? app.runner->spec().precision : Precision::float64);
  if (!app.runner || app.runner->gpu_name().empty()) return trf("CPU (wasm SIMD, %s)", cpu_precision.c_str());
  if (app.runner->moved_to_cpu()) return trf("CPU after losing WebGPU (%s)", cpu_precision.c_str());
  return "WebGPU (" + app.runner->gpu_name() + "), float32";
}
