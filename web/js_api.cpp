// C functions exported to the page's JavaScript. index.html wraps each one with cwrap into window.muplay
// (the hook the browser tests and embedding pages use); its list of them is read off the signatures below when the
// site is staged (scripts/stage-index.mjs: const char* is a string, void none, any other type a number).
// EMSCRIPTEN_KEEPALIVE exports a function without a -sEXPORTED_FUNCTIONS list that could drift out of sync.
// Functions returning text return a pointer to one static buffer: JS copies it at once (cwrap 'string').
// Text arguments arrive in memory from muplay_alloc (index.html), not on the stack: a link or file can be megabytes.
#include <emscripten.h>

#include <algorithm>
#include <cmath>
#include <malloc.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/analysis/analysis.hpp"
#include "engine/analysis/phase_diagram.hpp"
#include "engine/export/torch_export.hpp"
#include "engine/spec/link.hpp"
#include "engine/spec/presets.hpp"
#include "engine/spec/result_files.hpp"
#include "engine/spec/spec_migrations.hpp"
#include "imgui.h"
#include "imgui_internal.h"  // the hovered window (muplay_hovered_scroll), UTF-8 decoding (muplay_font_glyphs)
#include "web/app/app.hpp"
#include "web/app/table_import.hpp"
#include "web/app/view_text.hpp"
#include "web/app/webgpu_device.hpp"
#include "web/draw/drawn.hpp"
#include "web/draw/figure_text.hpp"
#include "web/draw/i18n.hpp"
#include "web/draw/semantics.hpp"
#include "web/views/lr_view.hpp"
#include "web/views/max_lr_view.hpp"
#include "web/views/step_view.hpp"
#include "web/views/width_view.hpp"

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

// Messages for the page to show as they are: in its language (web/draw/i18n.hpp). The engine and the app write them in
// English.
json::Value message_list(const std::vector<std::string>& messages) {
  json::Value a = json::Value::make_array();
  for (const std::string& m : messages) a.push(json::Value::make_string(tr_message(m)));
  return a;
}
json::Value message(const std::string& english) { return json::Value::make_string(tr_message(english)); }

std::string arg(const char* text) { return text ? text : ""; }

json::Value finite_or_null(double x) { return std::isfinite(x) ? json::Value::make_number(x) : json::Value(); }

// {"ok": true when there are no errors, "errors": [...] in the page's language} as JSON.
const char* outcome(const std::vector<std::string>& errors) {
  json::Value r = json::Value::make_object();
  r.set("ok", json::Value::make_bool(errors.empty()));
  r.set("errors", message_list(errors));
  return out(json::write(r));
}

}  // namespace

