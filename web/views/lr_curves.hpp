// A net's loss-vs-learning-rate curve, its η* dot and its parabola as plot curves (web/draw/plot_curve.hpp), in one style
// for the page's runs (web/views/lr_view.hpp, web/views/depth_view.hpp) and the imported ones (web/views/overlay.hpp). η*
// (engine/analysis/lr_transfer.hpp) is the vertex of a parabola in log2(lr) through the grid's lowest loss and its two
// neighbours; a minimum at the grid's first or last learning rate has a neighbour on one side only, so η* is then a
// bound: it is flagged.
#pragma once
#include <string>
#include <vector>

#include "engine/analysis/lr_transfer.hpp"
#include "web/draw/plot.hpp"
#include "web/draw/plot_curve.hpp"

// The page's nets a loss-vs-learning-rate picture is drawn from: their curves (η* per net), whether each still
// trains, and the step the least advanced running member has reached (0: none recorded yet).
struct LrNets {
  std::vector<LrCurve> nets;
  std::vector<bool> training;
  int so_far_step = 0;
};

// The flag a minimum at the grid's edge carries in its curve's label and its dot's name, in English: every text that
// carries it takes tr(kGridEdgeFlag), so a name is matched (dot_at_grid_edge) in the language it was made in.
extern const char* const kGridEdgeFlag;

// The net a curve is of: "n=64", or "n=128 L=8" for a residual MLP of depth 8.
std::string lr_net_name(const LrCurve& c);

// A net's curve and its η* dot, coloured `color`, in the page's style (solid; the caller restyles imported ones):
// the curve's label "n=64  eta*=0.548" (flagged at the grid's edge), the dot named "n=64 eta*" with how it was found
// (a residual MLP's: "n=128 L=8  eta*=0.548", "n=128 L=8 eta*").
// `training`: some run of this net is still training (what the legend says instead of η*, in the page's language:
// "runs not finished", "so far: step 40"); η* is then shown only once finished runs bracket it. Null: the net's runs
// are done.
std::vector<PlotCurve> lr_width_curves(const LrCurve& c, ImU32 color, const char* training = nullptr);
// Whether some member of `runner` with the net's width and depth is still training.
bool net_training(const Runner& runner, const LrCurve& c);

// The parabola η* is the vertex of (through the grid minimum and its two neighbours, in log2(lr)), drawn between the
// neighbours in a lighter shade of `color`, named "n=128 L=8 parabola", with no legend row (it hides with its
// curve); no points when η* was not found by the parabola (c.bracketed false).
PlotCurve lr_parabola(const LrCurve& c, ImU32 color);

// Whether η*'s grid minimum is the grid's first or last learning rate (a bound, not a minimum).
bool at_grid_edge(const LrCurve& c);

// Whether `c` is an η* dot flagged at the grid's edge (page's or imported).
bool dot_at_grid_edge(const PlotCurve& c);

// The axes of a loss-vs-learning-rate plot: `loss` (batch_loss_mean: the mean over the run, else the final train loss)
// against the learning rate, log-log with power-of-two ticks, titled "<loss> vs <what> (dot: eta*)" (`what` in the
// page's language), with a note on how η* is found and, when a dot sits at its grid's edge, one that says to widen
// the grid.
PlotAxes lr_loss_axes(const std::string& loss, const std::string& what, const std::vector<PlotCurve>& curves);
