#include "web/draw/colour_maps.hpp"

#include <algorithm>
#include <cmath>

namespace {

ImVec4 rgba(ImU32 c) { return ImGui::ColorConvertU32ToFloat4(c); }

float linear(float channel) {
  return channel <= 0.04045f ? channel / 12.92f : std::pow((channel + 0.055f) / 1.055f, 2.4f);
}

// The index-th of `count` entries of `ramp`, spread over the whole ramp; a lone series takes `single`.
ImU32 spread(const ImU32* ramp, int n, int index, int count, int single) {
  if (count <= 1) return ramp[single];
  return ramp[std::clamp(index * (n - 1) / std::max(1, count - 1), 0, n - 1)];
}

}  // namespace

void apply_page_style(ImGuiStyle& style) {
  ImGui::StyleColorsDark(&style);
  // A control's extent shows by its frame, at 3:1 or more against the page, not by a fill barely lighter than it.
  style.FrameBorderSize = 1;
  style.TabBorderSize = 1;
  ImVec4* c = style.Colors;
  c[ImGuiCol_Text] = rgba(page_colour::text);
  c[ImGuiCol_TextDisabled] = rgba(page_colour::text_dim);
  c[ImGuiCol_Border] = rgba(page_colour::frame_border);
  c[ImGuiCol_FrameBg] = rgba(page_colour::field);
  c[ImGuiCol_PlotHistogram] = rgba(page_colour::progress);
  // Scroll bars and the splitters' bars are controls too: 3:1 or more against the page.
  c[ImGuiCol_ScrollbarGrab] = ImVec4(0.45f, 0.45f, 0.45f, 1);
  c[ImGuiCol_Separator] = ImVec4(0.43f, 0.43f, 0.49f, 1);
  const ImVec4 bg = rgba(page_colour::background);
  c[ImGuiCol_WindowBg] = ImVec4(bg.x, bg.y, bg.z, c[ImGuiCol_WindowBg].w);
}

float relative_luminance(ImU32 color) {
  const ImVec4 c = rgba(color);
  return 0.2126f * linear(c.x) + 0.7152f * linear(c.y) + 0.0722f * linear(c.z);
}

ImU32 at_least_luminance(ImU32 color, float luminance) {
  const ImVec4 c = rgba(color);
  for (float w = 0; w <= 1.0f; w += 0.02f) {  // luminance rises with w: the first mix that reaches it
    const ImU32 mixed = ImGui::ColorConvertFloat4ToU32(
        ImVec4(c.x + (1 - c.x) * w, c.y + (1 - c.y) * w, c.z + (1 - c.z) * w, c.w));
    if (relative_luminance(mixed) >= luminance) return mixed;
  }
  return ImGui::ColorConvertFloat4ToU32(ImVec4(1, 1, 1, c.w));
}

ImU32 curve_color(int index, int count) {
  // Hues of the "plasma" ramp's order (yellow through red to blue), each lifted to a luminance falling from 0.75 to
  // 0.23: apart in hue for colour vision, apart in grey without it, every one readable on the page's dark grounds.
  static const ImU32 ramp[] = {IM_COL32(250, 226, 65, 255),  IM_COL32(251, 194, 118, 255), IM_COL32(252, 164, 141, 255),
                               IM_COL32(252, 136, 165, 255), IM_COL32(251, 103, 214, 255), IM_COL32(213, 99, 251, 255),
                               IM_COL32(150, 117, 251, 255), IM_COL32(42, 129, 250, 255)};
  return spread(ramp, int(sizeof ramp / sizeof ramp[0]), index, count, 2);
}

ImU32 imported_color(int index, int count) {
  // Greens to teal: apart from the page's yellow-to-blue ramp, so imported runs read as another family of curves.
  static const ImU32 ramp[] = {IM_COL32(205, 245, 135, 255), IM_COL32(150, 230, 120, 255), IM_COL32(95, 210, 125, 255),
                               IM_COL32(55, 190, 150, 255),  IM_COL32(35, 170, 175, 255),  IM_COL32(60, 150, 200, 255)};
  return at_least_luminance(spread(ramp, int(sizeof ramp / sizeof ramp[0]), index, count, 2), kSeriesMinLuminance);
}

ImU32 shade_color(ImU32 color, int index, int count) {
  if (count <= 1) return color;
  // From 25% toward black (the smallest) to 40% toward white (the largest), but never below the series' luminance.
  const float t = 0.65f * float(index) / float(count - 1) - 0.25f, target = t < 0 ? 0.0f : 255.0f, w = std::fabs(t);
  const auto mix = [&](int shift) {
    const float c = float((color >> shift) & 0xFF);
    return ImU32(c + (target - c) * w + 0.5f) << shift;
  };
  const ImU32 shaded = mix(IM_COL32_R_SHIFT) | mix(IM_COL32_G_SHIFT) | mix(IM_COL32_B_SHIFT) | (color & IM_COL32_A_MASK);
  return at_least_luminance(shaded, kSeriesMinLuminance);
}

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
