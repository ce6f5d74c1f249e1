#include "web/draw/semantics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <unordered_map>

#include "imgui_internal.h"

namespace {

struct SemanticNode {
  ImGuiID id = 0;
  std::string role, label, english, window;
  ImRect rect;
  bool visible = false, checked = false, disabled = false, expanded = false;
  SemanticHint hint;
};

// What ImGui's hooks said of an item: its rectangle (ItemAdd) and its label and flags (ItemInfo), in two calls (for
// tabs in the other order), joined at the frame's end.
struct Added {
  ImRect rect;
  const ImGuiWindow* window = nullptr;  // alive through the frame: ImGui keeps its windows
  bool visible = false, disabled = false;
};
struct Info {
  std::string label;
  int flags = 0;
  std::string tab_group;  // the tab bar's key for a tab, else ""
  bool tab_selected = false;
};

struct Semantics {
  float css_per_unit = 1;
  std::unordered_map<ImGuiID, Added> added;
  std::vector<ImGuiID> order;
  std::unordered_map<ImGuiID, SemanticHint> hints;
  std::unordered_map<ImGuiID, std::string> hinted_labels;  // the label each hint was given for, for an item never drawn
  // An item scrolled out of its panel is laid out (ItemAdd) but not drawn, so ImGui reports no label for it: the
  // label and flags it had when last drawn stand in.
  std::unordered_map<ImGuiID, Info> infos;
  std::vector<SemanticNode> nodes;
  uint64_t fingerprint = 0;
  double revision = 0;
  ImGuiID activate = 0, scroll_to = 0;
  std::unordered_map<ImGuiID, std::string> values;
};

Semantics& semantics() {
  static Semantics s;
  return s;
}

// FNV-1a over the record (its strings by their std::hash), so the revision moves only when something a DOM node
// shows changed.
struct Fingerprint {
  uint64_t h = 1469598103934665603ull;
  void add(const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
  }
  void add(const std::string& s) {
    const size_t hashed = std::hash<std::string>{}(s);
    add(&hashed, sizeof hashed);
  }
  void add(float x) { add(&x, sizeof x); }
  void add(double x) { add(&x, sizeof x); }
  void add(bool b) { add(&b, 1); }
};

void add_hint(Fingerprint& f, const SemanticHint& h) {
  for (const std::string* s : {&h.role, &h.name, &h.group, &h.group_label, &h.value, &h.description, &h.problem})
    f.add(*s);
  for (const std::string& c : h.choices) f.add(c);
  for (double x : {h.min, h.max, h.step}) f.add(x);
  f.add(h.selected);
}

// The frame's record as the hooks and panels left it, before it is joined into nodes: joining copies every label and
// hint, which is done only when this changes.
uint64_t fingerprint_of(const Semantics& s) {
  Fingerprint f;
  for (ImGuiID id : s.order) {
    f.add(&id, sizeof id);
    const Added& a = s.added.at(id);
    for (float x : {a.rect.Min.x, a.rect.Min.y, a.rect.Max.x, a.rect.Max.y}) f.add(x);
    for (bool b : {a.visible, a.disabled}) f.add(b);
    f.add(&a.window, sizeof a.window);
    if (const auto info = s.infos.find(id); info != s.infos.end()) {
      f.add(info->second.label);
      f.add(&info->second.flags, sizeof info->second.flags);
      f.add(info->second.tab_group);
      f.add(info->second.tab_selected);
    }
    if (const auto hint = s.hints.find(id); hint != s.hints.end()) add_hint(f, hint->second);
    if (const auto label = s.hinted_labels.find(id); label != s.hinted_labels.end()) f.add(label->second);
  }
  return f.h;
}

// The role ImGui's own report tells, where the panel named none.
std::string role_from(const Info& info) {
  if (!info.tab_group.empty()) return "tab";
  if (info.flags & ImGuiItemStatusFlags_Checkable) return "checkbox";
  if (info.flags & ImGuiItemStatusFlags_Openable) return "tree";
  return "button";
}

// Joins what the hooks and the panels said of one item; false for an item the layer leaves out.
bool make_node(Semantics& s, ImGuiID id, SemanticNode& n) {
  const auto hint = s.hints.find(id);
  const auto info = s.infos.find(id);
  if (hint != s.hints.end() && hint->second.role.empty()) return false;  // left out by its panel
  const auto hinted = s.hinted_labels.find(id);
  const std::string label = info != s.infos.end() ? info->second.label
                            : hinted != s.hinted_labels.end() ? hinted->second : "";
  const size_t hashes = label.find("##");
  n.id = id;
  n.label = label.substr(0, hashes);
  n.english = label.find("###") != std::string::npos ? label.substr(label.find("###") + 3) : label;
  if (hint == s.hints.end() && n.label.empty()) return false;  // a splitter, a plot's box, a window's scrollbar
  if (hint != s.hints.end()) {
    n.hint = std::move(hint->second);  // the hints are the frame's, cleared at the next
    n.role = n.hint.role;
  } else {
    n.role = role_from(info->second);
  }
  const Added& a = s.added[id];
  n.window = a.window ? a.window->Name : "";
  n.rect = a.rect;
  n.visible = a.visible;
  n.disabled = a.disabled;
  if (info != s.infos.end()) {
    n.checked = (info->second.flags & ImGuiItemStatusFlags_Checked) != 0;
    n.expanded = (info->second.flags & ImGuiItemStatusFlags_Opened) != 0;
    if (!info->second.tab_group.empty()) {
      n.hint.selected = info->second.tab_selected;
      if (n.hint.group.empty()) n.hint.group = info->second.tab_group;
    }
  }
  if (n.hint.name.empty()) n.hint.name = n.label;
  return true;
}

json::Value string_json(const std::string& s) { return json::Value::make_string(s); }

json::Value node_json(const SemanticNode& n, float k) {
  json::Value v = json::Value::make_object();
  v.set("id", json::Value::make_number(n.id));
  v.set("role", string_json(n.role));
  v.set("label", string_json(n.label));
  v.set("name", string_json(n.hint.name));
  v.set("english", string_json(n.english));
  v.set("window", string_json(n.window));
  v.set("group", string_json(n.hint.group));
  v.set("group_label", string_json(n.hint.group_label));
  json::Value rect = json::Value::make_array();
  for (float x : {n.rect.Min.x, n.rect.Min.y, n.rect.Max.x, n.rect.Max.y}) rect.push(json::Value::make_number(x * k));
  v.set("rect", rect);
  v.set("visible", json::Value::make_bool(n.visible));
  v.set("checked", json::Value::make_bool(n.checked));
  v.set("selected", json::Value::make_bool(n.hint.selected));
  v.set("disabled", json::Value::make_bool(n.disabled));
  v.set("expanded", json::Value::make_bool(n.expanded));
  v.set("value", string_json(n.hint.value));
  v.set("description", string_json(n.hint.description));
  v.set("problem", string_json(n.hint.problem));
  json::Value choices = json::Value::make_array();
  for (const std::string& c : n.hint.choices) choices.push(string_json(c));
  v.set("choices", choices);
  v.set("min", json::Value::make_number(n.hint.min));
  v.set("max", json::Value::make_number(n.hint.max));
  v.set("step", json::Value::make_number(n.hint.step));
  return v;
}

// Scrolls `window` so that `bb` sits in the middle of its height, unless it is already wholly in view.
void scroll_into_view(ImGuiWindow* window, const ImRect& bb) {
  if (!window || window->InnerClipRect.Contains(bb)) return;
  ImGui::SetScrollFromPosY(window, (bb.Min.y + bb.Max.y) / 2 - window->Pos.y, 0.5f);
}

}  // namespace

