// "vs step": the chosen metric of every sweep member against the training step, and of every imported run
// (web/views/overlay.hpp) that recorded it. A member's colour is its width's (or its other swept coordinates', e.g. γ), its
// shade its learning rate's, and the seeds of one (width, lr) are thin lines of the same colour: the legend
// (web/draw/plot_legend.hpp) lists each width and each learning rate once. The panel that draws it is in ui.cpp (with the
// runs table and the n=inf curve).
#pragma once
#include <string>
#include <vector>

#include "engine/run/runner.hpp"
#include "web/draw/plot.hpp"
#include "web/views/overlay.hpp"

// The series names of the first run ("train_loss", "act_rms/h1", ...): the metrics one can plot.
std::vector<std::string> metric_names(const Runner* runner);

// The page's curves of `metric`, one per member, then the curves of it of the imported runs drawn (drawn_sets).
std::vector<PlotCurve> step_curves(const Runner* runner, const std::vector<const ImportedSet*>& imports,
                                   const std::string& metric);

// Each member's curve in the plot without its points, in the runner's order: its colour, line pattern and marker,
// legend rows and names (the runs table draws the same swatches).
std::vector<PlotCurve> member_styles(const Runner& runner);

// Whether `metric` reads best on a linear y axis: a quantity the engine's metric table says is best high
// (accuracies, shares, cosines: values in [0, 1]) rather than one that falls over decades, as a loss does.
bool linear_by_default(const std::string& metric);
