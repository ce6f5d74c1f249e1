#include "web/draw/plot_curve.hpp"

#include <algorithm>
#include <cmath>
#include <set>

PlotCurve solid_curve(std::string label, std::vector<double> x, std::vector<double> y, ImU32 color, bool diverged) {
  PlotCurve c;
  c.label = std::move(label);
  c.x = std::move(x);
  c.y = std::move(y);
  c.color = color;
  c.diverged = diverged;
  return c;
}

PlotCurve with_key(PlotCurve c, std::string key) {
  c.key = std::move(key);
  return c;
}

ImU32 curve_color(int index, int count) {
  // Samples of the viridis-like "plasma" ramp: ordered, readable on a dark background.
  static const ImU32 ramp[] = {IM_COL32(252, 225, 56, 255), IM_COL32(252, 166, 54, 255), IM_COL32(239, 112, 74, 255),
                               IM_COL32(214, 66, 112, 255), IM_COL32(177, 42, 144, 255), IM_COL32(130, 34, 167, 255),
                               IM_COL32(84, 40, 190, 255),  IM_COL32(60, 90, 220, 255)};
  const int n = int(sizeof ramp / sizeof ramp[0]);
  if (count <= 1) return ramp[2];
  return ramp[std::min(n - 1, index * (n - 1) / std::max(1, count - 1))];
}

ImU32 imported_color(int index, int count) {
  // Greens to teal: apart from the page's yellow-to-blue ramp, so imported runs read as another family of curves.
  static const ImU32 ramp[] = {IM_COL32(205, 245, 135, 255), IM_COL32(150, 230, 120, 255), IM_COL32(95, 210, 125, 255),
                               IM_COL32(55, 190, 150, 255), IM_COL32(35, 165, 170, 255), IM_COL32(30, 135, 175, 255)};
  const int n = int(sizeof ramp / sizeof ramp[0]);
  if (count <= 1) return ramp[2];
  return ramp[std::min(n - 1, index * (n - 1) / std::max(1, count - 1))];
}

ImU32 shade_color(ImU32 color, int index, int count) {
  if (count <= 1) return color;
  // From 40% toward black (the smallest) to 40% toward white (the largest): apart on a dark background.
  const float t = 0.8f * float(index) / float(count - 1) - 0.4f, target = t < 0 ? 0.0f : 255.0f, w = std::fabs(t);
  const auto mix = [&](int shift) {
    const float c = float((color >> shift) & 0xFF);
    return ImU32(c + (target - c) * w + 0.5f) << shift;
  };
  return mix(IM_COL32_R_SHIFT) | mix(IM_COL32_G_SHIFT) | mix(IM_COL32_B_SHIFT) | (color & IM_COL32_A_MASK);
}

std::vector<double> distinct_x(const std::vector<PlotCurve>& curves) {
  std::set<double> x;
  for (const PlotCurve& c : curves) x.insert(c.x.begin(), c.x.end());
  return {x.begin(), x.end()};
}

