#include "web/draw/colour_maps.hpp"

#include <algorithm>
#include <cmath>

// Green rises as √t, so that the low end (most attention weights, accuracies near chance) is not all one dark blue.
ImU32 sequential_colour(double t) {
  t = std::clamp(t, 0.0, 1.0);
  const float r = float(0.15 + 0.85 * t), g = float(0.1 + 0.8 * std::sqrt(t)), b = float(0.45 * (1 - t) + 0.1);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, 1));
}

// Never darker than a quarter, so that no cell vanishes into the page's dark background.
ImU32 diverging_colour(double v) {
  const float t = float(std::clamp(v, -1.0, 1.0));
  const float r = t < 0 ? 1.0f : 1.0f - t, b = t > 0 ? 1.0f : 1.0f + t, g = 1.0f - std::fabs(t);
  return IM_COL32(int(255 * (0.25f + 0.75f * r)), int(255 * (0.25f + 0.75f * g)), int(255 * (0.25f + 0.75f * b)), 255);
}

ImU32 grey_colour(double v) {
  const int g = int(255 * std::clamp((v + 1) / 2, 0.0, 1.0));
  return IM_COL32(g, g, g, 255);
}
