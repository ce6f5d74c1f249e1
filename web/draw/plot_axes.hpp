// One axis of a line plot (web/draw/plot.hpp) as plain numbers: the extent drawn around the data and the ticks, in axis
// units (log10 of the value on a log axis). What a projected plot needs of them:
// - a margin around all data, so no point sits on the frame;
// - a least span on log axes (one decade on y), so a ±15% spread of flat lines reads flat and not as a V;
// - three or more labelled ticks inside the extent, never one lone tick: decades, else 1-2-5 within them, else 1…9,
//   else even steps of the values;
// - one number format per axis: plain decimals, or all in "2e-5" form when a tick needs it, or "2^-3" for powers of
//   two (learning rates: sweeps space them by octaves), or the values themselves (the swept widths).
#pragma once
#include <string>
#include <vector>


// How an axis places its ticks: 1-2-5 steps (decades, or 1…9 within a decade, on log axes), at given values (the
// swept widths), or at powers of two (learning rates, which sweeps space by octaves).
enum class TickRule { automatic, at_values, powers_of_two };

struct AxisExtent {
  double lo = 0, hi = 1;  // in axis units
};

struct AxisTicks {
  std::vector<double> at;           // in axis units
  std::vector<std::string> labels;  // as drawn
};

// The data's extent [data_lo, data_hi] (axis units; data_lo > data_hi: no data), widened to `min_span` (axis units)
// about its centre, then by `margin` of the span on each side.
AxisExtent axis_extent(double data_lo, double data_hi, double min_span, double margin);

// The ticks of an axis with extent `e`, at most `max_ticks` of them (what fits its length). `values`: the data's
// values for TickRule::at_values (shown where they fit, else every second, third, …).
AxisTicks axis_ticks(AxisExtent e, bool log, TickRule rule, const std::vector<double>& values, int max_ticks);
