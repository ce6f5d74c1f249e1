// A line plot drawn with ImDrawList (Dear ImGui ships no plotting): labelled axes, linear or log scales,
// tick labels, a legend, a hover read-out, and a cross where a curve diverged. Runs imported from a result document
// (web/imported_runs.hpp) are drawn dashed with hollow markers and listed in the legend under their source's name.
#pragma once
#include <string>
#include <vector>

#include "imgui.h"

// The hollow marker drawn at each point of an imported curve: one shape per imported source.
enum class PlotMarker { none, square, diamond, triangle, circle };

struct PlotCurve {
  std::string label;
  std::vector<double> x, y;
  ImU32 color = 0;
  bool diverged = false;  // draw a cross at the last point
  // An imported run's curve: dashed, a hollow marker at every point, listed in the legend under `group` (its source).
  bool dashed = false;
  PlotMarker marker = PlotMarker::none;
  std::string group;
};

// A curve of the page's own: solid, no marker, no legend group.
PlotCurve solid_curve(std::string label, std::vector<double> x, std::vector<double> y, ImU32 color, bool diverged = false);

struct PlotAxes {
  std::string title, x_label, y_label;
  bool log_x = false, log_y = true;
  double y_margin = 0;  // on a linear y axis, this share of the data's span is left free above and below it
};

// Draws into a `size` box at the cursor (a width or height of 0 takes the available space). Returns the box's size.
ImVec2 line_plot(const char* id, const PlotAxes& axes, const std::vector<PlotCurve>& curves, ImVec2 size);

// A colour per curve index, distinct for up to 8 curves and ordered light to dark (small to large width).
ImU32 curve_color(int index, int count);
// The same for imported runs (web/overlay.hpp): another family of colours, light to dark.
ImU32 imported_color(int index, int count);
