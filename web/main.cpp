// Browser entry point: a GLFW window on the page's <canvas id="canvas">, a WebGL2 context, and the Dear ImGui
// frame loop driven by requestAnimationFrame (emscripten_set_main_loop).
#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "imgui_internal.h"  // the window the wheel would scroll (wheel_scrolls_a_panel)
#include "web/app/app.hpp"
#include "web/app/page_limits.hpp"
#include "web/draw/colour_maps.hpp"
#include "web/draw/drawn.hpp"
#include "web/draw/font.hpp"
#include "web/draw/i18n.hpp"
#include "web/draw/frame_fingerprint.hpp"
#include "web/draw/heatmap.hpp"
#include "web/draw/semantics.hpp"

namespace {

// Stop with a message: abort() reaches index.html's Module.onAbort, which shows stderr in the error area,
// so a failure is never a silently blank page.
[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "muplay: %s\n", what);
  std::abort();
}

struct CanvasSize {
  double css_w, css_h;  // CSS pixels
  double w, h;          // ImGui's coordinate space: CSS pixels / ui_zoom (web/app/app.hpp): a zoom draws all larger
  int fb_w, fb_h;       // backing-store pixels: CSS size x devicePixelRatio, so text and lines stay sharp
};

// Sizes the canvas backing store to its CSS box (index.html makes that the whole window) times devicePixelRatio.
// Done every frame rather than on 'resize' events: it also catches zoom and moving to a screen with another DPR.
// (Emscripten 3.1.6's GLFW knows nothing of DPR, and glfwSetWindowSize may even request fullscreen.)
CanvasSize fit_canvas() {
  CanvasSize s{};
  emscripten_get_element_css_size("#canvas", &s.css_w, &s.css_h);
  s.w = s.css_w / ui_zoom(the_app());
  s.h = s.css_h / ui_zoom(the_app());
  const double dpr = emscripten_get_device_pixel_ratio() * the_app().render_scale;
  s.fb_w = std::max(1, static_cast<int>(std::lround(s.css_w * dpr)));
  s.fb_h = std::max(1, static_cast<int>(std::lround(s.css_h * dpr)));
  int cur_w = 0, cur_h = 0;
  emscripten_get_canvas_element_size("#canvas", &cur_w, &cur_h);
  if (cur_w != s.fb_w || cur_h != s.fb_h) emscripten_set_canvas_element_size("#canvas", s.fb_w, s.fb_h);
  return s;
}

// ImGui 1.86 polls key state once per frame, so a tap that goes down and up between two frames would be lost: Enter
// in a field, Ctrl+A. That is common here, not rare: the page's thread can be busy for tens of ms between frames
// (drawing with a software GL, applying the training workers' messages, training itself when no worker runs), and
// the browser then delivers the keydown and keyup that arrived meanwhile together. So a key pressed since the last
// frame keeps its release until ImGui has seen it down once (release_deferred_keys, after ImGui::NewFrame). Key
// presses for the app's shortcuts are queued as they happen.
struct KeyRelease {
  int key, scancode, mods;
};
std::vector<int> keys_unseen_down;            // pressed since the last ImGui::NewFrame
std::vector<KeyRelease> deferred_releases;    // their releases, for after it

void key_callback(GLFWwindow* window, int key, int scancode, int action, int mods) {
  const bool unseen = std::find(keys_unseen_down.begin(), keys_unseen_down.end(), key) != keys_unseen_down.end();
  if (action == GLFW_RELEASE && unseen) {
    deferred_releases.push_back({key, scancode, mods});
    return;
  }
  ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
  if (action == GLFW_PRESS) keys_unseen_down.push_back(key);
  if (action == GLFW_PRESS || action == GLFW_REPEAT) the_app().pressed_keys.push_back(key);
}

void release_deferred_keys(GLFWwindow* window) {
  keys_unseen_down.clear();
  for (const KeyRelease& r : deferred_releases)
    ImGui_ImplGlfw_KeyCallback(window, r.key, r.scancode, GLFW_RELEASE, r.mods);
  deferred_releases.clear();
}

