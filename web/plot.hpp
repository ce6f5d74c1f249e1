// A line plot drawn with ImDrawList (Dear ImGui ships no plotting): labelled axes, linear or log scales,
// tick labels, a legend beside the plot, a hover read-out, and a cross where a curve diverged. Runs imported from a
// result document (web/imported_runs.hpp) are drawn dashed with hollow markers and listed in the legend under their
// source's name. The axes' extent and ticks are web/plot_axes.hpp's, the legend (grouped by the sweep's axes, a
// click hides a curve) web/plot_legend.hpp's.
#pragma once
#include <string>
#include <vector>

#include "imgui.h"

// The hollow marker drawn at each point of an imported curve: one shape per imported source.
enum class PlotMarker { none, square, diamond, triangle, circle };

struct PlotCurve {
  // Its legend row ("": none, e.g. an η* dot), unless it has a color_row: a sweep member is listed by its width's
  // and learning rate's rows, and its label names it in the hover read-out.
  std::string label;
  std::vector<double> x, y;
  ImU32 color = 0;
  bool diverged = false;  // draw a cross at the last point
  // An imported run's curve: dashed, a hollow marker at every point, listed in the legend under `group` (its source).
  bool dashed = false;
  PlotMarker marker = PlotMarker::none;
  std::string group;
  // What hides it: the legend row named `key` ("": its label). A label that carries a number (a slope, η*) names
  // its row by a key that does not change as the number does; an η* dot takes its curve's key, so it hides with it.
  std::string key;
  // What the hover read-out calls it ("": its key or label).
  std::string name;
  // A member of a sweep: the legend lists each width once (its colour: color_row, "n=64") and each learning rate
  // once (its shade: shade_row, "lr=0.5") instead of a row per run; a click on either hides its runs.
  std::string color_row, shade_row;
  bool thin = false;  // one of several seeds of the same (width, lr): drawn thin, in the same colour
};

// A curve of the page's own: solid, no marker, no legend group.
PlotCurve solid_curve(std::string label, std::vector<double> x, std::vector<double> y, ImU32 color, bool diverged = false);

// A reference line y ∝ x^slope on log-log axes, drawn through the centre of the data (e.g. "n^1/2" on vs width).
struct PlotReference {
  double slope = 0;
  std::string label;
};

// How an axis places its ticks: 1-2-5 steps (decades, or 1…9 within a decade, on log axes), at given values (the
// swept widths), or at powers of two (learning rates, which sweeps space by octaves).
enum class TickRule { automatic, at_values, powers_of_two };

struct PlotAxes {
  std::string title, x_label, y_label;
  bool log_x = false, log_y = true;
  TickRule x_ticks = TickRule::automatic;
  std::vector<double> x_tick_values;  // TickRule::at_values
  double min_y_decades = 1;  // a log y axis spans at least this: a ±15% spread reads flat, not as a V
  std::vector<PlotReference> references;  // log-log only
  std::vector<std::string> notes;  // lines under the legend (how to read a marker, a flag)
  double y_margin = 0;  // a linear y axis leaves this share of the data's span free above and below it (5% at least)
};

// Draws into a `size` box at the cursor (a width or height of 0 takes the available space). Returns the box's size.
ImVec2 line_plot(const char* id, const PlotAxes& axes, const std::vector<PlotCurve>& curves, ImVec2 size);

// A colour per curve index, distinct for up to 8 curves and ordered light to dark (small to large width).
ImU32 curve_color(int index, int count);
// The same for imported runs (web/overlay.hpp): another family of colours, light to dark.
ImU32 imported_color(int index, int count);
// `color` in the `index`-th of `count` shades, darker to lighter: a sweep's learning rates within one width's colour.
ImU32 shade_color(ImU32 color, int index, int count);

// The distinct x values of the curves, ascending: the ticks of an axis at the data (TickRule::at_values).
std::vector<double> distinct_x(const std::vector<PlotCurve>& curves);
