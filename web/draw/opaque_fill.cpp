#include "web/draw/opaque_fill.hpp"

#include <GLES3/gl3.h>
#include <cstdint>

namespace {

// Runs in ImGui_ImplOpenGL3_RenderDrawData, in draw order. The command's clip rectangle is the fill (see below);
// the scissor is set the way the backend sets it for a draw, and the backend sets its own again before the next.
void clear_clip_rect(const ImDrawList*, const ImDrawCmd* cmd) {
  const ImDrawData& data = *ImGui::GetDrawData();
  const ImVec2 off = data.DisplayPos, scale = data.FramebufferScale;
  const float fb_height = data.DisplaySize.y * scale.y;
  const ImVec2 min((cmd->ClipRect.x - off.x) * scale.x, (cmd->ClipRect.y - off.y) * scale.y);
  const ImVec2 max((cmd->ClipRect.z - off.x) * scale.x, (cmd->ClipRect.w - off.y) * scale.y);
  if (max.x <= min.x || max.y <= min.y) return;
  glScissor(int(min.x), int(fb_height - max.y), int(max.x - min.x), int(max.y - min.y));
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(ImU32(reinterpret_cast<uintptr_t>(cmd->UserCallbackData)));
  glClearColor(c.x, c.y, c.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

}  // namespace

void add_opaque_fill(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 color) {
  dl->PushClipRect(a, b, true);  // the callback's command carries the fill as its clip rectangle
  dl->AddCallback(clear_clip_rect, reinterpret_cast<void*>(uintptr_t(color)));
  dl->PopClipRect();
}

ImU32 darkened_page_background(float alpha) {
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  return ImGui::ColorConvertFloat4ToU32(ImVec4(bg.x * (1 - alpha), bg.y * (1 - alpha), bg.z * (1 - alpha), 1.0f));
}
