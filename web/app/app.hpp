// The browser app's state and the actions the panels (and the JS test hook) take on it.
//
// The app holds what the user sees and edits: the spec document in the editor, its validation errors,
// the presets, and the Runner of the experiment being trained. Training itself is the engine's: a Web Worker trains
// the runner's twin and the app's runner follows it (web/app/remote_training.hpp); where the app trains itself, it calls
// Runner::step() in time slices each frame, so the page stays responsive.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "engine/analysis/limit_curve.hpp"
#include "engine/base/json.hpp"
#include "engine/gpu/gpu_device.hpp"
#include "engine/run/runner.hpp"
#include "engine/spec/presets.hpp"
#include "imgui.h"
#include "web/app/remote_training.hpp"
#include "web/app/view.hpp"
#include "web/app/view_tab.hpp"
#include "web/draw/i18n.hpp"
#include "web/views/abc_explorer.hpp"
#include "web/views/anchor_view.hpp"
#include "web/views/depth_view.hpp"
#include "web/views/embedding_view.hpp"
#include "web/views/imported_runs.hpp"
#include "web/views/phenomena_view.hpp"
#include "web/views/table_preview.hpp"
#include "web/views/width_view.hpp"

enum class RunState { idle, running, paused, finished };
const char* run_state_name(RunState s);

// The UI's zoom (each mode's: ui_zoom below) stays within these, as a browser's does.
constexpr double kMinZoom = 0.5, kMaxZoom = 4;
// Presenting's zoom until the reader picks another: the 15-px font's tick labels are then 26 px high.
constexpr float kPresentZoom = 1.75f;

struct App {
  // The experiment being edited: a JSON document that may be invalid while the user types.
  json::Value spec_doc;
  std::string spec_text;                 // the JSON tab's text buffer
  std::vector<std::string> spec_errors;  // validation of spec_doc (empty: valid)
  bool spec_edited = false;              // spec_doc differs from the spec the runner was built from
  double spec_revision = 0;              // counts changes of spec_doc: the page follows it (address bar, saved draft)

  SpecLimits spec_limits;  // the page's time budget and data folder (web/app/page_limits.hpp), set before app_init
  std::vector<PresetFile> presets;  // listed under spec_limits
  int preset_index = -1;
  bool scroll_to_preset = false;  // a spec came from a preset not picked in the list: the list scrolls to it

  // The experiment being trained, built from a valid spec, and its width-∞ curves (or why there are none).
  std::unique_ptr<Runner> runner;
  std::vector<LimitCurve> limits;
  std::string no_limit_why;
  RunState state = RunState::idle;
  double steps_per_second = 0;
  // Threads that step the sweep's members side by side (the threaded build, on a cross-origin isolated page; else 1:
  // no thread is started), and one parallel batch's size, adapted to the frame's training slice (advance()).
  std::unique_ptr<WorkerPool> pool;
  int slice_members = 1, slice_steps = 1;
  double last_advance_ms = 0;
  long steps_at_last_advance = 0;
  RemoteTraining remote;  // the Web Worker that trains while the page draws

  // Result documents imported as reference sets (web/views/imported_runs.hpp), drawn over the page's runs where they are of
  // the same model kind and task. They are not part of the share link (a spec only) nor kept in browser storage.
  std::vector<ImportedSet> imports;
  double imports_revision = 0;  // counts changes of `imports`: the page's list of them (web/js/imports.js) follows it

  // Which view the right-hand side shows (web/app/view_text.hpp); tab_asked: switch to it at the next frame's tab bar
  // (a preset, a link or an embed named it). The view's text as last drawn, and a count of its changes: the page's
  // address bar follows it.
  ViewTab tab = ViewTab::step;
  bool tab_asked = false;
  bool view_pending = false;  // a spec was loaded: the next frame opens on the view it names (web/app/view_text.hpp)
  std::string shown_view;
  double view_revision = 0;

