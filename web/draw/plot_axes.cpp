#include "web/draw/plot_axes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>

namespace {

constexpr double kLog10Of2 = 0.301029995663981195;
constexpr double kSlack = 1e-9;  // a tick on the extent's edge counts as inside

bool inside(double t, AxisExtent e) { return t >= e.lo - kSlack && t <= e.hi + kSlack; }

// Log axis: the values m·10^k inside the extent, for each mantissa m, in axis units.
std::vector<double> mantissa_ticks(AxisExtent e, std::initializer_list<int> mantissas) {
  std::vector<double> out;
  for (double k = std::floor(e.lo); k <= std::ceil(e.hi); k++)
    for (int m : mantissas)
      if (inside(k + std::log10(double(m)), e)) out.push_back(k + std::log10(double(m)));
  return out;
}

// Log axis: the decades inside the extent that are multiples of `stride`.
std::vector<double> decade_ticks(AxisExtent e, int stride) {
  std::vector<double> out;
  for (double k = std::ceil(e.lo / stride) * stride; k <= e.hi + kSlack; k += stride) out.push_back(k);
  return out;
}

// Even steps of 1, 2 or 5 × 10^k between lo and hi, about `count` of them.
std::vector<double> even_ticks(double lo, double hi, int count) {
  const double raw = (hi - lo) / count, mag = std::pow(10, std::floor(std::log10(raw))), r = raw / mag;
  const double step = (r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10) * mag;
  std::vector<double> out;
  for (double i = std::ceil(lo / step - kSlack); i * step <= hi + kSlack * step; i++)
    out.push_back(std::fabs(i) < 0.5 ? 0 : i * step);  // index times step: no drift from adding steps up
  return out;
}

// Even steps with three or more inside, at most max_ticks when that allows three.
std::vector<double> linear_ticks(AxisExtent e, int max_ticks) {
  std::vector<double> out;
  for (int count = std::min(5, max_ticks); count <= std::max(5, max_ticks) && out.size() < 3; count++)
    out = even_ticks(e.lo, e.hi, count);
  return out;
}

// Log axis: the coarsest ticks that put three or more inside and fit: decades (every 1st, 2nd, 3rd, 5th, 10th),
// then 1-3, 1-2-5 or 1…9 within each decade, then even steps of the values for an extent under a decade.
std::vector<double> log_ticks(AxisExtent e, int max_ticks) {
  for (int stride : {1, 2, 3, 5, 10}) {
    const std::vector<double> d = decade_ticks(e, stride);
    if (d.size() < 3) break;
    if (int(d.size()) <= max_ticks) return d;
  }
  for (const auto& mantissas : {std::initializer_list<int>{1, 3}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}}) {
    const std::vector<double> t = mantissa_ticks(e, mantissas);
    if (t.size() >= 3 && int(t.size()) <= max_ticks) return t;
  }
  if (e.hi - e.lo >= 1) return mantissa_ticks(e, {1, 2, 5});  // crowded rather than unlabelled
  std::vector<double> out;
  for (double v : linear_ticks({std::pow(10, e.lo), std::pow(10, e.hi)}, max_ticks))
    if (v > 0) out.push_back(std::log10(v));
  return out;
}

// Log axis: powers of two inside the extent, every `stride`-th octave so that they fit.
std::vector<double> octave_ticks(AxisExtent e, int max_ticks) {
  const double lo = std::ceil(e.lo / kLog10Of2 - kSlack), hi = std::floor(e.hi / kLog10Of2 + kSlack);
  const int stride = std::max(1, int(std::ceil((hi - lo + 1) / std::max(1, max_ticks))));
  std::vector<double> out;
  for (double k = std::ceil(lo / stride) * stride; k <= hi; k += stride) out.push_back(k * kLog10Of2);
  return out;
}

// The given values that lie inside, every `stride`-th so that they fit (the first one always shown).
std::vector<double> value_ticks(AxisExtent e, bool log, const std::vector<double>& values, int max_ticks) {
  std::vector<double> in;
  for (double v : values)
    if ((!log || v > 0) && inside(log ? std::log10(v) : v, e)) in.push_back(log ? std::log10(v) : v);
  const size_t fit = size_t(std::max(1, max_ticks)), stride = std::max<size_t>(1, (in.size() + fit - 1) / fit);
  std::vector<double> out;
  for (size_t i = 0; i < in.size(); i += stride) out.push_back(in[i]);
  return out;
}

// Plain decimals read best; a value under 0.001 or from 100000 up would need too many digits, and then every label
// of the axis takes the "2e-5" form (one format per axis, never "1e0, 1.2, 1.4").
bool plain(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) {
    return v == 0 || (std::fabs(v) >= 1e-3 * (1 - kSlack) && std::fabs(v) < 1e5);
  });
}

std::string scientific(double v) {
  if (v == 0) return "0";
  const int exponent = int(std::floor(std::log10(std::fabs(v)) + kSlack));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3ge%d", v / std::pow(10, exponent), exponent);
  return buf;
}

std::vector<std::string> labels_of(const std::vector<double>& at, bool log, TickRule rule) {
  std::vector<double> values;
  for (double t : at) values.push_back(log ? std::pow(10, t) : t);
  const bool use_plain = plain(values);
  std::vector<std::string> out;
  char buf[32];
  for (size_t i = 0; i < at.size(); i++) {
    if (rule == TickRule::powers_of_two) std::snprintf(buf, sizeof buf, "2^%ld", std::lround(at[i] / kLog10Of2));
    else if (use_plain) std::snprintf(buf, sizeof buf, "%.6g", values[i]);  // step 6000 reads "6000", not "6e+03"
    else std::snprintf(buf, sizeof buf, "%s", scientific(values[i]).c_str());
    out.push_back(buf);
  }
  return out;
}

}  // namespace

AxisExtent axis_extent(double data_lo, double data_hi, double min_span, double margin) {
  if (!(data_lo <= data_hi)) return {0, 1};
  AxisExtent e{data_lo, data_hi};
  if (e.hi - e.lo < min_span) e = {(e.lo + e.hi - min_span) / 2, (e.lo + e.hi + min_span) / 2};
  if (e.hi - e.lo < 1e-12 * std::max(1.0, std::fabs(e.lo))) {  // one value: a tenth of it either side (0: ±0.5)
    const double half = e.lo == 0 ? 0.5 : std::fabs(e.lo) * 0.1;
    e = {e.lo - half, e.hi + half};
  }
  const double pad = margin * (e.hi - e.lo);
  return {e.lo - pad, e.hi + pad};
}

AxisTicks axis_ticks(AxisExtent e, bool log, TickRule rule, const std::vector<double>& values, int max_ticks) {
  max_ticks = std::max(3, max_ticks);
  AxisTicks t;
  if (log && rule == TickRule::powers_of_two) t.at = octave_ticks(e, max_ticks);
  else if (rule == TickRule::at_values) t.at = value_ticks(e, log, values, max_ticks);
  if (t.at.size() < 2) {  // the rule found too few inside: label the axis as any other
    t.at = log ? log_ticks(e, max_ticks) : linear_ticks(e, max_ticks);
    rule = TickRule::automatic;
  }
  t.labels = labels_of(t.at, log, rule);
  return t;
}
