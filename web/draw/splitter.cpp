#include "web/draw/splitter.hpp"

#include <algorithm>

#include "imgui.h"
#include "web/draw/drawn.hpp"

float split_first(float share, float total, float min_first, float min_second) {
  return std::max(min_first, std::min(share * total, total - min_second));
}

float splitter_thickness() { return ImGui::GetStyle().ItemSpacing.x; }

bool splitter(const char* id, SplitAxis axis, float length, float total, float min_first, float min_second,
              float* share) {
  const bool columns = axis == SplitAxis::columns;
  const float t = splitter_thickness();
  drawn_name_next(id);  // an InvisibleButton does not report its label to the test hook itself
  ImGui::InvisibleButton(id, columns ? ImVec2(t, length) : ImVec2(length, t));
  const bool active = ImGui::IsItemActive();
  if (active || ImGui::IsItemHovered())
    ImGui::SetMouseCursor(columns ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
  // A line down the middle of the bar, brighter under the mouse: where to grab it.
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  const ImU32 color = ImGui::GetColorU32(active ? ImGuiCol_SeparatorActive
                                         : ImGui::IsItemHovered() ? ImGuiCol_SeparatorHovered : ImGuiCol_Separator);
  const ImVec2 mid((lo.x + hi.x) / 2, (lo.y + hi.y) / 2);
  if (columns) ImGui::GetWindowDrawList()->AddLine(ImVec2(mid.x, lo.y), ImVec2(mid.x, hi.y), color, 2);
  else ImGui::GetWindowDrawList()->AddLine(ImVec2(lo.x, mid.y), ImVec2(hi.x, mid.y), color, 2);
  if (total <= 0) return active;
  float first = split_first(*share, total, min_first, min_second);
  if (active) first += columns ? ImGui::GetIO().MouseDelta.x : ImGui::GetIO().MouseDelta.y;
  *share = split_first(first / total, total, min_first, min_second) / total;
  return active;
}
