// "vs width": a recorded quantity at one step against the width, on log-log axes, one curve per layer, with the
// fitted slope (the scaling exponent) in the legend. The coordinate check (experiment E3) reads off this view:
// flat lines under μP, growth under SP, shrinkage under NTP.
#pragma once
#include <string>

#include <vector>

#include "engine/run/runner.hpp"
#include "web/plot.hpp"

struct WidthView {
  int family = -1;  // which series family (act_delta_rms, act_rms, ...); -1: act_delta_rms if recorded
  int record = 1;  // which recorded step
  // The curves drawn, kept until the sweep steps or the family or record changes (cleared by App's reset).
  std::vector<PlotCurve> curves;
  long curves_at = -1;
  int curves_family = -1, curves_record = -1;
};

void width_view(WidthView& v, const Runner& runner);

// The view's curves: for every series of `family` ("act_delta_rms" → h1, h2, ..., f), its value at record `record`
// against the width (geometric mean over seeds, first learning rate of the sweep). The label holds the fitted slope.
std::vector<PlotCurve> width_curves(const Runner& runner, const std::string& family, int record);