// Whether a wheel turn (in ImGui's notches and signs) would scroll a panel: the one ImGui 1.86's UpdateMouseWheel
// would pick (a widget that takes the wheel itself, else the window under the mouse or the one it is still scrolling,
// else the nearest parent that has room on that axis), and only if it has room left in that direction once the
// turns queued since the last frame are applied. The event arrives before the frame that handles it, so this reads
// the last frame's hover and scroll state: a panel at its end gives the next turn to the host.
bool wheel_scrolls_a_panel(const ImGuiIO& io, float wheel_y, float wheel_x) {
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  if (io.KeyCtrl) return false;  // ImGui does not scroll with Ctrl held: that turn is the browser's zoom
  if ((g.ActiveId != 0 && g.ActiveIdUsingMouseWheel) || (g.HoveredId != 0 && g.HoveredIdUsingMouseWheel)) return true;
  if (io.KeyShift && !io.ConfigMacOSXBehaviors) {  // ImGui turns a vertical wheel with Shift into a horizontal one
    wheel_x = wheel_y;
    wheel_y = 0;
  }
  const bool vertical = wheel_y != 0;
  const float turn = vertical ? wheel_y : wheel_x, queued = vertical ? io.MouseWheel : io.MouseWheelH;
  if (turn == 0) return false;
  ImGuiWindow* window = g.WheelingWindow ? g.WheelingWindow : g.HoveredWindow;
  if (!window || window->Collapsed) return false;
  const auto scroll_max = [&](const ImGuiWindow* w) { return vertical ? w->ScrollMax.y : w->ScrollMax.x; };
  const auto passes_on = [](const ImGuiWindow* w) {
    return (w->Flags & ImGuiWindowFlags_NoScrollWithMouse) && !(w->Flags & ImGuiWindowFlags_NoMouseInputs);
  };
  while ((window->Flags & ImGuiWindowFlags_ChildWindow) && (scroll_max(window) == 0.0f || passes_on(window)))
    window = window->ParentWindow;
  if (window->Flags & (ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoMouseInputs)) return false;
  const float size = vertical ? window->InnerRect.GetHeight() : window->InnerRect.GetWidth();
  const float notch = std::floor(std::min(5 * window->CalcFontSize(), size * 0.67f));  // ImGui's step for one notch
  const float scroll = (vertical ? window->Scroll.y : window->Scroll.x) - queued * notch;  // after the queued turns
  // Positive turns scroll towards 0 (up, left); a half pixel absorbs ImGui's rounding of its scroll.
  return turn > 0 ? scroll > 0.5f : scroll < scroll_max(window) - 0.5f;
}

// Emscripten 3.1.6's GLFW hands ImGui the DOM wheel event's raw deltaY: pixels (Chromium sends 100 a notch) with the
// DOM's sign (down is positive). ImGui counts one notch as 1 (it scrolls 5 lines) and up as positive, so a notch down
// scrolled up by 100 notches and a notch up jumped to the end. We read the DOM event ourselves instead: its delta in
// notches, whatever its unit (deltaMode), fractions kept, so a trackpad's stream of small deltas scrolls smoothly.
EM_BOOL wheel_callback(int, const EmscriptenWheelEvent* e, void*) {
  ImGuiIO& io = ImGui::GetIO();
  if (e->mouse.ctrlKey) return EM_FALSE;  // the browser's zoom, as Ctrl + and Ctrl − are (web/js/present.js)
  double per_notch = 100;  // DOM_DELTA_PIXEL: Chromium's and Safari's notch; a trackpad sends a few pixels at a time
  if (e->deltaMode == DOM_DELTA_LINE) per_notch = 3;  // Firefox with a mouse wheel: 3 lines a notch
  // DOM_DELTA_PAGE (a "scroll a page" setting): a page is the canvas' height in pixels.
  if (e->deltaMode == DOM_DELTA_PAGE) per_notch = 100.0 / std::max(1.0f, io.DisplaySize.y);
  // ImGui: positive MouseWheel scrolls up, positive MouseWheelH scrolls left; the DOM's deltas point the other way.
  const float wheel_y = -static_cast<float>(e->deltaY / per_notch), wheel_x = -static_cast<float>(e->deltaX / per_notch);
  // An embed is a guest in someone's lecture notes: a turn of the wheel it cannot use scrolls the notes. Returning
  // EM_FALSE leaves the event's default alone, and the iframe's document cannot scroll (index.html), so the browser
  // scrolls the host page. The full page keeps every turn: its own document neither scrolls nor zooms.
  if (the_app().view.embed && !wheel_scrolls_a_panel(io, wheel_y, wheel_x)) return EM_FALSE;
  io.MouseWheel += wheel_y;
  io.MouseWheelH += wheel_x;
  return EM_TRUE;  // preventDefault: the page itself does not scroll
}

