// A line plot drawn with ImDrawList (Dear ImGui ships no plotting): labelled axes, linear or log scales,
// tick labels, a legend beside the plot, a hover read-out, and a cross where a curve diverged. Runs imported from a
// result document (web/views/imported_runs.hpp) are drawn dashed with hollow markers and listed in the legend under their
// source's name. The axes' extent and ticks are web/draw/plot_axes.hpp's, the legend (grouped by the sweep's axes, a
// click hides a curve) web/draw/plot_legend.hpp's.
#pragma once
#include <string>
#include <vector>

#include "imgui.h"
#include "web/draw/plot_axes.hpp"
#include "web/draw/plot_curve.hpp"

// A reference line y ∝ x^slope on log-log axes, drawn through the centre of the data (e.g. "n^1/2" on vs width).
struct PlotReference {
  double slope = 0;
  std::string label;
};

struct PlotAxes {
  std::string title, x_label, y_label;
  bool log_x = false, log_y = true;
  TickRule x_ticks = TickRule::automatic;
  std::vector<double> x_tick_values;  // TickRule::at_values
  std::vector<double> x_extent;  // values the x axis spans with or without data: a sweep's widths before its first record
  double min_y_decades = 1;  // a log y axis spans at least this: a ±15% spread reads flat, not as a V
  std::vector<PlotReference> references;  // log-log only
  std::vector<std::string> notes;  // lines under the legend (how to read a marker, a flag)
  double y_margin = 0;  // a linear y axis leaves this share of the data's span free above and below it (5% at least)
};

// Draws into a `size` box at the cursor (a width or height of 0 takes the available space). Returns the box's size.
ImVec2 line_plot(const char* id, const PlotAxes& axes, const std::vector<PlotCurve>& curves, ImVec2 size);

