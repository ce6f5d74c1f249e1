// The legend of a line plot (web/draw/plot.hpp), drawn beside the plot (under it when the plot is narrow), scrolling when
// its rows outgrow it, so it never covers a curve or cuts a row off. The rows follow the sweep's axes: one per width
// (its colour) and one per learning rate (its shade), not one per run, so 28 runs of 7 widths × 2 learning rates ×
// 2 seeds make 9 rows; curves of their own (a layer, an imported run, the n=inf curve) keep a row each, under their
// source's heading. A click on a row hides its curves; Ctrl+click or a double-click shows them alone among the rows
// of their kind (another Ctrl+click shows all again). Which rows are hidden is kept in ImGui's state storage of the
// plot's window, under the plot's id and the row's key, as ImGui keeps a tree node's open state: every view's plot
// has it without a state struct of its own.
#pragma once
#include <string>
#include <vector>

#include "imgui.h"
#include "web/draw/drawn.hpp"
#include "web/draw/plot_curve.hpp"

struct LegendRow {
  enum Kind { heading, curve, note } kind = curve;
  std::string text;
  std::string key;      // curve rows: what the row hides (a curve's key, color_row or shade_row)
  std::string group;    // curve rows: the source of its curves ("": the page's)
  int section = 0;      // curve rows that solo among each other: a source's own curves, its widths, its shades
  const PlotCurve* sample = nullptr;  // curve rows: the curve whose colour, dash and marker the swatch shows
  // What the swatch shows of it: all, or, where a width's row and a learning rate's row split a curve's style, only
  // the width's line pattern or only the rate's marker.
  enum Swatch { whole, line, marker } swatch = whole;
};

// The rows for `curves`, then `notes` (a line each).
std::vector<LegendRow> legend_rows(const std::vector<PlotCurve>& curves, const std::vector<std::string>& notes);

// Where the plot `plot_id` keeps its rows' hidden state (the current window's storage).
struct LegendState {
  ImGuiStorage* storage = nullptr;
  ImGuiID plot = 0;
  bool hidden(const std::string& group, const std::string& key) const;
  void set_hidden(const std::string& group, const std::string& key, bool hidden) const;
};
LegendState legend_state(const char* plot_id);

// A curve is hidden when its own row, its width's row or its shade's row is.
bool curve_hidden(const LegendState& state, const PlotCurve& c);

// The width the rows need (text, swatch, padding, a scrollbar).
float legend_width(const std::vector<LegendRow>& rows);
// The height `columns` columns of the rows need.
float legend_height(const std::vector<LegendRow>& rows, int columns);

// The swatch of `c` (its line's pattern and its marker, in its colour) as an item of the current line, the
// legend's width: a table's row names its curve beside it in the text's colour.
void curve_swatch(const PlotCurve& c);

// Draws the rows in a child window at `min`..`max` (`columns` side by side), hides and solos on clicks, and notes
// the rows, their rectangle and the hidden keys in `drawn` (may be null).
void draw_legend(const char* plot_id, const std::vector<LegendRow>& rows, const LegendState& state, ImVec2 min,
                 ImVec2 max, int columns, DrawnPlot* drawn);
