// C functions exported to the page's JavaScript. index.html wraps each one with cwrap into window.muplay
// (the hook the browser tests and embedding pages use); add a line to its EXPORTS table for every new one here.
// EMSCRIPTEN_KEEPALIVE exports a function without a -sEXPORTED_FUNCTIONS list that could drift out of sync.
#include <emscripten.h>

#include "imgui.h"
#include "web/app.hpp"

extern "C" {

// A human-readable version string (static storage: JS copies it with UTF8ToString).
EMSCRIPTEN_KEEPALIVE const char* muplay_version() { return "0.1.0 (Dear ImGui " IMGUI_VERSION ")"; }

// Frames drawn so far (a double: exact far beyond 2^32, and a plain JS number).
EMSCRIPTEN_KEEPALIVE double muplay_frame_count() { return the_app().frame_count; }

}  // extern "C"
