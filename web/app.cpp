#include "web/app.hpp"

#include "imgui.h"

App& the_app() {
  static App app;
  return app;
}

void draw_ui(App& app) {
  ImGui::SetNextWindowPos(ImVec2(16, 16), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(440, 0), ImGuiCond_FirstUseEver);
  // "\xC2\xB5" is U+00B5 MICRO SIGN: ImGui's built-in font covers Latin-1 but not Greek (U+03BC).
  // "###main" keeps the window's ID stable if the title changes.
  ImGui::Begin("\xC2\xB5Playground###main");
  ImGui::TextWrapped("Width scaling (SP / NTK / mean field / \xC2\xB5P) and anchor-function Transformers, "
                     "trained live in your browser.");
  ImGui::Separator();
  ImGui::TextDisabled("Panels coming soon.");
  ImGui::Text("%.0f frames, %.0f FPS", app.frame_count, ImGui::GetIO().Framerate);
  ImGui::End();
}
