// A line plot's curves as data (web/draw/plot.hpp draws them): points, colour, style, and how the legend
// (web/draw/plot_legend.hpp) lists and hides them; and the styles the views give their series, so that no series is
// told from its neighbours by colour alone (the colours: web/draw/colour_maps.hpp).
#pragma once
#include <string>
#include <vector>

#include "imgui.h"
#include "web/draw/colour_maps.hpp"

// A marker's shape. An imported curve draws its source's shape hollow at each point; a series of the page's draws
// its own shape filled at each point of a short curve (a sweep's axis) and at the last point of a long one (a run's
// steps); a ring, wider than every other marker, circles a point flagged for the reader (an η* at its grid's edge).
enum class PlotMarker { none, square, diamond, triangle, circle, ring };
// A line's pattern: a series' (solid, dotted, dash-dot), or an imported run's or a threshold's (dashed).
enum class LineDash { solid, dotted, dash_dot, dashed };

struct PlotCurve {
  // Its legend row ("": none, e.g. an η* dot), unless it has a color_row: a sweep member is listed by its width's
  // and learning rate's rows, and its label names it in the hover read-out.
  std::string label;
  std::vector<double> x, y;
  ImU32 color = 0;
  bool diverged = false;  // draw a cross at the last point
  LineDash dash = LineDash::solid;
  PlotMarker marker = PlotMarker::none;
  bool hollow = false;  // an imported run's marker (with a dashed line; listed in the legend under `group`, its source)
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

// The index-th series' line pattern and marker: neighbours differ in both (three patterns, four markers: a pair
// repeats after twelve series).
LineDash series_dash(int index);
PlotMarker series_marker(int index);
// `c` drawn as the index-th series: its colour (curve_color of `count`), pattern and marker.
PlotCurve as_series(PlotCurve c, int index, int count);
// Draws a polyline in `dash`'s pattern (running on across the points), and a marker at `p`, hollow (an imported
// run's) or filled (a series of the page's): for the plot and its legend's swatches alike.
void draw_curve_line(ImDrawList* dl, const std::vector<ImVec2>& points, ImU32 color, float thickness, LineDash dash);
void draw_curve_marker(ImDrawList* dl, PlotMarker marker, ImVec2 p, ImU32 color, bool hollow);
// Their names in the frame trace ("solid", "dotted", …; "circle", "square", …).
const char* dash_name(LineDash dash);
const char* marker_name(PlotMarker marker);

// The distinct x values of the curves, ascending: the ticks of an axis at the data (TickRule::at_values).
std::vector<double> distinct_x(const std::vector<PlotCurve>& curves);
