#include "web/views/spec_editor.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <unordered_map>

#include "engine/kernels/gemm_f32.hpp"
#include "engine/spec/spec.hpp"
#include "imgui.h"
#include "imgui_stdlib.h"
#include "web/draw/colour_maps.hpp"
#include "web/draw/drawn.hpp"
#include "web/draw/i18n.hpp"
#include "web/draw/semantics.hpp"
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
std::string scalar_list_text(const json::Value& v) {
  std::string text;
  for (size_t i = 0; i < v.array.size(); i++) {
    const json::Value& item = v.array[i];
    text += (i ? ", " : "") + (item.is_string() ? item.string : json::write(item));
  }
  return text;
}

// The line read back: numbers where a token is one, else strings; empty tokens dropped.
json::Value scalar_list(const std::string& text) {
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
  return list;
}

bool edit_scalar_list(json::Value& v, const char* id) {
  std::string text = scalar_list_text(v);
  if (!ImGui::InputText(id, &text, ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll) &&
      !ImGui::IsItemDeactivatedAfterEdit())
    return false;
  v = scalar_list(text);
  return true;
}

// A value the page's semantics layer gave the field (web/draw/semantics.hpp: typed in its DOM field, picked in its
// <select>), applied as the field's own widget applies an edit, so it is validated the same way. Returns whether the
// document changed.
bool take_given_value(json::Value& v, const std::string& path, const std::string& id) {
  const std::optional<std::string> given = semantics_take_value(ImGui::GetID(id.c_str()));
  if (!given) return false;
  switch (v.type) {
    case json::Type::number: {  // as ImGui's InputDouble: text that is not a number leaves the value as it was
      char* rest = nullptr;
      const double x = std::strtod(given->c_str(), &rest);
      if (given->empty() || !rest || *rest != '\0' || x == v.number) return false;
      v.number = x;
      return true;
    }
    case json::Type::string: {
      const std::vector<std::string>& options = spec_field_choices(path);
      if (!options.empty() && std::find(options.begin(), options.end(), *given) == options.end()) return false;
      if (*given == v.string) return false;
      v.string = *given;
      return true;
    }
    case json::Type::array: v = scalar_list(*given); return true;
    default: return false;
  }
}

// A field's meaning, what it allows and its default, from the engine's table of fields (engine/spec/spec_fields.hpp):
// in English (the tests' notes) or in the page's language (a meaning is a text of the catalogue, what a field allows a
// message with its numbers in it, a choice's names stay as the JSON spells them; the default is JSON).
std::string field_text(const SpecField& f, bool in_page_language) {
  std::string text = in_page_language ? tr(field_meaning(f)) : field_meaning(f);
  if (f.kind == FieldKind::object) return text;
  const std::string allowed = field_allowed(f), fallback = field_default(f);
  if (!in_page_language) return text + "\n" + allowed + "; default " + fallback;
  return text + "\n" + trf("%s; default %s", (f.kind == FieldKind::choice ? allowed : tr_message(allowed)).c_str(),
                           fallback.c_str());
}

// A field's text in the page's language, kept until the language changes: the semantics layer describes every field
// every frame.
const std::string& field_description(const SpecField& f) {
  static std::unordered_map<const SpecField*, std::string> kept;
  static int language = -1;
  if (language != page_language_changes()) {
    kept.clear();
    language = page_language_changes();
  }
  auto it = kept.find(&f);
  if (it == kept.end()) it = kept.emplace(&f, field_text(f, true)).first;
  return it->second;
}

// What the semantics layer says of a field's widget: named by its path, with its value, its description and the
// problem shown under it.
SemanticHint field_hint(const json::Value& v, const std::string& path, const std::string& problem) {
  SemanticHint hint;
  hint.name = path;
  hint.problem = problem;
  if (const SpecField* f = spec_field(path)) hint.description = field_description(*f);
  switch (v.type) {
    case json::Type::boolean: hint.role = "checkbox"; break;
    case json::Type::number: {
      hint.role = "number";
      char text[32];
      std::snprintf(text, sizeof text, "%.6g", v.number);
      hint.value = text;
      break;
    }
    case json::Type::string:
      hint.choices = spec_field_choices(path);
      hint.role = hint.choices.empty() ? "text" : "combo";
      hint.value = v.string;
      break;
    case json::Type::array:
      hint.role = "text";
      hint.value = scalar_list_text(v);
      break;
    default: break;
  }
  return hint;
}

// Each value's widget is labelled "##" + its path ("##optimizer.lr"): nothing shows, and the page's test hook
// (web/draw/drawn.hpp) finds the field by it.
bool edit_value(json::Value& v, const std::string& path, const std::string& id) {
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

// A field's widget, named for the semantics layer by its path. `problem`: the field's problems, in the page's language.
// A value the layer gave the field counts as an edit; the widget is drawn all the same, so it stays in the layer.
bool edit_leaf(json::Value& v, const std::string& path, const std::string& problem) {
  ImGui::SetNextItemWidth(-1);
  const std::string id = "##" + path;
  const bool given = take_given_value(v, path, id);
  if (v.type != json::Type::null) semantics_next(id.c_str(), field_hint(v, path, problem));
  const bool edited = edit_value(v, path, id);
  return given || edited;
}

// While the pointer is on a field's name: what the engine's table of fields says of it, in the page's language.
// Noted in English as "field help: " + the text for the page's tests.
void field_help(const std::string& path) {
  const SpecField* f = spec_field(path);
  if (!f || !ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  wrapped_text(field_text(*f, true), ImGui::GetFontSize() * 32);
  ImGui::EndTooltip();
  drawn_note_text("field help: " + field_text(*f, false));
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
    SemanticHint node{"tree"};
    if (const SpecField* f = spec_field(path)) node.description = field_description(*f);
    if (!problems.empty()) node.problem = errors_at(path, errors, true, true);
    semantics_next(key.c_str(), std::move(node));
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
    semantics_skip(key.c_str());  // the field's name: the layer names its value's widget by the field's path
    ImGui::TreeNodeEx(key.c_str(), ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen | ImGuiTreeNodeFlags_SpanFullWidth);
    field_help(path);
    ImGui::TableNextColumn();
    const std::string shown_problems = problems.empty() ? "" : errors_at(path, errors, false, true);
    changed = edit_leaf(v, path, shown_problems);
    // Under the field, wrapped in its cell: the field itself stays where the mouse left it.
    if (!problems.empty()) drawn_wrapped_text(kProblemColor, shown_problems, "field error: " + problems);
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
