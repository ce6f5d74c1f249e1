// A row of controls that wraps instead of running off the panel (a narrow window, a zoomed or presenting page).
#pragma once
#include "imgui.h"

// The next widget on this line when `width` pixels are left on it, else on the next (a narrow panel: never cut).
inline void same_line_if_room(float width) {
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

// The room a labelled widget takes: its frame's width, the gap, its label.
inline float labelled_width(float frame_width, const char* label) {
  return frame_width + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}
