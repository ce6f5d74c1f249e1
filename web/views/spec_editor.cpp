#include "web/views/spec_editor.hpp"

#include <cstdlib>

#include "engine/kernels/gemm_f32.hpp"
#include "engine/spec/spec.hpp"
#include "imgui.h"
#include "imgui_stdlib.h"
#include "web/draw/colour_maps.hpp"
#include "web/draw/drawn.hpp"
#include "web/draw/i18n.hpp"
#include "web/draw/wrapped_text.hpp"

namespace {

const ImVec4 kProblemColor = ImGui::ColorConvertU32ToFloat4(page_colour::error);

// The errors that name this field or an item inside it (children too: fields of an object), one a line: as the
// engine writes them (English), or in the page's language.
std::string errors_at(const std::string& path, const std::vector<std::string>& errors, bool children,
                      bool in_page_language = false) {
  std::string out;
  for (const std::string& e : errors) {
    if (e.compare(0, path.size(), path) != 0) continue;
    const char next = e.size() > path.size() ? e[path.size()] : '\0';
    if (next == ':' || next == '[' || (children && next == '.'))
      out += (out.empty() ? "" : "\n") + (in_page_language ? tr_message(e) : e);
  }
  return out;
}

// A list of scalars (widths, seeds, metric names) edits as one comma-separated line: "64, 128, 256".
bool edit_scalar_list(json::Value& v, const char* id) {
  std::string text;
  for (size_t i = 0; i < v.array.size(); i++) {
    const json::Value& item = v.array[i];
    text += (i ? ", " : "") + (item.is_string() ? item.string : json::write(item));
  }
  if (!ImGui::InputText(id, &text, ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll) &&
      !ImGui::IsItemDeactivatedAfterEdit())
    return false;
  json::Value list = json::Value::make_array();
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string token = text.substr(start, end - start);
    token.erase(0, token.find_first_not_of(" \t"));
    token.erase(token.find_last_not_of(" \t") + 1);
    if (!token.empty()) {
      char* rest = nullptr;
      const double x = std::strtod(token.c_str(), &rest);
      list.push(rest && *rest == '\0' ? json::Value::make_number(x) : json::Value::make_string(token));
    }
    start = end + 1;
  }
  v = list;
  return true;
}

// Each value's widget is labelled "##" + its path ("##optimizer.lr"): nothing shows, and the page's test hook
// (web/draw/drawn.hpp) finds the field by it.
bool edit_leaf(json::Value& v, const std::string& path) {
  ImGui::SetNextItemWidth(-1);
  const std::string id = "##" + path;
  switch (v.type) {
    case json::Type::boolean: return ImGui::Checkbox(id.c_str(), &v.boolean);
    case json::Type::number: {
      // Commit on Enter or leaving the field, so typing "0.05" does not restart a run at "0".
      double x = v.number;
      ImGui::InputDouble(id.c_str(), &x, 0, 0, "%.6g");
      if (ImGui::IsItemDeactivatedAfterEdit() && x != v.number) {
        v.number = x;
        return true;
      }
      return false;
    }
    case json::Type::string: {
      // A field whose value is one of a few names is a combo box of the names the engine's reader accepts there.
      const std::vector<std::string>& options = spec_field_choices(path);
      if (options.empty()) return ImGui::InputText(id.c_str(), &v.string);
      bool changed = false;
      // Up to 20 rows: the longest list (10 activations) opens without a scrollbar.
      drawn_name_next(id.c_str());
      drawn_item_value(id.c_str(), v.string);
      if (ImGui::BeginCombo(id.c_str(), v.string.c_str(), ImGuiComboFlags_HeightLarge)) {
        for (const std::string& o : options)
          if (ImGui::Selectable(o.c_str(), o == v.string)) { v.string = o; changed = true; }
        ImGui::EndCombo();
      }
      return changed;
    }
    case json::Type::array: return edit_scalar_list(v, id.c_str());
    default: ImGui::TextDisabled("null"); return false;
  }
}

