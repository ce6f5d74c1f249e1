// The semantics layer's record: every item ImGui laid out this frame that a user can act on or read, with its role,
// name, rectangle, state, value and description, in reading (layout) order. web/js/semantics.js places one
// transparent DOM node over each, so the canvas's controls are reached with Tab and read by a screen reader, the way
// Flutter's web engine keeps its semantics tree beside the canvas it draws.
//
// Always on, unlike the frame trace (web/draw/drawn.hpp), and fed by the same test-engine hooks (drawn.cpp calls
// semantics_item_added / semantics_item_info from them). ImGui's hooks tell a checkbox (its flags), a tab (it belongs
// to the current tab bar) and an openable tree node; every other labelled item reads as a button unless the panel
// names its role just before it (semantics_next), as it must for a widget whose label shows nothing ("##path"), a
// combo (ImGui reports no label for it), a text field, an option of a list or a slider.
//
// Acting on an item goes back through ImGui, so a control behaves exactly as when clicked or typed in: a press is
// ImGui::ActivateItem, applied once the item is laid out inside its panel (it is scrolled there first); a text field's
// or a combo's new value waits for its panel to take it (semantics_take_value) and apply it as its own edit.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/base/json.hpp"
#include "imgui.h"

struct ImRect;

// What a panel says of the next item, before drawing it. `role`: "button", "checkbox", "tab", "option" (an entry of a
// list that picks one), "text" (a text field; "number" for one that takes a number; "textarea" for one of several
// lines), "combo", "slider", "radio", "line" (text to read), "tree" (a
// node that opens), or "" (not a control: left out of the layer, such as a spec field's name beside its value).
struct SemanticHint {
  explicit SemanticHint(std::string role = "", std::string name = "", std::string group = "",
                        std::string group_label = "")
      : role(std::move(role)), name(std::move(name)), group(std::move(group)), group_label(std::move(group_label)) {}
  std::string role;
  std::string name;         // what a screen reader calls it, when the visible label says nothing ("model.widths")
  std::string group;        // the list or tab bar it belongs to (its key), "" for none
  std::string group_label;  // that group's name, in the page's language
  std::string value;        // a field's text, a combo's choice, a slider's number
  std::string description;  // meaning, allowed values, default: in the page's language
  std::string problem;      // what is wrong with the value, shown under it (in the page's language); "" if nothing
  std::vector<std::string> choices;  // a combo's
  double min = 0, max = 0, step = 0;  // a slider's (step 0: any)
  bool selected = false;             // an option that is the list's current one
};

// Names the item that `label` will make in the current window (ImGui::GetID(label)) before it is drawn.
void semantics_next(const char* label, SemanticHint hint);
// Leaves the item `label` out of the layer (a label drawn as a widget, such as a tree's leaf that only names a field).
void semantics_skip(const char* label);

// Brackets one frame (web/main.cpp), as the frame trace does; `css_per_unit`: CSS pixels per ImGui unit.
void semantics_begin_frame(float css_per_unit);
void semantics_end_frame();

// From the test-engine hooks (web/draw/drawn.cpp).
void semantics_item_added(ImGuiContext& ctx, const ImRect& bb, ImGuiID id);
void semantics_item_info(ImGuiContext& ctx, ImGuiID id, const char* label, int status_flags);

// A value the page's semantics layer gave the item `id` (a text field's text on Enter or leaving it, a combo's choice):
// taken once by the panel that draws it, which applies it as if typed or picked in ImGui.
std::optional<std::string> semantics_take_value(ImGuiID id);

// A combo box `label` (drawn next) showing `value` among `choices`: names it for the layer and returns the choice the
// page picked for it since the last frame, if any (one of `choices`).
std::optional<std::string> semantics_combo(const char* label, const std::string& value,
                                           const std::vector<std::string>& choices);
// A slider `label` (drawn next) at `value` in [min, max] by `step` (0: any), shown as `shown`: names it for the layer
// and returns the value the page set for it since the last frame, if any (clamped to [min, max]).
std::optional<double> semantics_slider(const char* label, double value, double min, double max, double step,
                                       const std::string& shown);
// A radio button `label` (drawn next), selected or not.
void semantics_radio(const char* label, bool selected);
// A line of a list that is read, not acted on (a row of the runs table): `text` over the rectangle [min, max] of the
// current window, in the list `group` named `group_label`; `key` tells it from the other lines in the window.
void semantics_line(const std::string& key, const std::string& text, ImVec2 min, ImVec2 max, const std::string& group,
                    const std::string& group_label);

// From the page (web/js_api.cpp): press `id` (a button, checkbox, tab, option, tree node), bring it into its panel's
// view, give it a value.
void semantics_activate(ImGuiID id);
void semantics_scroll_to(ImGuiID id);
void semantics_set_value(ImGuiID id, const std::string& value);

// Changes only when the record's content does: the page rebuilds its DOM nodes only then.
double semantics_revision();
// {"revision", "nodes": [{"id", "role", "label" (visible), "name", "english" (its id in every language: the label after
// "###", as tr_label writes it, else the whole label), "window", "group", "group_label", "rect" (CSS px,
// relative to the canvas), "visible", "checked", "selected", "disabled", "expanded", "value", "description", "problem",
// "choices", "min", "max", "step"}]}.
json::Value semantics_json();
