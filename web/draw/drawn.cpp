#include "web/draw/drawn.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "imgui_internal.h"
#include "web/draw/glyph_runs.hpp"
#include "web/draw/semantics.hpp"
#include "web/draw/wrapped_text.hpp"

namespace {

struct Recorder {
  bool on = false;
  double frame = 0;
  DrawnFrame now, last;
  // ImGui reports an item's rectangle (ItemAdd) and its label (ItemInfo) in two calls, for tabs in the other order:
  // both are kept by id and joined at the frame's end.
  struct Added {
    ImRect rect;
    std::string window;
    bool visible;
  };
  std::unordered_map<ImGuiID, Added> added;
  std::vector<ImGuiID> order;  // ids in the order they were laid out
  std::unordered_map<ImGuiID, std::pair<std::string, bool>> labels;  // id -> (label, checked)
  std::unordered_map<ImGuiID, std::string> values;                    // id -> the value it shows
  int textures = 0;  // heat-map textures alive: noted after the frame is rendered, so kept across frames
  float css_per_unit = 1;  // CSS pixels per ImGui unit (the UI's zoom): the trace is in CSS pixels
};

Recorder& recorder() {
  static Recorder r;
  return r;
}

json::Value rect_json(const DrawnRect& r) {
  json::Value v = json::Value::make_array();
  for (float x : {r.x0, r.y0, r.x1, r.y1}) v.push(json::Value::make_number(x));
  return v;
}

json::Value strings_json(const std::vector<std::string>& list) {
  json::Value v = json::Value::make_array();
  for (const std::string& s : list) v.push(json::Value::make_string(s));
  return v;
}

// JSON has no NaN or infinity: a number that is not finite is written as null.
json::Value number_json(double x) { return std::isfinite(x) ? json::Value::make_number(x) : json::Value(); }

json::Value numbers_json(const std::vector<double>& list) {
  json::Value v = json::Value::make_array();
  for (double x : list) v.push(number_json(x));
  return v;
}

json::Value axis_json(const DrawnAxis& a) {
  json::Value v = json::Value::make_object();
  v.set("label", json::Value::make_string(a.label));
  v.set("log", json::Value::make_bool(a.log));
  v.set("lo", number_json(a.lo));
  v.set("hi", number_json(a.hi));
  v.set("tick_values", numbers_json(a.tick_values));
  v.set("ticks", strings_json(a.ticks));
  v.set("data_lo", number_json(a.data_lo));
  v.set("data_hi", number_json(a.data_hi));
  return v;
}

json::Value plot_json(const DrawnPlot& p) {
  json::Value v = json::Value::make_object();
  v.set("id", json::Value::make_string(p.id));
  v.set("title", json::Value::make_string(p.title));
  v.set("rect", rect_json(p.rect));
  v.set("frame", rect_json(p.frame));
  v.set("x", axis_json(p.x));
  v.set("y", axis_json(p.y));
  v.set("legend", strings_json(p.legend));
  v.set("legend_rect", rect_json(p.legend_rect));
  v.set("legend_hidden", strings_json(p.legend_hidden));
  v.set("legend_solo", json::Value::make_string(p.legend_solo));
  v.set("hover", strings_json(p.hover));
  v.set("markers", json::Value::make_number(p.markers));
  json::Value curves = json::Value::make_array();
  for (const DrawnCurve& c : p.curves) {
    json::Value o = json::Value::make_object();
    o.set("name", json::Value::make_string(c.name));
    o.set("points", json::Value::make_number(c.points));
    o.set("last_x", number_json(c.last_x));
    o.set("last_y", number_json(c.last_y));
    o.set("x", numbers_json(c.x));
    o.set("y", numbers_json(c.y));
    char colour[8];
    std::snprintf(colour, sizeof colour, "#%02x%02x%02x", (c.color >> IM_COL32_R_SHIFT) & 0xFF,
                  (c.color >> IM_COL32_G_SHIFT) & 0xFF, (c.color >> IM_COL32_B_SHIFT) & 0xFF);
    o.set("colour", json::Value::make_string(colour));
    o.set("dash", json::Value::make_string(c.dash));
    o.set("marker", json::Value::make_string(c.marker));
    o.set("thickness", json::Value::make_number(c.thickness));
    curves.push(o);
  }
  v.set("curves", curves);
  v.set("notes", strings_json(p.notes));
  return v;
}

json::Value heatmap_json(const DrawnHeatmap& h) {
  json::Value v = json::Value::make_object();
  v.set("id", json::Value::make_string(h.id));
  v.set("title", json::Value::make_string(h.title));
  v.set("rect", rect_json(h.rect));
  v.set("rows", json::Value::make_number(h.rows));
  v.set("cols", json::Value::make_number(h.cols));
  v.set("texture_w", json::Value::make_number(h.texture_w));
  v.set("texture_h", json::Value::make_number(h.texture_h));
  v.set("labels", strings_json(h.labels));
  v.set("values", numbers_json(h.values));
  v.set("lo", number_json(h.lo));
  v.set("hi", number_json(h.hi));
  return v;
}

// The windows of the last frame (the page's panels are child windows): name, rectangle, scroll.
json::Value windows_json() {
  json::Value list = json::Value::make_array();
  for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
    if (!w->WasActive) continue;
    json::Value v = json::Value::make_object();
    v.set("name", json::Value::make_string(w->Name));
    v.set("rect", rect_json(drawn_rect(w->Pos, ImVec2(w->Pos.x + w->Size.x, w->Pos.y + w->Size.y))));
    v.set("scroll_y", json::Value::make_number(w->Scroll.y));
    v.set("scroll_max_y", json::Value::make_number(w->ScrollMax.y));
    list.push(v);
  }
  return list;
}

