// C functions exported to the page's JavaScript. index.html wraps each one with cwrap into window.muplay
// (the hook the browser tests and embedding pages use); add a line to its EXPORTS table for every new one here.
// EMSCRIPTEN_KEEPALIVE exports a function without a -sEXPORTED_FUNCTIONS list that could drift out of sync.
// Functions returning text return a pointer to one static buffer: JS copies it at once (cwrap 'string').
#include <emscripten.h>

#include <string>

#include "imgui.h"
#include "web/app.hpp"

namespace {

const char* out(std::string text) {
  static std::string buffer;
  buffer = std::move(text);
  return buffer.c_str();
}

json::Value string_list(const std::vector<std::string>& items) {
  json::Value a = json::Value::make_array();
  for (const std::string& s : items) a.push(json::Value::make_string(s));
  return a;
}

}  // namespace

extern "C" {

// A human-readable version string.
EMSCRIPTEN_KEEPALIVE const char* muplay_version() { return "0.1.0 (Dear ImGui " IMGUI_VERSION ")"; }

// Frames drawn so far (a double: exact far beyond 2^32, and a plain JS number).
EMSCRIPTEN_KEEPALIVE double muplay_frame_count() { return the_app().frame_count; }

// Our own work per frame in ms, smoothed: {"frame_work_ms", "train_ms", "fps"} as JSON.
EMSCRIPTEN_KEEPALIVE const char* muplay_frame_stats() {
  json::Value r = json::Value::make_object();
  r.set("frame_work_ms", json::Value::make_number(the_app().frame_work_ms));
  r.set("train_ms", json::Value::make_number(the_app().train_ms));
  r.set("fps", json::Value::make_number(ImGui::GetIO().Framerate));
  return out(json::write(r));
}

// The editor's spec document as JSON text (possibly invalid while being edited).
EMSCRIPTEN_KEEPALIVE const char* muplay_get_spec() { return out(json::write(the_app().spec_doc, 2)); }

// Loads a spec into the editor and resets the run. Returns {"ok": bool, "errors": [...]} as JSON.
EMSCRIPTEN_KEEPALIVE const char* muplay_load_spec(const char* text) {
  const std::vector<std::string> errors = load_spec_text(the_app(), text ? text : "");
  json::Value r = json::Value::make_object();
  r.set("ok", json::Value::make_bool(errors.empty()));
  r.set("errors", string_list(errors));
  return out(json::write(r));
}

// The validation problems of the editor's spec, and the status bar's message, as JSON.
EMSCRIPTEN_KEEPALIVE const char* muplay_get_errors() {
  json::Value r = json::Value::make_object();
  r.set("spec", string_list(the_app().spec_errors));
  r.set("message", json::Value::make_string(the_app().message));
  return out(json::write(r));
}

// The presets: [{"name", "path", "valid"}] as JSON; load one by its index.
EMSCRIPTEN_KEEPALIVE const char* muplay_list_presets() {
  json::Value list = json::Value::make_array();
  for (const PresetFile& p : the_app().presets) {
    json::Value item = json::Value::make_object();
    item.set("name", json::Value::make_string(p.name));
    item.set("path", json::Value::make_string(p.path));
    item.set("valid", json::Value::make_bool(p.errors.empty()));
    list.push(item);
  }
  return out(json::write(list));
}
EMSCRIPTEN_KEEPALIVE int muplay_load_preset(int index) { return load_preset(the_app(), index) ? 1 : 0; }

EMSCRIPTEN_KEEPALIVE void muplay_run() { run(the_app()); }
EMSCRIPTEN_KEEPALIVE void muplay_pause() { pause(the_app()); }
EMSCRIPTEN_KEEPALIVE void muplay_step() { step_once(the_app()); }
EMSCRIPTEN_KEEPALIVE int muplay_reset() { return reset(the_app()) ? 1 : 0; }

// "idle", "running", "paused" or "finished".
EMSCRIPTEN_KEEPALIVE const char* muplay_state() { return run_state_name(the_app().state); }

// Training steps taken so far, all sweep members together.
EMSCRIPTEN_KEEPALIVE double muplay_total_steps() {
  return the_app().runner ? double(the_app().runner->total_steps()) : 0;
}

// Every run's recorded metrics: the same result document as `muplay run` writes (README: result schema).
EMSCRIPTEN_KEEPALIVE const char* muplay_get_results() {
  return out(the_app().runner ? json::write(the_app().runner->results()) : "null");
}

}  // extern "C"
