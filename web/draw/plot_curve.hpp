// A line plot's curves as data (web/draw/plot.hpp draws them): points, colour, style, and how the legend
// (web/draw/plot_legend.hpp) lists and hides them; and the colours the views give their curves.
#pragma once
#include <string>
#include <vector>

#include "imgui.h"

// The hollow marker drawn at each point of an imported curve: one shape per imported source; or a ring, wider than
// every other marker, around a point flagged for the reader (an η* at its grid's edge).
enum class PlotMarker { none, square, diamond, triangle, circle, ring };

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
// `c` with its legend row named `key`: a label drawn in the page's language keeps one key, so a row hidden in one
// language stays hidden in the other.
PlotCurve with_key(PlotCurve c, std::string key);

// A colour per curve index, distinct for up to 8 curves and ordered light to dark (small to large width).
ImU32 curve_color(int index, int count);
// The same for imported runs (web/views/overlay.hpp): another family of colours, light to dark.
ImU32 imported_color(int index, int count);
// `color` in the `index`-th of `count` shades, darker to lighter: a sweep's learning rates within one width's colour.
ImU32 shade_color(ImU32 color, int index, int count);

// The distinct x values of the curves, ascending: the ticks of an axis at the data (TickRule::at_values).
std::vector<double> distinct_x(const std::vector<PlotCurve>& curves);