// The rendered frame's draw lists (after ImGui::Render): their largest vertex count and the index size.
void note_draw_data(DrawnFrame& f) {
  f.index_bytes = int(sizeof(ImDrawIdx));
  const ImDrawData* d = ImGui::GetDrawData();
  for (int i = 0; d && i < d->CmdListsCount; i++)
    f.largest_draw_list = std::max(f.largest_draw_list, d->CmdLists[i]->VtxBuffer.Size);
  if (!d || ImGui::GetIO().Fonts->Fonts.empty()) return;
  for (const GlyphRun& run : glyph_runs(*d, *ImGui::GetIO().Fonts->Fonts[0])) {
    f.glyph_runs.push_back({run.text, run.window, drawn_rect({run.x0, run.y0}, {run.x1, run.y1}),
                            drawn_rect({run.clip.x, run.clip.y}, {run.clip.z, run.clip.w}), run.cut});
  }
}

}  // namespace

// Dear ImGui's test-engine hooks (declared in imgui_internal.h under IMGUI_ENABLE_TEST_ENGINE). ImGui calls them only
// while GImGui->TestEngineHookItems is true, which drawn_begin_frame sets: always, since the semantics layer
// (web/draw/semantics.hpp) reads every frame's items; the trace keeps them only while recording.
void ImGuiTestEngineHook_ItemAdd(ImGuiContext* ctx, const ImRect& bb, ImGuiID id) {
  semantics_item_added(*ctx, bb, id);
  Recorder& r = recorder();
  if (!r.on) return;
  ImGuiWindow* w = ctx->CurrentWindow;
  if (!r.added.count(id)) r.order.push_back(id);
  r.added[id] = {bb, w ? w->Name : "", w && w->ClipRect.Overlaps(bb)};
}

void ImGuiTestEngineHook_ItemInfo(ImGuiContext* ctx, ImGuiID id, const char* label, ImGuiItemStatusFlags flags) {
  semantics_item_info(*ctx, id, label, flags);
  if (label && recorder().on) recorder().labels[id] = {label, (flags & ImGuiItemStatusFlags_Checked) != 0};
}

void ImGuiTestEngineHook_Log(ImGuiContext*, const char*, ...) {}

const char* ImGuiTestEngine_FindItemDebugLabel(ImGuiContext*, ImGuiID id) {
  auto it = recorder().labels.find(id);
  return it == recorder().labels.end() ? nullptr : it->second.first.c_str();
}

void drawn_set_recording(bool on) { recorder().on = on; }
bool drawn_recording() { return recorder().on; }
DrawnFrame& drawn_now() { return recorder().now; }

DrawnRect drawn_rect(ImVec2 min, ImVec2 max) {
  const float k = recorder().css_per_unit;
  return {min.x * k, min.y * k, max.x * k, max.y * k};
}

void drawn_begin_frame(float css_per_unit) {
  Recorder& r = recorder();
  r.css_per_unit = css_per_unit;
  r.now = DrawnFrame{};
  r.added.clear();
  r.order.clear();
  r.labels.clear();
  r.values.clear();
  ImGui::GetCurrentContext()->TestEngineHookItems = true;
}

