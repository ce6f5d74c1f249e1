// A width's loss-vs-learning-rate curve and its η* dot as plot curves (web/plot_curve.hpp), in one style for the
// page's runs (web/lr_view.hpp) and the imported ones (web/overlay.hpp). η* (engine/analysis/lr_transfer.hpp) is
// the vertex of a parabola in log2(lr) through the grid's lowest loss and its two neighbours; a minimum at the grid's
// first or last learning rate has a neighbour on one side only, so η* is then a bound: it is flagged.
#pragma once
#include <string>
#include <vector>

#include "engine/analysis/lr_transfer.hpp"
#include "web/plot_curve.hpp"

// The flag a minimum at the grid's edge carries in its curve's label and its dot's name.
extern const char* const kGridEdgeFlag;

// A width's curve and its η* dot, coloured `color`, in the page's style (solid; the caller restyles imported ones):
// the curve's label "n=64  eta*=0.548" (flagged at the grid's edge), the dot named "n=64 eta*" with how it was found.
std::vector<PlotCurve> lr_width_curves(const LrCurve& c, ImU32 color);

// Whether η*'s grid minimum is the grid's first or last learning rate (a bound, not a minimum).
bool at_grid_edge(const LrCurve& c);

// Whether `c` is an η* dot flagged at the grid's edge (page's or imported).
bool dot_at_grid_edge(const PlotCurve& c);