// While the pointer is on a field's name: what the engine's table of fields says of it (engine/spec/spec_fields.hpp),
// its meaning, what it allows and its default. Noted in English as "field help: " + the text for the page's tests.
// Shown in the page's language: a meaning is a text of the catalogue, what a field allows a message with its numbers
// in it (a choice's names stay as the JSON spells them); the default is JSON.
void field_help(const std::string& path) {
  const SpecField* f = spec_field(path);
  if (!f || !ImGui::IsItemHovered()) return;
  std::string text = field_meaning(*f), shown = tr(text);
  if (f->kind != FieldKind::object) {
    const std::string allowed = field_allowed(*f), fallback = field_default(*f);
    text += "\n" + allowed + "; default " + fallback;
    shown += "\n" + trf("%s; default %s", (f->kind == FieldKind::choice ? allowed : tr_message(allowed)).c_str(),
                        fallback.c_str());
  }
  ImGui::BeginTooltip();
  wrapped_text(shown, ImGui::GetFontSize() * 32);
  ImGui::EndTooltip();
  drawn_note_text("field help: " + text);
}

bool is_scalar_list(const json::Value& v) {
  if (!v.is_array()) return false;
  for (const json::Value& item : v.array)
    if (item.is_array() || item.is_object()) return false;
  return true;
}

bool edit_node(const std::string& key, json::Value& v, const std::string& path, const std::vector<std::string>& errors) {
  bool changed = false;
  const bool container = v.is_object() || (v.is_array() && !is_scalar_list(v));
  const std::string problems = errors_at(path, errors, container);
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::PushID(path.c_str());
  if (container) {
    const bool open = ImGui::TreeNodeEx(key.c_str(), ImGuiTreeNodeFlags_SpanFullWidth |
                                                         (path.find('.') == std::string::npos ? ImGuiTreeNodeFlags_DefaultOpen : 0));
    field_help(path);
    if (!problems.empty()) {
      ImGui::TableNextColumn();
      ImGui::TextColored(kProblemColor, "%s", tr("(problem inside)"));
    }
    if (open) {
      if (v.is_object())
        for (auto& kv : v.object) changed |= edit_node(kv.first, kv.second, path + "." + kv.first, errors);
      else
        for (size_t i = 0; i < v.array.size(); i++)
          changed |= edit_node("[" + std::to_string(i) + "]", v.array[i], path + "[" + std::to_string(i) + "]", errors);
      ImGui::TreePop();
    }
  } else {
    ImGui::TreeNodeEx(key.c_str(), ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen | ImGuiTreeNodeFlags_SpanFullWidth);
    field_help(path);
    ImGui::TableNextColumn();
    changed = edit_leaf(v, path);
    // Under the field, wrapped in its cell: the field itself stays where the mouse left it.
    if (!problems.empty())
      drawn_wrapped_text(kProblemColor, errors_at(path, errors, false, true), "field error: " + problems);
  }
  ImGui::PopID();
  return changed;
}

}  // namespace

bool spec_editor(json::Value& doc, const std::vector<std::string>& errors) {
  if (!doc.is_object()) {
    ImGui::TextDisabled("%s", tr("(the spec is not a JSON object: fix it in the JSON tab)"));
    return false;
  }
  bool changed = false;
  if (ImGui::BeginTable("spec", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_Resizable)) {
    ImGui::TableSetupColumn("field", ImGuiTableColumnFlags_WidthStretch, 0.45f);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 0.55f);
    // `view` is chosen with the view tabs (the page writes the one shown into links and files), not typed here.
    for (auto& kv : doc.object)
      if (kv.first != "view") changed |= edit_node(kv.first, kv.second, kv.first, errors);
    // `precision` is left out of the JSON at its default (float64), so offer it here all the same.
    if (!doc.find("precision")) {
      const char* const default_precision = precision_name(Precision::float64);
      json::Value precision = json::Value::make_string(default_precision);
      if (edit_node("precision", precision, "precision", errors) && precision.string != default_precision) {
        doc.set("precision", precision);
        changed = true;
      }
    }
    ImGui::EndTable();
  }
  return changed;
}
