// "vs step": the chosen metric of every sweep member against the training step, and of every imported run
// (web/overlay.hpp) that recorded it. The panel that draws it is in ui.cpp (with the runs table and the n=inf curve).
#pragma once
#include <string>
#include <vector>

#include "web/app.hpp"
#include "web/plot.hpp"

// The series names of the first run ("train_loss", "act_rms/h1", ...): the metrics one can plot.
std::vector<std::string> metric_names(const App& app);

// The page's curves of `metric`, one per member, then the imported runs' curves of it.
std::vector<PlotCurve> step_curves(const App& app, const std::string& metric);