// Reads the plot's pixels back from the frame just drawn, for a PNG download (index.html's files.js encodes them):
// what the user sees, at the screen's resolution. Read right after drawing, before the browser may clear the buffer.
void capture_plot(App& app, const CanvasSize& s) {
  app.plot_capture_requested = false;
  const double sx = s.fb_w / s.w, sy = s.fb_h / s.h;
  const int x0 = std::max(0, int(std::floor(app.plot_min.x * sx))), x1 = std::min(s.fb_w, int(std::ceil(app.plot_max.x * sx)));
  const int y0 = std::max(0, int(std::floor(app.plot_min.y * sy))), y1 = std::min(s.fb_h, int(std::ceil(app.plot_max.y * sy)));
  const int w = std::max(0, x1 - x0), h = std::max(0, y1 - y0);
  std::vector<unsigned char> bottom_up(size_t(w) * size_t(h) * 4);
  if (w > 0 && h > 0) glReadPixels(x0, s.fb_h - y1, w, h, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  app.plot_pixels.resize(bottom_up.size());
  const size_t row = size_t(w) * 4;
  for (int y = 0; y < h; y++)  // GL's rows start at the bottom
    std::copy_n(bottom_up.begin() + long(size_t(h - 1 - y) * row), row, app.plot_pixels.begin() + long(size_t(y) * row));
  app.plot_pixels_width = w;
  app.plot_pixels_height = h;
}

// Twice a second, the status bar's rates take their current values.
void show_rates(App& app, double now_ms) {
  if (now_ms - app.shown_at_ms < 500) return;
  const double seconds = (now_ms - app.shown_at_ms) / 1000;
  app.shown = {app.steps_per_second, ImGui::GetIO().Framerate, (app.drawn_count - app.drawn_count_when_shown) / seconds,
               app.frame_work_ms, app.train_ms};
  app.shown_at_ms = now_ms;
  app.drawn_count_when_shown = app.drawn_count;
}

// The font's rasterisation follows the device pixels per ImGui unit (a screen's DPR, times an embed's scale=, times
// the UI's zoom), so text stays sharp; rebuilt only when that ratio, rounded to 1 … 4, changes (moving to another
// screen, a zoom), or when the language does (Chinese merges its glyphs in).
void follow_pixel_ratio(const CanvasSize& s) {
  static int font_ratio = 1;  // load_page_font(1) ran in main()
  static int font_language = page_language_changes();
  const int ratio = std::clamp(int(std::lround(s.w > 0 ? s.fb_w / s.w : 1)), 1, 4);
  if (ratio == font_ratio && font_language == page_language_changes()) return;
  // In the page's language: a rebuild follows a switch of language too. (main's failures come before any switch.)
  if (!load_page_font(ratio)) fail(tr("the page's font is missing from the module (web/CMakeLists.txt embeds it)"));
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  font_ratio = ratio;
  font_language = page_language_changes();
}

// Whether this frame brings the user's input (after ImGui::NewFrame): the mouse moved, pressed, released or turned
// its wheel, a key went down, a character was typed.
bool input_this_frame(const ImGuiIO& io, const App& app) {
  if (io.MouseDelta.x != 0 || io.MouseDelta.y != 0 || io.MouseWheel != 0 || io.MouseWheelH != 0) return true;
  for (int b = 0; b < IM_ARRAYSIZE(io.MouseDown); b++)
    if (io.MouseClicked[b] || io.MouseReleased[b]) return true;
  return !app.pressed_keys.empty() || io.InputQueueCharacters.Size > 0;
}

// Under prefers-reduced-motion, a frame that differs only by training's progress waits until a second has passed
// since the last one drawn; one within a moment of input is drawn at once (a hover, a click's answer a frame later).
bool motion_waits(const App& app, double now_ms) {
  constexpr double kProgressEveryMs = 1000, kAnswerMs = 300;
  return app.reduced_motion && app.state == RunState::running && now_ms - app.input_at_ms > kAnswerMs &&
         now_ms - app.drawn_at_ms < kProgressEveryMs;
}

void frame() {
  const CanvasSize s = fit_canvas();
  follow_pixel_ratio(s);

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  // The GLFW backend reports its fixed window size and mouse positions in backing-store pixels; restate both in
  // CSS pixels with the framebuffer scale, the way ImGui expects a high-DPI display.
  ImGuiIO& io = ImGui::GetIO();
  if (s.w > 0 && s.h > 0) {
    const float sx = static_cast<float>(s.fb_w / s.w), sy = static_cast<float>(s.fb_h / s.h);
    io.DisplaySize = ImVec2(static_cast<float>(s.w), static_cast<float>(s.h));
    io.DisplayFramebufferScale = ImVec2(sx, sy);
    if (ImGui::IsMousePosValid(&io.MousePos)) io.MousePos = ImVec2(io.MousePos.x / sx, io.MousePos.y / sy);
  }

  App& app = the_app();
  // Train for part of the frame before drawing it. On a desktop the rest of a frame (drawing, compositing) takes a
  // few ms, and a 10 ms slice keeps the page at 60 fps. Where the rest is slow (software rendering, a weak GPU),
  // the page is slow whatever we do; there the slice grows to match the rest (up to 50 ms, so the page still draws
  // a few frames a second), and training keeps a share instead of a sliver: half at a 50-ms rest, a fifth at a
  // 200-ms one.
  const double start_ms = emscripten_get_now();
  const double rest_ms = app.frame_interval_ms - app.train_ms;
  advance(app, std::clamp(rest_ms, 10.0, 50.0), emscripten_get_now);
  const double trained_ms = emscripten_get_now();

  drawn_begin_frame(ui_zoom(app));
  semantics_begin_frame(ui_zoom(app));
  ImGui::NewFrame();
  if (input_this_frame(io, app)) app.input_at_ms = emscripten_get_now();
  release_deferred_keys(glfwGetCurrentContext());
  draw_ui(app);
  ImGui::Render();
  drawn_end_frame();
  semantics_end_frame();

  // A frame equal to the one on the canvas is not drawn again (web/draw/frame_fingerprint.hpp); a plot capture reads the
  // drawing buffer, which the browser clears after showing it, so it always draws.
  const uint64_t fingerprint = frame_fingerprint(*ImGui::GetDrawData(), heatmap_uploads());
  if ((fingerprint != app.drawn_fingerprint && !motion_waits(app, emscripten_get_now())) || app.plot_capture_requested) {
    glViewport(0, 0, s.fb_w, s.fb_h);
    const ImVec4 background = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];  // the page's window draws none (web/app/ui.cpp)
    glClearColor(background.x, background.y, background.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (app.plot_capture_requested && s.w > 0 && s.h > 0) capture_plot(app, s);
    app.drawn_fingerprint = fingerprint;
    app.drawn_count += 1;
    app.drawn_at_ms = emscripten_get_now();
  }
  heatmap_end_frame();
  app.frame_count += 1;
  // Our own work per frame (training slice + UI + GL submission), smoothed: the status bar shows it, so a slow
  // frame rate can be told apart from a slow browser or GPU.
  const double end_ms = emscripten_get_now();
  app.frame_work_ms = app.frame_work_ms == 0 ? end_ms - start_ms : 0.9 * app.frame_work_ms + 0.1 * (end_ms - start_ms);
  app.train_ms = app.train_ms == 0 ? trained_ms - start_ms : 0.9 * app.train_ms + 0.1 * (trained_ms - start_ms);
  const double interval = start_ms - app.last_frame_start_ms;
  if (app.last_frame_start_ms > 0 && interval < 1000)  // not the first frame, nor after the tab was hidden
    app.frame_interval_ms = app.frame_interval_ms == 0 ? interval : 0.9 * app.frame_interval_ms + 0.1 * interval;
  app.last_frame_start_ms = start_ms;
  show_rates(app, end_ms);
}

}  // namespace