  // Plot choices (the vs step view).
  int plot_metric = 0;  // index into the metric names of the first run
  std::string asked_metric;  // a metric a view asked for (web/app/view_text.hpp): chosen once the runs record it
  bool log_x = false, log_y = true;
  std::string log_y_metric;  // the metric log_y was last set for: another one starts on its own (linear_by_default)
  bool show_limit = true;  // draw the width-∞ curve beside the train loss

  std::vector<int> pressed_keys;  // key presses since the last frame (GLFW key codes), for the shortcuts

  View view;  // which panels are shown (all, or an embed's choice)
  double render_scale = 1;  // the canvas is drawn at devicePixelRatio × this (an embed's scale=, for a scaled slide)
  // Presenting (the toolbar's Present, P, a link's present=1): the view alone, for the back of a lecture hall. Each
  // mode has its zoom: the whole UI is drawn that many times larger (fonts, widgets, plot text, lines), as a
  // browser's zoom would draw it (ImGui's coordinates are CSS pixels / ui_zoom(app): web/main.cpp).
  bool presenting = false;
  // A narrow screen (a phone, set by web/js/narrow.js): the list and the editor fold away, as when presenting; the
  // toolbar's preset menu picks presets instead.
  bool narrow = false;
  // The narrow layout's Fields (the toolbar's Fields button, web/js/narrow.js): the spec editor in place of the views.
  bool narrow_editor = false;
  // prefers-reduced-motion (web/js/present.js): while training, progress reaches the canvas at most once a second;
  // input is drawn at once (web/main.cpp). drawn_at_ms and input_at_ms: the last frame drawn, the last input.
  bool reduced_motion = false;
  double drawn_at_ms = 0, input_at_ms = 0;
  float page_zoom = 1, present_zoom = kPresentZoom;
  PanelShares shares;  // how they share the page (the splitters)
  WidthView width_view;  // the "vs width" tab
  DepthView depth_view;  // the "vs depth" tab
  PhenomenaView phenomena_view;  // the "phenomena" tab
  EmbeddingView embedding_view;  // the "embeddings" tab
  AnchorView anchor_view;  // the "anchor" tab (Transformer runs)
  AbcExplorer explorer;  // the "parametrization" tab

  // The plot's box on screen (CSS pixels) in the last frame, and a pending read-back of its pixels (for a PNG).
  ImVec2 plot_min{0, 0}, plot_max{0, 0};
  bool plot_capture_requested = false;
  std::vector<unsigned char> plot_pixels;  // RGBA rows, top first
  int plot_pixels_width = 0, plot_pixels_height = 0;

  // Fashion-MNIST is fetched only when a spec needs it (web/js/data_loader.js): the app asks for it, the page fetches it
  // into spec_limits.fashion_mnist_dir and calls data_arrived. Until then there is no runner; a Run pressed meanwhile
  // waits.
  bool data_wanted = false;
  bool run_when_data_arrives = false;
  TablePreview table_preview;  // the Data window: a data set the user just brought (web/app/table_import.hpp)
  // The page's WebGPU device (web/app/webgpu_device.hpp), once web/js/page.js has one; else why there is none.
  std::unique_ptr<GpuDevice> gpu;
  std::string gpu_why_none = translatable("WebGPU has not started yet");  // shown through tr_message

  std::string message;  // the latest problem to show in the status bar ("" when none)
  std::string spec_problem;  // the last message about a problem of the spec: an edit that mends the spec clears it
  double frame_count = 0;  // ImGui frames: the page's answers to input and to new training data
  double drawn_count = 0;  // the frames drawn on the canvas: those that differ from the one before (web/main.cpp)
  uint64_t drawn_fingerprint = 0;  // of the frame on the canvas (web/draw/frame_fingerprint.hpp)
  double frame_work_ms = 0, train_ms = 0;  // per frame, smoothed: all of our work, and its training part
  double frame_interval_ms = 0;    // time from one frame's start to the next, smoothed
  double last_frame_start_ms = 0;  // when the last frame started
  // The status bar's rates as shown: refreshed twice a second (web/main.cpp), so that they can be read, and so that
  // they alone do not make every frame differ from the one before.
  struct Rates {
    double steps_per_second = 0, frames_per_second = 0, drawn_per_second = 0, frame_work_ms = 0, train_ms = 0;
  };
  Rates shown;
  double shown_at_ms = 0, drawn_count_when_shown = 0;
};

