// A quantity against a size (the width n, the depth L) on log-log axes, as the vs-width and vs-depth views draw it:
// one point per size, the geometric mean over its runs (the mean of log y, which is what a log-log fit sees), and the
// fitted slope of log y against log size in the curve's legend.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "web/draw/plot_curve.hpp"

// (size, value) points → one point per size, ascending: the geometric mean of its values, skipping values that are
// not positive and finite.
PlotCurve geometric_mean_by_size(const std::vector<std::pair<int, double>>& points);

// The least-squares slope of log y against log x, or NaN with fewer than two points.
double fitted_slope(const std::vector<double>& x, const std::vector<double>& y);

// A curve's legend in the page's language: `name`, then its fitted slope ("act_rms/h1  slope +0.02"), or in words why
// there is none, per `size` ("width", "depth": English, marked translatable where passed): a projected "slope +nan"
// tells a room nothing. E.g. act_delta_rms is exactly 0 at step 0, which a log axis cannot show.
std::string slope_label(const std::string& name, const PlotCurve& c, const std::string& size);
