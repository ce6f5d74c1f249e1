// UI state of the browser app and the function that draws it each frame.
// The app owns no experiment logic: panels only read and edit engine objects.
#pragma once

struct App {
  double frame_count = 0;  // frames drawn so far; read by JS (muplay_frame_count) to know the app is alive
};

// The single App of the page. main.cpp's frame loop and js_api.cpp's exports both need it, and emscripten's
// main-loop callback takes no context we could thread it through cleanly, so one accessor it is.
App& the_app();

// Builds this frame's ImGui windows (call between ImGui::NewFrame and ImGui::Render).
void draw_ui(App& app);