void drawn_end_frame() {
  Recorder& r = recorder();
  if (!r.on) return;
  for (ImGuiID id : r.order) {
    auto label = r.labels.find(id);
    if (label == r.labels.end()) continue;  // an item without a label: a plot's box, a window's scrollbar
    const Recorder::Added& a = r.added[id];
    DrawnItem item;
    item.id = label->second.first;
    item.label = item.id.substr(0, item.id.find("##"));
    item.checked = label->second.second;
    item.window = a.window;
    item.rect = drawn_rect(a.rect.Min, a.rect.Max);
    item.visible = a.visible;
    auto value = r.values.find(id);
    if (value != r.values.end()) item.value = value->second;
    r.now.items.push_back(std::move(item));
  }
  note_draw_data(r.now);
  r.last = std::move(r.now);
  r.frame += 1;
}

void drawn_name_next(const char* label) {
  if (recorder().on) recorder().labels[ImGui::GetID(label)] = {label, false};
}

void drawn_note_text(const std::string& text) {
  if (recorder().on) recorder().now.texts.push_back(text);
}

void drawn_wrapped_text(const ImVec4& color, const std::string& text, const std::string& note) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  wrapped_text(text);
  ImGui::PopStyleColor();
  drawn_note_text(note);
  drawn_note_last_text(note);
}

void drawn_note_last_text(const std::string& text) {
  if (!recorder().on) return;
  const ImGuiWindow* w = ImGui::GetCurrentWindow();
  recorder().now.text_rects.push_back({text, w->Name, drawn_rect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax())});
}

void drawn_hint(const std::string& text) {
  wrapped_text_disabled(text);
  drawn_note_text("hint: " + text);
}

void drawn_item_value(const char* label, const std::string& value) {
  if (recorder().on) recorder().values[ImGui::GetID(label)] = value;
}

void drawn_item_checked() {
  auto label = recorder().labels.find(ImGui::GetCurrentContext()->LastItemData.ID);
  if (recorder().on && label != recorder().labels.end()) label->second.second = true;
}

void drawn_note_textures(int count) { recorder().textures = count; }

json::Value drawn_last_json() {
  const Recorder& r = recorder();
  json::Value v = json::Value::make_object();
  v.set("frame", json::Value::make_number(r.frame));
  json::Value items = json::Value::make_array();
  for (const DrawnItem& i : r.last.items) {
    json::Value item = json::Value::make_object();
    item.set("label", json::Value::make_string(i.label));
    item.set("id", json::Value::make_string(i.id));
    item.set("window", json::Value::make_string(i.window));
    item.set("rect", rect_json(i.rect));
    item.set("visible", json::Value::make_bool(i.visible));
    item.set("checked", json::Value::make_bool(i.checked));
    item.set("value", json::Value::make_string(i.value));
    items.push(item);
  }
  v.set("items", items);
  v.set("windows", windows_json());
  json::Value plots = json::Value::make_array(), heatmaps = json::Value::make_array();
  for (const DrawnPlot& p : r.last.plots) plots.push(plot_json(p));
  for (const DrawnHeatmap& h : r.last.heatmaps) heatmaps.push(heatmap_json(h));
  v.set("plots", plots);
  v.set("heatmaps", heatmaps);
  v.set("texts", strings_json(r.last.texts));
  json::Value rects = json::Value::make_array();
  for (const DrawnText& t : r.last.text_rects) {
    json::Value o = json::Value::make_object();
    o.set("text", json::Value::make_string(t.text));
    o.set("window", json::Value::make_string(t.window));
    o.set("rect", rect_json(t.rect));
    rects.push(o);
  }
  v.set("text_rects", rects);
  json::Value runs = json::Value::make_array();
  for (const DrawnGlyphRun& t : r.last.glyph_runs) {
    json::Value o = json::Value::make_object();
    o.set("text", json::Value::make_string(t.text));
    o.set("window", json::Value::make_string(t.window));
    o.set("rect", rect_json(t.rect));
    o.set("clip", rect_json(t.clip));
    o.set("cut", json::Value::make_bool(t.cut));
    runs.push(o);
  }
  v.set("glyph_runs", runs);
  v.set("font_size", json::Value::make_number(ImGui::GetFontSize() * r.css_per_unit));  // in CSS pixels
  v.set("largest_draw_list", json::Value::make_number(r.last.largest_draw_list));
  v.set("index_bytes", json::Value::make_number(r.last.index_bytes));
  v.set("heatmap_textures", json::Value::make_number(r.textures));
  return v;
}