// The single App of the page. main.cpp's frame loop and js_api.cpp's exports both need it, and emscripten's
// main-loop callback takes no context we could thread it through cleanly, so one accessor it is.
App& the_app();

// The zoom of the mode the page is in.
inline float ui_zoom(const App& app) { return app.presenting ? app.present_zoom : app.page_zoom; }

// Reads the presets from `dir` and loads the default experiment: the first valid preset.
void app_init(App& app, const std::string& presets_dir);
void load_default(App& app);
bool load_preset(App& app, int index);
// The index of the preset whose file is named `stem` (+ ".json"), or -1.
int find_preset(const App& app, const std::string& stem);
// The index of the first valid preset whose spec is named `name`, or -1: the preset a link or file was made from.
int preset_named(const App& app, const std::string& name);
// Replaces the editor's spec with `text` (older spec versions are migrated). Returns the problems (empty if it is a
// valid spec); on a JSON syntax error, or a spec from a newer build, the editor keeps its previous document, so
// nothing the user made is lost.
std::vector<std::string> load_spec_text(App& app, const std::string& text);
// A file the user imports (`file_name`: "" when unknown). A spec opens in the editor. A result document's runs are
// kept as an imported reference set and drawn over the page's runs, unless its model kind or task differs from the
// page's experiment (then `refused` says why); a result of the page's own engine (no "engine" in its header) also
// opens its spec when the page has not run anything yet and the spec fits the page's limits, so Run reproduces it.
struct ImportOutcome {
  std::vector<std::string> errors;  // a bad file: nothing changed
  std::string refused;   // a good result document that cannot be drawn over this experiment: why
  bool opened_spec = false;
  std::string overlay;   // the name of the reference set now drawn, or ""
};
ImportOutcome import_file(App& app, const std::string& text, const std::string& file_name);
// Removes the `index`-th imported set; false when there is none.
bool remove_import(App& app, int index);
// The imported sets drawn over the current experiment (none without a runner).
std::vector<const ImportedSet*> drawn_imports(const App& app);

// The view to write into a link, a file or a result whose spec names `named`: the one the page shows.
std::string view_to_write(const App& app, const std::string& named);
// The editor's spec document with the view the page shows now in its "view" field: what a draft, a saved run or a
// spec file keeps.
json::Value spec_doc_with_view(const App& app);
// Opens a share link's fragment. A bad link opens the default experiment and says why in app.message.
std::vector<std::string> open_link(App& app, const std::string& fragment);
// The share-link fragment of the editor's spec ("s=1...."), or "" while it is invalid.
std::string share_link(const App& app);
// Re-validates after an edit of app.spec_doc.
void spec_doc_changed(App& app);

// Run controls. reset() rebuilds the runner from the editor's spec (if valid) without starting it.
bool reset(App& app);
void run(App& app);
void pause(App& app);
void step_once(App& app);

// The page fetched the data a spec asked for (error ""), or could not (error says why; the spec is kept).
void data_arrived(App& app, const std::string& error);
// The page found a WebGPU device (or none, and why). A run not started yet is rebuilt to use it.
void gpu_ready(App& app, std::unique_ptr<GpuDevice> device);
void gpu_unavailable(App& app, const std::string& why);

// Trains for about `budget_ms` of wall time (called once per frame while running); with the worker training, only
// measures its pace.
void advance(App& app, double budget_ms, double (*now_ms)());

// The `workers` training workers (web/app/remote_training.hpp) are ready: a run not started yet is rebuilt to train there.
void trainer_ready(App& app, int workers);
// Its message for runner `generation` is in JS: the app's runner takes it on (an older runner's is dropped).
void trainer_progress(App& app, int generation);
// It could not train runner `generation` (-1: the worker itself failed): the app trains on its own thread from now.
void trainer_failed(App& app, int generation, const std::string& why);

// Builds this frame's ImGui windows (call between ImGui::NewFrame and ImGui::Render).
void draw_ui(App& app);
