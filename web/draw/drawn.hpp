// What the last frame drew, as data, for the page's test hook (muplay_drawn, web/js_api.cpp): every widget with its
// label and rectangle (from Dear ImGui's test-engine hooks: imgui is built with IMGUI_ENABLE_TEST_ENGINE and this
// file defines the hook functions), every plot's axes, ticks, legend and hover read-out, and every heat map's texture.
// A browser test finds a widget by its label, clicks it with real mouse events, and checks what a view shows without
// reading pixels. Recording is off until the hook asks for it, so the page a user sees pays nothing for it.
#pragma once
#include <string>
#include <vector>

#include "engine/base/json.hpp"
#include "imgui.h"

struct DrawnRect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // CSS pixels, top left to bottom right
};

// A widget ImGui laid out this frame. `label` is its visible text (the part before "##"); `id` the whole label.
struct DrawnItem {
  std::string label, id, window;
  DrawnRect rect;
  bool visible = false;  // inside its window's visible area (not scrolled or clipped away)
  bool checked = false;  // a checkbox that is ticked, a selected selectable
  std::string value;     // what a slider shows, where the panel names it (drawn_item_value); "" otherwise
};

struct DrawnAxis {
  std::string label;
  bool log = false;
  double lo = 0, hi = 0;              // the axis' extent in data units
  std::vector<double> tick_values;    // in data units
  std::vector<std::string> ticks;     // their labels as drawn
  double data_lo = 0, data_hi = 0;    // the extent of the curves shown (hidden ones left out), in data units
};

// A curve as drawn (hidden ones left out): what the hover read-out calls it, how many of its points were drawn, and
// the last of them, in data units; for a curve of at most kDrawnCurvePoints points (a sweep's axis, a fitted line,
// not a run's steps), every point drawn. Its style, which tells it from its neighbours without colour: its colour,
// line pattern ("solid", "dotted", "dash-dot", "dashed"), marker ("circle", "square", "triangle", "diamond", "ring";
// "dot": a plain dot at each point; "none") and line width in ImGui units.
struct DrawnCurve {
  std::string name;
  int points = 0;
  double last_x = 0, last_y = 0;
  std::vector<double> x, y;
  ImU32 color = 0;
  std::string dash, marker;
  float thickness = 0;
};
constexpr int kDrawnCurvePoints = 64;

struct DrawnPlot {
  std::string id, title;
  DrawnRect rect, frame;  // the whole widget; the box the data is drawn in
  DrawnAxis x, y;
  std::vector<std::string> legend;  // the rows as drawn, headings included
  DrawnRect legend_rect;            // empty when there is no legend
  std::vector<std::string> legend_hidden;  // the keys of the rows a click hid (web/draw/plot_legend.hpp)
  std::string legend_solo;                 // the key of the row shown alone among its kind, or ""
  std::vector<std::string> hover;   // the tooltip's rows while the mouse is over the plot
  int markers = 0;                  // data-point markers drawn
  std::vector<DrawnCurve> curves;
  std::vector<std::string> notes;   // other things the plot drew (reference slopes, flags), one line each
};

// A matrix drawn as an image: `rows` × `cols` cells, uploaded as a texture of `texture_w` × `texture_h` texels (0 × 0:
// drawn as rectangles).
struct DrawnHeatmap {
  std::string id, title;
  DrawnRect rect;
  int rows = 0, cols = 0, texture_w = 0, texture_h = 0;
  std::vector<std::string> labels;  // row labels, colour-bar ends, … as drawn
  std::vector<double> values;       // the cells (row-major) for a map of at most kDrawnHeatmapValues; else empty
  double lo = 0, hi = 0;            // the smallest and largest finite cell, for a map of any size
};
constexpr long kDrawnHeatmapValues = 4096;

// A message drawn wrapped, with where it landed (its window's name and its rectangle).
struct DrawnText {
  std::string text, window;
  DrawnRect rect;
};

// A line of text as drawn, read back from ImGui's draw data (web/draw/glyph_runs.hpp), with the rectangle it was
// clipped to and whether it was cut off at its left or right.
struct DrawnGlyphRun {
  std::string text, window;
  DrawnRect rect, clip;
  bool cut = false;
};

struct DrawnFrame {
  std::vector<DrawnItem> items;
  std::vector<DrawnPlot> plots;
  std::vector<DrawnHeatmap> heatmaps;
  std::vector<std::string> texts;  // text the panels noted (status line, messages), one entry each
  std::vector<DrawnText> text_rects;  // the wrapped messages among them, with their rectangles
  std::vector<DrawnGlyphRun> glyph_runs;  // every line of text drawn, read back from the draw data
  // ImGui's draw data: the most vertices in one draw list, and the bytes of an index (web/CMakeLists.txt sets
  // ImDrawIdx). With 2-byte indices a list past 65 536 vertices wraps around and smears the frame.
  int largest_draw_list = 0, index_bytes = 0;
};

// Recording: off until the test hook turns it on.
void drawn_set_recording(bool on);
bool drawn_recording();
// Brackets one frame (web/main.cpp): begin before ImGui::NewFrame, end after ImGui::Render. The trace's rectangles
// are in CSS pixels: ImGui's coordinates times css_per_unit (the UI's zoom).
void drawn_begin_frame(float css_per_unit);
void drawn_end_frame();
// The frame being drawn, for the panels to add to (only while drawn_recording()).
DrawnFrame& drawn_now();
// Names the widget that `label` will make in the current window, for widgets whose label ImGui does not report
// itself: call it just before ImGui::BeginCombo(label, ...).
void drawn_name_next(const char* label);
// Notes a line of text the panels drew (messages the tests read back).
void drawn_note_text(const std::string& text);
// Names the value that the widget `label` of the current window shows (a slider's number, a combo's choice), which
// ImGui's hooks do not report.
void drawn_item_value(const char* label, const std::string& value);
// Notes the last widget as checked: a selected Selectable, which ImGui 1.86's hooks do not report as such.
void drawn_item_checked();
// Draws `text` greyed and wrapped at the window's edge, as a view says what it needs to draw anything, and notes it
// as "hint: " + text.
void drawn_hint(const std::string& text);
// The heat-map textures alive after the last frame (web/draw/heatmap.hpp), kept until it is noted again.
void drawn_note_textures(int count);
DrawnRect drawn_rect(ImVec2 min, ImVec2 max);
// Draws `text` in `color`, wrapped at the edge of the window (or table cell), and notes it as `note` with its
// rectangle: messages that must neither be cut nor leave their panel.
void drawn_wrapped_text(const ImVec4& color, const std::string& text, const std::string& note);
// Notes the line of text just drawn (ImGui's last item) with its rectangle among text_rects: text that ImGui's hooks
// do not report as an item, such as a legend's headings.
void drawn_note_last_text(const std::string& text);

// The last complete frame as JSON: {"frame", "items", "windows", "plots", "heatmaps", "texts", "text_rects",
// "glyph_runs": [{"text", "window", "rect", "clip", "cut"}],
// "font_size", "largest_draw_list", "index_bytes", "heatmap_textures"} (font_size: the size of the font in pixels; a
// notch of the wheel scrolls five times it).
json::Value drawn_last_json();