void semantics_next(const char* label, SemanticHint hint) {
  const ImGuiID id = ImGui::GetID(label);
  semantics().hints[id] = std::move(hint);
  if (!semantics().infos.count(id)) semantics().hinted_labels[id] = label;  // an item drawn before has its label
}
void semantics_skip(const char* label) { semantics().hints[ImGui::GetID(label)] = SemanticHint{}; }

void semantics_begin_frame(float css_per_unit) {
  Semantics& s = semantics();
  s.css_per_unit = css_per_unit;
  s.added.clear();
  s.order.clear();
  s.hints.clear();
  s.hinted_labels.clear();
}

void semantics_end_frame() {
  Semantics& s = semantics();
  const uint64_t fingerprint = fingerprint_of(s);
  if (fingerprint == s.fingerprint) return;
  s.fingerprint = fingerprint;
  s.revision += 1;
  s.nodes.clear();
  for (ImGuiID id : s.order) {
    SemanticNode n;
    if (make_node(s, id, n)) s.nodes.push_back(std::move(n));
  }
}

void semantics_item_added(ImGuiContext& ctx, const ImRect& bb, ImGuiID id) {
  Semantics& s = semantics();
  ImGuiWindow* w = ctx.CurrentWindow;
  const bool visible = w && w->ClipRect.Overlaps(bb);
  const auto [added, first] = s.added.try_emplace(id);
  if (first) s.order.push_back(id);
  added->second = {bb, w, visible, (ctx.LastItemData.InFlags & ImGuiItemFlags_Disabled) != 0};
  if (id == s.scroll_to) {
    scroll_into_view(w, bb);
    s.scroll_to = 0;
  }
  // A press waits until its item is drawn inside its panel: ImGui skips an item scrolled out of view.
  if (id == s.activate) {
    if (visible) {
      ImGui::ActivateItem(id);
      s.activate = 0;
    } else {
      scroll_into_view(w, bb);
    }
  }
}

