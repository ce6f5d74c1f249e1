// A line plot drawn with ImDrawList (Dear ImGui ships no plotting): labelled axes, linear or log scales,
// tick labels, a legend, a hover read-out, and a cross where a curve diverged.
#pragma once
#include <string>
#include <vector>

#include "imgui.h"

struct PlotCurve {
  std::string label;
  std::vector<double> x, y;
  ImU32 color = 0;
  bool diverged = false;  // draw a cross at the last point
};

struct PlotAxes {
  std::string title, x_label, y_label;
  bool log_x = false, log_y = true;
};

// Draws into a `size` box at the cursor (a width or height of 0 takes the available space). Returns the box's size.
ImVec2 line_plot(const char* id, const PlotAxes& axes, const std::vector<PlotCurve>& curves, ImVec2 size);

// A colour per curve index, distinct for up to 8 curves and ordered light to dark (small to large width).
ImU32 curve_color(int index, int count);