extern "C" {

// Memory for text passed in from JS (freed by JS after the call).
EMSCRIPTEN_KEEPALIVE void* muplay_alloc(size_t bytes) { return std::malloc(bytes); }
EMSCRIPTEN_KEEPALIVE void muplay_free(void* p) { std::free(p); }

// A human-readable version string.
EMSCRIPTEN_KEEPALIVE const char* muplay_version() { return "0.1.0 (Dear ImGui " IMGUI_VERSION ")"; }

// ImGui frames so far (a double: exact far beyond 2^32, and a plain JS number): the page's answers to input and data.
EMSCRIPTEN_KEEPALIVE double muplay_frame_count() { return the_app().frame_count; }
// The frames of those drawn on the canvas: the ones that differed from the frame before (web/draw/frame_fingerprint.hpp).
EMSCRIPTEN_KEEPALIVE double muplay_drawn_frame_count() { return the_app().drawn_count; }

// Our own work per frame in ms, smoothed: {"frame_work_ms", "train_ms", "fps"} as JSON.
EMSCRIPTEN_KEEPALIVE const char* muplay_frame_stats() {
  json::Value r = json::Value::make_object();
  r.set("frame_work_ms", json::Value::make_number(the_app().frame_work_ms));
  r.set("train_ms", json::Value::make_number(the_app().train_ms));
  r.set("fps", json::Value::make_number(ImGui::GetIO().Framerate));
  r.set("threads", json::Value::make_number(the_app().pool ? the_app().pool->threads() : 1));
  return out(json::write(r));
}

// The scroll of the window the wheel would scroll now, the one under the mouse (or, when that one has nothing to
// scroll, its nearest parent that has, as ImGui picks it): {"window", "y", "max_y"} as JSON, or {} over none.
EMSCRIPTEN_KEEPALIVE const char* muplay_hovered_scroll() {
  ImGuiWindow* w = ImGui::GetCurrentContext()->HoveredWindow;
  while (w && (w->Flags & ImGuiWindowFlags_ChildWindow) && w->ScrollMax.y == 0.0f) w = w->ParentWindow;
  json::Value r = json::Value::make_object();
  if (w) {
    r.set("window", json::Value::make_string(w->Name));
    r.set("y", json::Value::make_number(w->Scroll.y));
    r.set("max_y", json::Value::make_number(w->ScrollMax.y));
  }
  return out(json::write(r));
}

// What the last frame drew (web/draw/drawn.hpp): widgets with labels and rectangles, windows, plots (axes, ticks, legend,
// hover), heat maps, noted texts. The first call turns recording on: its answer is the frame drawn before, empty.
EMSCRIPTEN_KEEPALIVE const char* muplay_drawn() {
  drawn_set_recording(true);
  return out(json::write(drawn_last_json()));
}

// The semantics layer (web/draw/semantics.hpp, web/js/semantics.js): every control the last frame drew, with its role,
// name, rectangle, state and value, as JSON; its revision, polled each frame, changes only when that content does.
// An item's id is ImGui's (a 32-bit number, exact in a double).
EMSCRIPTEN_KEEPALIVE const char* muplay_semantics() { return out(json::write(semantics_json())); }
EMSCRIPTEN_KEEPALIVE double muplay_semantics_revision() { return semantics_revision(); }
// Presses the item (as a click would), brings it into its panel's view, gives a text field or combo its value.
EMSCRIPTEN_KEEPALIVE void muplay_semantics_activate(double id) { semantics_activate(ImGuiID(id)); }
EMSCRIPTEN_KEEPALIVE void muplay_semantics_scroll_to(double id) { semantics_scroll_to(ImGuiID(id)); }
EMSCRIPTEN_KEEPALIVE void muplay_semantics_set_value(double id, const char* value) {
  semantics_set_value(ImGuiID(id), arg(value));
}

// The editor's spec document as JSON text (possibly invalid while being edited).
EMSCRIPTEN_KEEPALIVE const char* muplay_get_spec() { return out(json::write(spec_doc_with_view(the_app()), 2)); }

// Loads a spec into the editor and resets the run. Returns {"ok": bool, "errors": [...]} as JSON.
EMSCRIPTEN_KEEPALIVE const char* muplay_load_spec(const char* text) { return outcome(load_spec_text(the_app(), arg(text))); }

// Checks a spec without loading it: {"ok", "errors"}. The embed API refuses a bad spec before it touches the page.
EMSCRIPTEN_KEEPALIVE const char* muplay_check_spec(const char* text) { return outcome(read_spec_text(arg(text), the_app().spec_limits).errors); }

// Imports a file named `name` ("" when unknown): a spec opens; a result document's runs are drawn over the page's
// (web/app/app.hpp: import_file). Returns {"ok", "errors", "refused": why its runs are not drawn ("" when they are or
// there are none), "opened_spec", "overlay": the name of the imported set now drawn, or ""}.
EMSCRIPTEN_KEEPALIVE const char* muplay_import(const char* text, const char* name) {
  const ImportOutcome o = import_file(the_app(), arg(text), arg(name));
  json::Value r = json::Value::make_object();
  r.set("ok", json::Value::make_bool(o.errors.empty() && o.refused.empty()));
  r.set("errors", message_list(o.errors));
  r.set("refused", message(o.refused));
  r.set("opened_spec", json::Value::make_bool(o.opened_spec));
  r.set("overlay", json::Value::make_string(o.overlay));
  return out(json::write(r));
}

// The imported sets: [{"name", "engine", "device", "runs", "widths": [ascending], "drawn": over the current
// experiment, "why": why not ("" when drawn)}], and a counter of their changes (the page's list follows it).
EMSCRIPTEN_KEEPALIVE const char* muplay_imports() {
  const App& app = the_app();
  const std::vector<const ImportedSet*> drawn = drawn_imports(app);
  json::Value list = json::Value::make_array();
  for (const ImportedSet& set : app.imports) {
    json::Value item = json::Value::make_object();
    item.set("name", json::Value::make_string(set.name));
    item.set("engine", json::Value::make_string(set.engine));
    item.set("device", json::Value::make_string(set.device));
    item.set("runs", json::Value::make_number(double(set.runs.size())));
    std::vector<int> widths;
    for (const ImportedRun& run : set.runs) widths.push_back(run.width);
    std::sort(widths.begin(), widths.end());
    widths.erase(std::unique(widths.begin(), widths.end()), widths.end());
    json::Value w = json::Value::make_array();
    for (int width : widths) w.push(json::Value::make_number(width));
    item.set("widths", w);
    const bool is_drawn = std::find(drawn.begin(), drawn.end(), &set) != drawn.end();
    item.set("drawn", json::Value::make_bool(is_drawn));
    item.set("why", message(is_drawn ? "" : app.runner ? overlay_mismatch(set, app.runner->spec())
                                                     : translatable("no experiment to draw them over yet")));
    list.push(item);
  }
  return out(json::write(list));
}
EMSCRIPTEN_KEEPALIVE double muplay_imports_revision() { return the_app().imports_revision; }
EMSCRIPTEN_KEEPALIVE int muplay_remove_import(int index) { return remove_import(the_app(), index) ? 1 : 0; }

// The curves a view draws, the page's runs and the imported ones alike: view "step" (`quantity`: the metric), "width"
// (`quantity`: the series family, `record`: the record index) or "lr". {"curves": [{"label", "group": the imported
// source or "", "dashed", "colour": "#rrggbb", "x", "y"}], "slopes" (width only): [{"series", "source", "page",
// "imported", "together"}],
// "step" (width only)}. Non-finite numbers are null.
EMSCRIPTEN_KEEPALIVE const char* muplay_view_curves(const char* view, const char* quantity, int record) {
  const App& app = the_app();
  const std::string which = arg(view);
  json::Value r = json::Value::make_object();
  std::vector<PlotCurve> curves;
  if (which == "step") {
    curves = step_curves(app.runner.get(), drawn_imports(app), arg(quantity));
  } else if (which == "lr") {
    curves = lr_picture(app.runner.get(), drawn_imports(app)).curves;
  } else if (which == "width" && app.runner) {
    const WidthPicture p = width_picture(*app.runner, drawn_imports(app), arg(quantity), record);
    curves = p.curves;
    json::Value slopes = json::Value::make_array();
    for (const WidthSlopes& w : p.slopes) {
      json::Value row = json::Value::make_object();
      row.set("series", json::Value::make_string(w.series));
      row.set("source", json::Value::make_string(w.source));
      row.set("page", finite_or_null(w.page));
      row.set("imported", finite_or_null(w.imported));
      row.set("together", finite_or_null(w.together));
      slopes.push(row);
    }
    r.set("slopes", slopes);
    r.set("step", json::Value::make_number(p.step));
  }
  json::Value list = json::Value::make_array();
  for (const PlotCurve& c : curves) {
    json::Value item = json::Value::make_object(), x = json::Value::make_array(), y = json::Value::make_array();
    for (double v : c.x) x.push(finite_or_null(v));
    for (double v : c.y) y.push(finite_or_null(v));
    item.set("label", json::Value::make_string(c.label));
    item.set("group", json::Value::make_string(c.group));
    item.set("dashed", json::Value::make_bool(c.dash == LineDash::dashed));
    char colour[8];
    std::snprintf(colour, sizeof colour, "#%02x%02x%02x", (c.color >> IM_COL32_R_SHIFT) & 0xFF,
                  (c.color >> IM_COL32_G_SHIFT) & 0xFF, (c.color >> IM_COL32_B_SHIFT) & 0xFF);
    item.set("colour", json::Value::make_string(colour));
    item.set("x", x);
    item.set("y", y);
    list.push(item);
  }
  r.set("curves", list);
  return out(json::write(r));
}

// The shown view's figure as text (web/draw/figure_text.hpp): {"revision", "view", "name", "summary", "caption",
// "columns", "rows", "series", "training", "milestones", "rect"}, in the page's language. web/js/figure_text.js polls
// the revision (a number: no JSON) and asks for the text only when it moved.
EMSCRIPTEN_KEEPALIVE const char* muplay_figure_text() { return out(json::write(figure_text_json())); }
EMSCRIPTEN_KEEPALIVE double muplay_figure_text_revision() { return figure_text_revision(); }

// Counts the changes of the editor's spec: the page saves the draft and updates the address bar when it moves.
EMSCRIPTEN_KEEPALIVE double muplay_spec_revision() { return the_app().spec_revision; }

// The share-link fragment of the editor's spec ("s=1...."), or "" while the spec is invalid.
EMSCRIPTEN_KEEPALIVE const char* muplay_share_link() { return out(share_link(the_app())); }

// Opens a share link (a bad one opens the default experiment and sets the message). Returns {"ok", "errors"}.
EMSCRIPTEN_KEEPALIVE const char* muplay_open_link(const char* fragment) { return outcome(open_link(the_app(), arg(fragment))); }

// Decodes a share link without opening it: {"ok", "errors"}. The browser tests fuzz the decoder through this.
EMSCRIPTEN_KEEPALIVE const char* muplay_decode_link(const char* fragment) { return outcome(spec_from_link(arg(fragment), the_app().spec_limits).errors); }

// Shows the full page or an embed with the listed panels (web/app/view.hpp). Returns {"ok", "errors"}.
EMSCRIPTEN_KEEPALIVE const char* muplay_set_view(int embed, const char* panels) {
  std::vector<std::string> errors;
  the_app().view = make_view(embed != 0, arg(panels), errors);
  return outcome(errors);
}

// Draws the canvas at devicePixelRatio × `scale` (1 to 4; an embed's scale=): sharp where a slide scales the frame up.
EMSCRIPTEN_KEEPALIVE void muplay_set_scale(double scale) { the_app().render_scale = std::clamp(scale, 1.0, 4.0); }
// Presenting (App::presenting) and each mode's zoom (kept between kMinZoom and kMaxZoom): web/js/page.js sets them from
// the toolbar, the keys and what the browser remembers. muplay_zooms: {"presenting", "page", "present",
// "present_default"}.
EMSCRIPTEN_KEEPALIVE void muplay_set_presenting(int on) { the_app().presenting = on != 0; }
EMSCRIPTEN_KEEPALIVE int muplay_presenting() { return the_app().presenting ? 1 : 0; }  // polled every frame: no JSON
EMSCRIPTEN_KEEPALIVE void muplay_set_narrow(int on) { the_app().narrow = on != 0; }  // App::narrow
EMSCRIPTEN_KEEPALIVE void muplay_set_narrow_editor(int on) { the_app().narrow_editor = on != 0; }  // App::narrow_editor
EMSCRIPTEN_KEEPALIVE void muplay_set_reduced_motion(int on) { the_app().reduced_motion = on != 0; }  // App::reduced_motion
EMSCRIPTEN_KEEPALIVE void muplay_set_zooms(double page, double present) {
  App& app = the_app();
  if (std::isfinite(page)) app.page_zoom = float(std::clamp(page, kMinZoom, kMaxZoom));
  if (std::isfinite(present)) app.present_zoom = float(std::clamp(present, kMinZoom, kMaxZoom));
}
EMSCRIPTEN_KEEPALIVE const char* muplay_zooms() {
  const App& app = the_app();
  json::Value v = json::Value::make_object();
  v.set("presenting", json::Value::make_bool(app.presenting));
  v.set("page", json::Value::make_number(app.page_zoom));
  v.set("present", json::Value::make_number(app.present_zoom));
  v.set("present_default", json::Value::make_number(kPresentZoom));
  return out(json::write(v));
}

// The view the page shows, as links carry it (web/app/view_text.hpp): "width;record=5", say; its count of changes; and a
// switch to another ({"ok", "errors"}: the problems of a view text; what is right in it is still taken).
EMSCRIPTEN_KEEPALIVE const char* muplay_view() { return out(the_app().shown_view); }
EMSCRIPTEN_KEEPALIVE double muplay_view_revision() { return the_app().view_revision; }
EMSCRIPTEN_KEEPALIVE const char* muplay_apply_view(const char* text) { return outcome(apply_view_text(the_app(), arg(text))); }

// The index of the preset file examples/STEM.json, or -1.
EMSCRIPTEN_KEEPALIVE int muplay_find_preset(const char* stem) { return find_preset(the_app(), arg(stem)); }

// The files of the page's downloads, written as `muplay` writes them (engine/spec/result_files.hpp). The spec file of
// an invalid spec (mid-edit) is its document as it stands, so work in progress can be saved too.
EMSCRIPTEN_KEEPALIVE const char* muplay_spec_file() {
  const json::Value doc = spec_doc_with_view(the_app());
  const SpecResult r = parse_spec(doc, the_app().spec_limits);
  return out(r.ok() ? spec_file_text(r.spec) : json::write(doc, 2) + "\n");
}
EMSCRIPTEN_KEEPALIVE const char* muplay_result_file() {
  if (!the_app().runner) return out("");
  json::Value results = the_app().runner->results();
  // The view shown, as the spec file has it: `muplay run` on that file writes this document, byte for byte.
  for (auto& [key, spec] : results.object) {
    if (key != "spec") continue;
    SpecResult r = parse_spec(spec, the_app().spec_limits);
    if (!r.ok()) continue;
    r.spec.view = view_to_write(the_app(), r.spec.view);
    spec = spec_to_json(r.spec);
  }
  return out(result_file_text(results));
}
EMSCRIPTEN_KEEPALIVE const char* muplay_results_csv() {
  return out(the_app().runner ? results_csv(the_app().runner->results()) : "");
}

// The editor's spec as a standalone PyTorch project (engine/export/torch_export.hpp), for the Export menu's zip:
// {"ok", "errors": the spec's problems or the fields the exporter cannot express, "files": [{"path", "text"}]}.
EMSCRIPTEN_KEEPALIVE const char* muplay_export_torch() {
  const SpecResult r = parse_spec(spec_doc_with_view(the_app()), the_app().spec_limits);  // as the spec file has it
  std::vector<std::string> errors = r.errors;
  const std::vector<ExportFile> files = r.ok() ? export_torch_project(r.spec, errors) : std::vector<ExportFile>{};
  json::Value list = json::Value::make_array();
  for (const ExportFile& f : files) {
    json::Value file = json::Value::make_object();
    file.set("path", json::Value::make_string(f.path));
    // A table's data files may be binary (.npy): the page copies their bytes from the module's file system instead.
    std::string fs_path;
    for (const TableExportFile& t : table_files(r.spec))
      if (t.name == f.path) fs_path = t.file->path;
    if (!fs_path.empty()) file.set("fs", json::Value::make_string(fs_path));
    else file.set("text", json::Value::make_string(f.text));
    list.push(file);
  }
  json::Value out_doc = json::Value::make_object();
  out_doc.set("ok", json::Value::make_bool(errors.empty()));
  out_doc.set("errors", message_list(errors));
  out_doc.set("files", list);
  return out(json::write(out_doc));
}

// PNG export of the plot: request a read-back of its pixels in the next frame (0 when no plot is on screen), then
// poll muplay_plot_pixels: {"ready", "width", "height", "pointer"} (RGBA rows, top first, at `pointer` in the heap).
EMSCRIPTEN_KEEPALIVE int muplay_capture_plot() {
  App& app = the_app();
  if (app.plot_max.x <= app.plot_min.x || app.plot_max.y <= app.plot_min.y) return 0;
  app.plot_capture_requested = true;
  app.plot_pixels_width = app.plot_pixels_height = 0;
  return 1;
}
EMSCRIPTEN_KEEPALIVE const char* muplay_plot_pixels() {
  const App& app = the_app();
  json::Value r = json::Value::make_object();
  r.set("ready", json::Value::make_bool(!app.plot_capture_requested && app.plot_pixels_width > 0));
  r.set("width", json::Value::make_number(app.plot_pixels_width));
  r.set("height", json::Value::make_number(app.plot_pixels_height));
  r.set("pointer", json::Value::make_number(double(reinterpret_cast<uintptr_t>(app.plot_pixels.data()))));
  return out(json::write(r));
}

// The validation problems of the editor's spec, and the status bar's message, as JSON.
EMSCRIPTEN_KEEPALIVE const char* muplay_get_errors() {
  json::Value r = json::Value::make_object();
  r.set("spec", message_list(the_app().spec_errors));
  r.set("message", message(the_app().message));
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
// The index of the preset the experiment came from (the one the list marks), or -1.
EMSCRIPTEN_KEEPALIVE int muplay_preset_index() { return the_app().preset_index; }

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

// How far the run is: {"steps": steps toward "planned" (a member that ended early, diverged, counts as complete),
// "planned": steps when every member finishes}, as the progress bar shows it; {"steps": 0, "planned": 0} without runs.
EMSCRIPTEN_KEEPALIVE const char* muplay_progress() {
  const Runner* r = the_app().runner.get();
  json::Value p = json::Value::make_object();
  p.set("steps", json::Value::make_number(r ? double(r->progress_steps()) : 0));
  p.set("planned", json::Value::make_number(r ? double(r->planned_steps()) : 0));
  return out(json::write(p));
}

// Trains for up to `budget_ms` when no frame has started for `quiet_ms`, and says whether it did. Browsers stop
// animation frames in a frame out of view, on a hidden slide or in a hidden tab, and the page trains in its frames
// when no worker trains for it: a timer (web/js/page.js) calls this so that such a run still ends, and says so. The
// training itself is the app's (advance), the same as a frame's slice, without the drawing.
EMSCRIPTEN_KEEPALIVE int muplay_advance_unseen(double quiet_ms, double budget_ms) {
  App& app = the_app();
  if (emscripten_get_now() - app.last_frame_start_ms < quiet_ms) return 0;
  advance(app, budget_ms, emscripten_get_now);
  return 1;
}

// Who the keyboard's keys are for, as the last frame left it: {"text_input": a text field has the keyboard,
// "shortcuts": Space, S and R act on the run (everywhere but in an embed without its controls panel)}. An embed gives
// every other key that moves a slide back to its host (web/js/guest_keys.js).
EMSCRIPTEN_KEEPALIVE const char* muplay_keyboard() {
  const View& v = the_app().view;
  json::Value k = json::Value::make_object();
  k.set("text_input", json::Value::make_bool(ImGui::GetIO().WantTextInput));
  k.set("shortcuts", json::Value::make_bool(!v.embed || v.controls));
  return out(json::write(k));
}

// Every run's recorded metrics: the same result document as `muplay run` writes (examples/README.md: the result
// document).
EMSCRIPTEN_KEEPALIVE const char* muplay_get_results() {
  return out(the_app().runner ? json::write(the_app().runner->results()) : "null");
}

// The "vs width" view's fitted slopes: {"<series>": slope} of log(value at record `record`) against log(width) for
// every series of `family` (e.g. "act_delta_rms"), as the view draws them.
EMSCRIPTEN_KEEPALIVE const char* muplay_width_slopes(const char* family, int record) {
  json::Value r = json::Value::make_object();
  if (the_app().runner)
    for (const PlotCurve& c : width_curves(*the_app().runner, family ? family : "", record))
      r.set(c.label.substr(0, c.label.find(' ')), json::Value::make_number(c.x.size() >= 2 ? loglog_slope(c.x, c.y) : 0));
  return out(json::write(r));
}

// What the "vs width" view drew in its last frame (its cached picture, not a fresh one, so a stale picture shows):
// {"step", "quantity", "curves": [{"label", "x", "y"}]}, or null before the view was first drawn for this runner.
EMSCRIPTEN_KEEPALIVE const char* muplay_width_view() {
  const WidthView& v = the_app().width_view;
  if (v.curves_at < 0) return out("null");
  json::Value r = json::Value::make_object(), curves = json::Value::make_array();
  r.set("step", json::Value::make_number(v.picture.step));
  r.set("quantity", json::Value::make_string(v.picture.quantity));
  for (const PlotCurve& c : v.picture.curves) {
    json::Value item = json::Value::make_object(), x = json::Value::make_array(), y = json::Value::make_array();
    for (double d : c.x) x.push(finite_or_null(d));
    for (double d : c.y) y.push(finite_or_null(d));
    item.set("label", json::Value::make_string(c.label));
    item.set("x", x);
    item.set("y", y);
    curves.push(item);
  }
  r.set("curves", curves);
  return out(json::write(r));
}

// The "max LR" view's numbers (experiment E1): {"parametrization", "slope", "sem", "widths": [{"width", "max_lr",
// "lrs", "loss_ratio"}]} as the view draws them, or {"why": ...} when it draws nothing.
EMSCRIPTEN_KEEPALIVE const char* muplay_max_lr() {
  json::Value r = json::Value::make_object();
  if (!the_app().runner) return out(json::write(r));
  const MaxLrPicture p = max_lr_picture(*the_app().runner);
  if (!p.why_empty.empty()) {
    r.set("why", json::Value::make_string(p.why_empty));
    return out(json::write(r));
  }
  const auto numbers = [](const std::vector<double>& xs) {
    json::Value a = json::Value::make_array();
    for (double x : xs) a.push(json::Value::make_number(x));
    return a;
  };
  r.set("parametrization", json::Value::make_string(p.parametrization));
  r.set("slope", json::Value::make_number(p.table.slope.mean));
  r.set("sem", json::Value::make_number(p.table.slope.sem));
  json::Value widths = json::Value::make_array();
  for (const MaxLrCurve& c : p.table.curves) {
    json::Value w = json::Value::make_object();
    w.set("width", json::Value::make_number(c.width));
    w.set("max_lr", json::Value::make_number(c.max_lr));
    w.set("lrs", numbers(c.lrs));
    w.set("loss_ratio", numbers(c.loss_ratio));
    widths.push(w);
  }
  r.set("widths", widths);
  return out(json::write(r));
}

// The "phenomena" view's (gamma, gamma') map: [{"gamma", "gamma_prime", "slope" (S_w, null if unknown),
// "unconverged", "theory" (linear / critical / condensed)}], as the view colours it.
EMSCRIPTEN_KEEPALIVE const char* muplay_phase_slopes() {
  json::Value r = json::Value::make_array();
  if (the_app().runner && the_app().runner->spec().parametrization.preset == Preset::two_layer_gamma)
    for (const PhaseSlope& p : phase_slopes(*the_app().runner, false)) {
      json::Value e = json::Value::make_object();
      e.set("gamma", json::Value::make_number(p.phase.gamma));
      e.set("gamma_prime", json::Value::make_number(p.phase.gamma_prime));
      e.set("slope", std::isfinite(p.slope) ? json::Value::make_number(p.slope) : json::Value());
      e.set("unconverged", json::Value::make_number(p.unconverged));
      e.set("theory", json::Value::make_string(phase_regime_name(theoretical_regime(p.phase.gamma, p.phase.gamma_prime))));
      r.push(e);
    }
  return out(json::write(r));
}

// The label of the run the "phenomena" view shows (a click on the (gamma, gamma') map picks it); "" without runs.
EMSCRIPTEN_KEEPALIVE const char* muplay_phenomena_run() {
  const Runner* r = the_app().runner.get();
  if (!r || r->members().empty()) return out("");
  const int i = std::clamp(the_app().phenomena_view.run, 0, int(r->members().size()) - 1);
  return out(r->members()[size_t(i)]->label());
}

// web/js/page.js reports the WebGPU device it opened (web/js/webgpu_backend.js, as window.muplayGpu), or why there is none.
EMSCRIPTEN_KEEPALIVE void muplay_gpu_ready(const char* adapter, int fallback) {
  gpu_ready(the_app(), std::make_unique<WebGpuDevice>(arg(adapter), fallback != 0));
}
EMSCRIPTEN_KEEPALIVE void muplay_gpu_unavailable(const char* why) { gpu_unavailable(the_app(), arg(why)); }

// Where the runs train: {"requested": "auto"|"cpu"|"webgpu", "gpu_runs": members on the device now, "gpu_started":
// the members started on a device, "adapter":
// name or "", "fallback": a software adapter, "note": why not where expected or a lost device ("" when none),
// "moved_to_cpu": a member lost its device and went on on the CPU}.
EMSCRIPTEN_KEEPALIVE const char* muplay_backend() {
  const App& app = the_app();
  json::Value r = json::Value::make_object();
  r.set("requested", json::Value::make_string(backend_name(app.runner ? app.runner->spec().backend : Backend::auto_)));
  r.set("gpu_runs", json::Value::make_number(app.runner ? app.runner->members_on_gpu() : 0));
  r.set("gpu_started", json::Value::make_bool(app.runner && !app.runner->gpu_name().empty()));
  r.set("adapter", json::Value::make_string(app.gpu ? app.gpu->name() : ""));
  r.set("fallback", json::Value::make_bool(app.gpu && app.gpu->is_fallback()));
  r.set("note", message(app.runner ? app.runner->backend_note() : ""));
  r.set("moved_to_cpu", json::Value::make_bool(app.runner && app.runner->moved_to_cpu()));
  return out(json::write(r));
}

// The width-∞ curves drawn beside the train loss: {"why": reason when none, "curves": [{"label", "steps",
// "train_loss"}]}.
EMSCRIPTEN_KEEPALIVE const char* muplay_limit_curves() {
  json::Value curves = json::Value::make_array();
  for (const LimitCurve& c : the_app().limits) {
    json::Value curve = json::Value::make_object(), steps = json::Value::make_array(), loss = json::Value::make_array();
    for (int t : c.steps) steps.push(json::Value::make_number(t));
    for (double l : c.train_loss) loss.push(json::Value::make_number(l));
    curve.set("label", json::Value::make_string(c.label));
    curve.set("steps", steps);
    curve.set("train_loss", loss);
    curves.push(curve);
  }
  json::Value r = json::Value::make_object();
  r.set("why", json::Value::make_string(the_app().no_limit_why));
  r.set("curves", curves);
  return out(json::write(r));
}

// The parametrization explorer's table, its bias rows included: [{"layer", "a", "b", "c", "var_exponent",
// "lr_exponent", "bias"}].
EMSCRIPTEN_KEEPALIVE const char* muplay_explorer_rows() {
  json::Value r = json::Value::make_array();
  for (const ExplorerRow& row : explorer_rows(the_app().explorer)) {
    json::Value o = json::Value::make_object();
    o.set("layer", json::Value::make_string(row.layer));
    o.set("a", json::Value::make_number(row.abc.a));
    o.set("b", json::Value::make_number(row.abc.b));
    o.set("c", json::Value::make_number(row.abc.c));
    o.set("var_exponent", json::Value::make_number(row.var_exponent + 0.0));
    o.set("lr_exponent", json::Value::make_number(row.lr_exponent + 0.0));
    o.set("bias", json::Value::make_bool(row.bias));
    r.push(o);
  }
  return out(json::write(r));
}

// Switches the page's language: "en", or "zh" once web/js/language.js has written the catalogue at /i18n/zh.json and
// the font at /fonts/zh.ttf (web/draw/font.hpp) into the module's files. The font follows at the next frame; the
// experiment, its runs and the view stay. Returns {"ok", "errors"}.
EMSCRIPTEN_KEEPALIVE const char* muplay_set_language(const char* language_in) {
  const std::string language = arg(language_in);
  if (language == "en") {
    set_page_language(Language::en, "");
    return outcome({});
  }
  if (language != "zh") return outcome({"unknown language \"" + language + "\": en or zh"});
  std::string catalogue;
  if (!read_text_file("/i18n/zh.json", catalogue))
    return outcome({translatable("the Chinese catalogue /i18n/zh.json is missing")});
  const std::string why = set_page_language(Language::zh, catalogue);
  return outcome(why.empty() ? std::vector<std::string>{} : std::vector<std::string>{why});
}

// The texts the page looked up in Chinese since the last call that the catalogue lacks: ["...", ...] (for the tests).
EMSCRIPTEN_KEEPALIVE const char* muplay_missing_translations() {
  return out(json::write(string_list(take_missing_translations())));
}

// Which characters of `text` the page's font cannot draw (web/draw/font.hpp): {"font", "size", "glyphs", "atlas_width",
// "atlas_height", "missing": ["U+2192", ...]}.
// Asks the font ImGui draws with for each code point's own glyph, not its '?' fallback.
EMSCRIPTEN_KEEPALIVE const char* muplay_font_glyphs(const char* text_in) {
  const std::string text = arg(text_in);
  const ImFont* font = ImGui::GetIO().Fonts->Fonts[0];
  json::Value missing = json::Value::make_array();
  for (const char* p = text.c_str(); *p;) {
    unsigned int c = 0;
    p += ImTextCharFromUtf8(&c, p, nullptr);
    if (c < 0x20 || font->FindGlyphNoFallback(ImWchar(c))) continue;
    char name[16];
    std::snprintf(name, sizeof name, "U+%04X", c);
    missing.push(json::Value::make_string(name));
  }
  json::Value r = json::Value::make_object();
  r.set("font", json::Value::make_string(font->GetDebugName()));
  r.set("size", json::Value::make_number(font->FontSize));
  r.set("glyphs", json::Value::make_number(font->Glyphs.Size));
  const ImFontAtlas& atlas = *ImGui::GetIO().Fonts;  // its texture: width × height RGBA texels on the GPU
  r.set("atlas_width", json::Value::make_number(atlas.TexWidth));
  r.set("atlas_height", json::Value::make_number(atlas.TexHeight));
  r.set("missing", missing);
  return out(json::write(r));
}

// The "embeddings" view's panels for the current runner: [{"title", "separation"}], n = ∞ last when drawn.
EMSCRIPTEN_KEEPALIVE const char* muplay_embedding_panels() {
  json::Value r = json::Value::make_array();
  if (the_app().runner && the_app().runner->spec().task.kind == TaskKind::skipgram)
    for (const EmbeddingPanel& p : embedding_panels(*the_app().runner, nullptr)) {
      json::Value panel = json::Value::make_object();
      panel.set("title", json::Value::make_string(p.title));
      panel.set("separation", json::Value::make_number(
                                  cluster_separation(p.plane, skipgram_clusters(int(p.plane.x.size())))));
      r.push(panel);
    }
  return out(json::write(r));
}
// Data fetched on demand (web/js/data_loader.js): the data set the editor's spec waits for ("fashion-mnist"), or "".
// The page fetches its files into /data/NAME/ and then calls muplay_data_arrived("") (or with why it could not).
EMSCRIPTEN_KEEPALIVE const char* muplay_data_wanted() { return the_app().data_wanted ? "fashion-mnist" : ""; }
EMSCRIPTEN_KEEPALIVE void muplay_data_arrived(const char* error) { data_arrived(the_app(), arg(error)); }

// Data sets the user brings (web/js/tables.js, web/app/table_import.hpp). The page puts the file in the module's file
// system and opens it in the Data window ("" or why it is not a table); the table a spec names but the page lacks
// (JSON {file, bytes, sha256}, or ""); a file offered for it ("" when taken, else why not).
EMSCRIPTEN_KEEPALIVE const char* muplay_open_table(const char* name) {
  return out(tr_message(open_table(the_app(), arg(name))));
}
EMSCRIPTEN_KEEPALIVE const char* muplay_table_wanted() { return out(table_wanted(the_app())); }
EMSCRIPTEN_KEEPALIVE const char* muplay_offer_table(const char* path, const char* name) {
  return out(tr_message(offer_table(the_app(), arg(path), arg(name))));
}

// For the browser tests of fault handling: sweep member `member` of the current runner throws when it reaches `step`.
EMSCRIPTEN_KEEPALIVE int muplay_inject_fault(int member, int step) {
  App& app = the_app();
  if (!app.runner) return 0;
  if (app.remote.active) remote_inject_fault(app.remote, member, step);
  else app.runner->inject_fault(member, step, "injected fault (browser test)");
  return 1;
}

// The training worker (web/js/trainer_client.js): ready; a message for runner `generation` waits in JS; it failed.
EMSCRIPTEN_KEEPALIVE void muplay_trainer_ready(int workers) { trainer_ready(the_app(), workers); }
EMSCRIPTEN_KEEPALIVE void muplay_trainer_progress(int generation) { trainer_progress(the_app(), generation); }
EMSCRIPTEN_KEEPALIVE void muplay_trainer_failed(int generation, const char* why) {
  trainer_failed(the_app(), generation, why);
}
// How many training workers the current run trains in (0: on the page's thread).
EMSCRIPTEN_KEEPALIVE int muplay_trains_in_worker() { return the_app().remote.active ? the_app().remote.shards : 0; }

// Bytes of the wasm heap in use by malloc (not the memory's size, which only grows): the soak test watches it.
EMSCRIPTEN_KEEPALIVE double muplay_heap_bytes() { return double(mallinfo().uordblks); }

}  // extern "C"