// Called for every item drawn, every frame: the label is copied only when it changed.
void semantics_item_info(ImGuiContext& ctx, ImGuiID id, const char* label, int status_flags) {
  if (!label) return;
  Info& info = semantics().infos[id];
  if (info.label != label) info.label = label;
  info.flags = status_flags;
  ImGuiTabBar* bar = ctx.CurrentTabBar;
  info.tab_selected = false;
  if (bar && ImGui::TabBarFindTabByID(bar, id)) {
    if (info.tab_group.empty()) info.tab_group = "tabs " + std::to_string(bar->ID);
    info.tab_selected = bar->VisibleTabId == id;
  } else if (!info.tab_group.empty()) {
    info.tab_group.clear();
  }
}

std::optional<std::string> semantics_combo(const char* label, const std::string& value,
                                           const std::vector<std::string>& choices) {
  SemanticHint hint{"combo"};
  hint.value = value;
  hint.choices = choices;
  semantics_next(label, std::move(hint));
  std::optional<std::string> given = semantics_take_value(ImGui::GetID(label));
  if (given && std::find(choices.begin(), choices.end(), *given) == choices.end()) return std::nullopt;
  return given;
}

std::optional<double> semantics_slider(const char* label, double value, double min, double max, double step,
                                       const std::string& shown) {
  SemanticHint hint{"slider"};
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  hint.value = text;
  hint.description = shown;
  hint.min = min;
  hint.max = max;
  hint.step = step;
  semantics_next(label, std::move(hint));
  const std::optional<std::string> given = semantics_take_value(ImGui::GetID(label));
  if (!given) return std::nullopt;
  char* rest = nullptr;
  const double x = std::strtod(given->c_str(), &rest);
  if (given->empty() || *rest != '\0' || !std::isfinite(x)) return std::nullopt;
  return std::clamp(x, min, max);
}

void semantics_radio(const char* label, bool selected) {
  SemanticHint hint{"radio"};
  hint.selected = selected;
  semantics_next(label, std::move(hint));
}

void semantics_line(const std::string& key, const std::string& text, ImVec2 min, ImVec2 max, const std::string& group,
                    const std::string& group_label) {
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  const ImRect bb(min, max);
  const ImGuiID id = ImGui::GetID(key.c_str());
  Semantics& s = semantics();
  if (!s.added.count(id)) s.order.push_back(id);
  s.added[id] = {bb, w, w->ClipRect.Overlaps(bb), false};
  SemanticHint hint{"line", text, group, group_label};
  s.hints[id] = std::move(hint);
  s.hinted_labels[id] = key;
}

std::optional<std::string> semantics_take_value(ImGuiID id) {
  auto& values = semantics().values;
  const auto it = values.find(id);
  if (it == values.end()) return std::nullopt;
  std::string value = std::move(it->second);
  values.erase(it);
  return value;
}

void semantics_activate(ImGuiID id) { semantics().activate = id; }
void semantics_scroll_to(ImGuiID id) { semantics().scroll_to = id; }
void semantics_set_value(ImGuiID id, const std::string& value) { semantics().values[id] = value; }

double semantics_revision() { return semantics().revision; }

json::Value semantics_json() {
  const Semantics& s = semantics();
  json::Value nodes = json::Value::make_array();
  for (const SemanticNode& n : s.nodes) nodes.push(node_json(n, s.css_per_unit));
  json::Value v = json::Value::make_object();
  v.set("revision", json::Value::make_number(s.revision));
  v.set("nodes", nodes);
  return v;
}