int main() {
  if (!glfwInit()) fail("glfwInit failed");
  // WebGL2 == OpenGL ES 3.0.
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  // ImGui draws with neither depth nor stencil, and the page is opaque: no buffers it would not use.
  glfwWindowHint(GLFW_ALPHA_BITS, 0);
  glfwWindowHint(GLFW_DEPTH_BITS, 0);
  glfwWindowHint(GLFW_STENCIL_BITS, 0);
  const CanvasSize s = fit_canvas();
  GLFWwindow* window = glfwCreateWindow(s.fb_w, s.fb_h, "muPlayground", nullptr, nullptr);
  if (!window) fail("could not create a WebGL2 context on #canvas");
  glfwMakeContextCurrent(window);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini: the layout comes from code and the URL (web/app/view.hpp)
  apply_page_style(ImGui::GetStyle());  // the page's colours (web/draw/colour_maps.hpp)
  if (!load_page_font(1)) fail("the page's font is missing from the module (web/CMakeLists.txt embeds it)");
  if (!ImGui_ImplGlfw_InitForOpenGL(window, true) || !ImGui_ImplOpenGL3_Init("#version 300 es"))
    fail("Dear ImGui backend initialisation failed");
  glfwSetKeyCallback(window, key_callback);  // replaces the backend's own, which key_callback chains to
  glfwSetScrollCallback(window, nullptr);  // GLFW's wheel deltas are raw pixels: wheel_callback replaces them
  emscripten_set_wheel_callback("#canvas", nullptr, true, wheel_callback);

  the_app().spec_limits = page_spec_limits();
  // Sweep members on every core, in the threaded build (1 thread in the plain one). At most 8: the pool of web
  // workers emscripten starts before main() is as large (web/CMakeLists.txt, PTHREAD_POOL_SIZE), and a thread
  // beyond it could not start while this thread never yields.
  the_app().pool = std::make_unique<WorkerPool>(std::min(WorkerPool::available_threads(), 8));
  app_init(the_app(), "/examples");  // presets embedded from examples/ at build time

  // fps 0: run on requestAnimationFrame. simulate_infinite_loop: main never returns, so the runtime and our
  // state stay alive without -sEXIT_RUNTIME games.
  emscripten_set_main_loop(frame, 0, true);
  return 0;
}
