#include "web/app/app.hpp"

#include <algorithm>

#include "engine/gpu/gpu_device.hpp"
#include "engine/run/runner_progress.hpp"
#include "engine/spec/link.hpp"
#include "engine/spec/result_files.hpp"
#include "engine/spec/spec_migrations.hpp"
#include "engine/task/fashion_mnist.hpp"
#include "engine/task/table_task.hpp"
#include "web/draw/i18n.hpp"
#include "web/views/overlay.hpp"

const char* run_state_name(RunState s) {
  switch (s) {
    // Also the page's API's names for the states (muplay_state): the status bar translates them where it draws.
    case RunState::idle: return translatable("idle");
    case RunState::running: return translatable("running");
    case RunState::paused: return translatable("paused");
    case RunState::finished: return translatable("finished");
  }
  return "?";
}

App& the_app() {
  static App app;
  return app;
}

void app_init(App& app, const std::string& presets_dir) {
  app.presets = list_presets(presets_dir, app.spec_limits);
  load_default(app);
}

void load_default(App& app) {
  for (int i = 0; i < int(app.presets.size()); i++)
    if (app.presets[size_t(i)].errors.empty() && load_preset(app, i)) return;
  load_spec_text(app, json::write(spec_to_json(ExperimentSpec{}), 2));  // no presets: the defaults
}

std::string view_to_write(const App& app, const std::string& named) {
  // Until the next frame opens a just-loaded spec's view, that spec's own is the one to keep; the default view ("")
  // keeps a spec's way of naming it ("" or "step"), so that a spec round-trips unchanged.
  if (app.view_pending || (app.shown_view.empty() && (named.empty() || named == "step"))) return named;
  return app.shown_view;
}

json::Value spec_doc_with_view(const App& app) {
  json::Value doc = app.spec_doc;
  if (!doc.is_object()) return doc;
  const json::Value* named = doc.find("view");
  const std::string view = view_to_write(app, named && named->is_string() ? named->string : "");
  if (named || !view.empty()) doc.set("view", json::Value::make_string(view));
  return doc;
}

int find_preset(const App& app, const std::string& stem) {
  for (int i = 0; i < int(app.presets.size()); i++) {
    const std::string& path = app.presets[size_t(i)].path;
    const size_t slash = path.find_last_of('/');
    if (path.substr(slash == std::string::npos ? 0 : slash + 1) == stem + ".json") return i;
  }
  return -1;
}

int preset_named(const App& app, const std::string& name) {
  for (int i = 0; i < int(app.presets.size()); i++)
    if (app.presets[size_t(i)].errors.empty() && app.presets[size_t(i)].name == name) return i;
  return -1;
}

bool load_preset(App& app, int index) {
  if (index < 0 || index >= int(app.presets.size())) return false;
  const bool loaded = load_spec_text(app, app.presets[size_t(index)].text).empty();
  app.preset_index = index;  // this one, should two presets share a name
  return loaded;
}

void spec_doc_changed(App& app) {
  app.spec_errors = parse_spec(app.spec_doc, app.spec_limits).errors;
  app.spec_text = json::write(app.spec_doc, 2);
  app.spec_edited = true;
  app.spec_revision += 1;
  if (app.spec_errors.empty() && !app.message.empty() && app.message == app.spec_problem) app.message.clear();
}

std::vector<std::string> load_spec_text(App& app, const std::string& text) {
  json::ParseResult parsed = json::parse(text);
  if (!parsed.ok()) {
    app.message = "not valid JSON: " + parsed.error + " (the editor keeps the previous spec)";
    return {app.message};
  }
  MigrationResult migrated = migrate_spec(std::move(parsed.value));
  if (!migrated.errors.empty()) {
    app.message = migrated.errors[0] + " (the editor keeps the previous spec)";
    return migrated.errors;
  }
  app.spec_doc = std::move(migrated.doc);
  spec_doc_changed(app);
  if (!app.spec_errors.empty()) {
    app.message = app.spec_problem =
        std::to_string(app.spec_errors.size()) + " problem(s) in the spec: " + app.spec_errors[0];
    return app.spec_errors;
  }
  // A valid spec: show it in canonical form (every field, so every field is editable) and get it ready to run.
  const ExperimentSpec spec = parse_spec(app.spec_doc, app.spec_limits).spec;
  app.spec_doc = spec_to_json(spec);
  app.preset_index = preset_named(app, spec.name);  // the list marks the preset it came from, if any, in view
  app.scroll_to_preset = app.preset_index >= 0;
  app.spec_text = json::write(app.spec_doc, 2);
  app.message.clear();
  reset(app);
  app.view_pending = true;
  return {};
}

namespace {

constexpr size_t kMaxImports = 8;  // each up to 4 MB of text (web/js/files.js): the page's memory stays bounded

bool has_run(const App& app) { return app.runner && app.runner->total_steps() > 0; }

bool has_series(const ImportedSet& set) {
  for (const ImportedRun& run : set.runs)
    if (!run.series.empty()) return true;
  return false;
}

// Why the set cannot be drawn over the page's experiment: the runner's, else the editor's spec when valid.
std::string mismatch_with_page(const App& app, const ImportedSet& set) {
  if (app.runner) return overlay_mismatch(set, app.runner->spec());
  const SpecResult editor = parse_spec(app.spec_doc, app.spec_limits);
  return editor.ok() ? overlay_mismatch(set, editor.spec) : "";
}

// Keeps the set, replacing one of the same name (a file imported again after it changed).
void keep_import(App& app, ImportedSet set) {
  const auto same = std::find_if(app.imports.begin(), app.imports.end(), [&](const ImportedSet& s) { return s.name == set.name; });
  if (same != app.imports.end()) *same = std::move(set);
  else app.imports.push_back(std::move(set));
  app.imports_revision += 1;
}

}  // namespace

ImportOutcome import_file(App& app, const std::string& text, const std::string& file_name) {
  ImportOutcome out;
  json::ParseResult parsed = json::parse(text);
  if (!parsed.ok() || !is_result_document(parsed.value)) {
    out.errors = load_spec_text(app, text);  // a spec (or not JSON at all: the reason)
    out.opened_spec = out.errors.empty();
    return out;
  }
  ImportedSet set = read_imported_set(parsed.value, file_name, out.errors);
  if (!out.errors.empty()) {
    app.message = "not a readable result document: " + out.errors[0] + " (nothing was changed)";
    return out;
  }
  // The page's own engine made it and nothing has run yet: open the experiment that made it, as a saved run opens.
  if (set.engine == "muplay" && !has_run(app) && parse_spec(set.spec, app.spec_limits).ok()) {
    out.errors = load_spec_text(app, json::write(set.spec));
    out.opened_spec = out.errors.empty();
    if (!out.opened_spec) return out;
  }
  if (!has_series(set)) return out;  // nothing recorded: nothing to draw
  out.refused = mismatch_with_page(app, set);
  const bool replaces = std::any_of(app.imports.begin(), app.imports.end(), [&](const ImportedSet& s) { return s.name == set.name; });
  if (out.refused.empty() && !replaces && app.imports.size() >= kMaxImports)
    out.refused = "the page keeps at most " + std::to_string(kMaxImports) + " imported sets: remove one first";
  if (!out.refused.empty()) return out;
  out.overlay = set.name;
  keep_import(app, std::move(set));
  return out;
}

bool remove_import(App& app, int index) {
  if (index < 0 || index >= int(app.imports.size())) return false;
  app.imports.erase(app.imports.begin() + index);
  app.imports_revision += 1;
  return true;
}

std::vector<const ImportedSet*> drawn_imports(const App& app) {
  return app.runner ? drawn_sets(app.imports, app.runner->spec()) : std::vector<const ImportedSet*>{};
}

std::vector<std::string> open_link(App& app, const std::string& fragment) {
  const LinkResult r = spec_from_link(fragment, app.spec_limits);
  if (r.ok()) {
    std::vector<std::string> errors = load_spec_text(app, json::write(spec_to_json(r.spec)));
    if (r.result_version != kResultVersion)
      app.message = "This link was made by a build of " +
                    std::string(r.result_version > kResultVersion ? "a newer" : "an older") + " engine (result version " +
                    std::to_string(r.result_version) + "; this page's is " + std::to_string(kResultVersion) +
                    "): it opens, but its numbers may differ from those the link was made with.";
    return errors;
  }
  if (table_file_missing(r.errors)) {  // a link to a data set the page does not hold: kept, and the file asked for
    load_spec_text(app, json::write(spec_to_json(r.spec)));
    app.message = "This experiment trains on " + r.spec.task.table.file + ", a data file its link does not carry: "
                  "choose it to run.";
    return r.errors;
  }
  load_default(app);
  // The decoder's own messages start "link: ..." (spec field errors start with the field's path).
  const std::string& why = r.errors[0];
  app.message = "This link could not be opened: " + (why.rfind("link: ", 0) == 0 ? "the link " + why.substr(6) : why) +
                (r.errors.size() > 1 ? " (and " + std::to_string(r.errors.size() - 1) + " more problems)" : "") +
                ". Showing the default experiment instead.";
  return r.errors;
}

std::string share_link(const App& app) {
  SpecResult r = parse_spec(app.spec_doc, app.spec_limits);
  if (!r.ok()) return "";
  // Pinned, so that the link trains on this backend wherever it opens (auto could choose otherwise there).
  r.spec.backend = resolved_backend(r.spec.backend, app.gpu.get());
  r.spec.view = view_to_write(app, r.spec.view);  // the reader opens on what its author sees
  return spec_to_link(r.spec);
}

namespace {

// What Run, Step or Reset says when the spec has problems: the first field at fault (errors start with its path)
// and what to do about it.
std::string cannot_start_message(const std::vector<std::string>& errors) {
  const std::string& first = errors.front();
  const size_t colon = first.find(": ");
  const bool has_field = colon != std::string::npos && first.find(' ') > colon;
  std::string m = "Nothing was started: " + first + ". ";
  m += has_field ? "Change " + first.substr(0, colon) : "Fix this";
  m += " in the spec editor (shown in red), then Run again";
  if (errors.size() > 1) m += " (" + std::to_string(errors.size() - 1) + " more problem(s) listed there)";
  return m + ".";
}

}  // namespace

bool reset(App& app) {
  SpecResult r = parse_spec(app.spec_doc, app.spec_limits);
  if (!r.ok()) {
    app.message = app.spec_problem = cannot_start_message(r.errors);
    // The runs of the last valid spec stay on screen; they stop, so nothing reads as running the edited experiment.
    if (app.state == RunState::running) app.state = RunState::paused;
    return false;
  }
  app.data_wanted = r.spec.task.kind == TaskKind::fashion_mnist &&
                    !probe_fashion_mnist(app.spec_limits.fashion_mnist_dir).error.empty();
  app.runner.reset();
  app.embedding_view = EmbeddingView{};
  app.phenomena_view.pictures.clear();
  app.phenomena_view.slopes_at = -1;
  app.anchor_view.picked = false;  // a new sweep opens on its telling run again (web/views/anchor_view.hpp)
  app.width_view.picture = WidthPicture{};  // keeps the reader's quantity and record
  app.width_view.curves_at = -1;
  app.limits.clear();
  app.no_limit_why.clear();
  if (!app.data_wanted) {
    app.runner = std::make_unique<Runner>(r.spec, app.spec_limits.fashion_mnist_dir, app.gpu.get(), app.gpu_why_none);
    app.limits = limit_curves(app.runner->spec(), app.runner->data(), &app.no_limit_why);
  }
  app.remote.active = app.runner && app.remote.workers > 0 && app.runner->members_on_gpu() == 0 &&
                      !(app.pool && app.pool->threads() > 1);
  const bool reads_data = r.spec.task.kind == TaskKind::fashion_mnist || r.spec.task.kind == TaskKind::table;
  if (app.remote.active) remote_start(app.remote, *app.runner, reads_data);
  app.run_when_data_arrives = false;
  app.state = RunState::idle;
  app.spec_edited = false;
  app.steps_per_second = 0;
  app.steps_at_last_advance = 0;
  app.slice_members = app.pool ? app.pool->threads() : 1;
  app.slice_steps = 1;
  app.message.clear();
  return !app.data_wanted;
}

void run(App& app) {
  if (!app.runner || app.spec_edited || app.state == RunState::finished)
    if (!reset(app)) {
      app.run_when_data_arrives = app.data_wanted;
      return;
    }
  app.state = RunState::running;
  if (app.remote.active) remote_send(app.remote, "run");
}

void data_arrived(App& app, const std::string& error) {
  if (!app.data_wanted) return;
  const bool run_now = app.run_when_data_arrives;
  if (!error.empty()) {
    app.data_wanted = app.run_when_data_arrives = false;
    app.message = error + " (the spec is kept: Run or Reset tries again)";
    return;
  }
  if (reset(app) && run_now) run(app);
}

void pause(App& app) {
  if (app.state != RunState::running) return;
  app.state = RunState::paused;
  if (app.remote.active) remote_send(app.remote, "pause");
}

void step_once(App& app) {
  if (!app.runner || app.spec_edited)
    if (!reset(app)) return;
  if (app.remote.active) {  // the step arrives as the worker's next message
    if (app.state == RunState::finished) return;
    app.state = RunState::paused;
    return remote_step(app.remote, *app.runner);
  }
  app.state = app.runner->step() && !app.runner->done() ? RunState::paused : RunState::finished;
}

namespace {

// Rebuilds a run that has not started yet when the news about WebGPU changes where it trains (keeping the message
// on show: a bad link's, say).
void rebuild_unstarted(App& app, bool changes_choice) {
  if (!changes_choice || app.state != RunState::idle || app.spec_edited || !app.runner || app.runner->total_steps() > 0)
    return;
  const std::string message = app.message;
  reset(app);
  app.message = message;
}

}  // namespace

void gpu_ready(App& app, std::unique_ptr<GpuDevice> device) {
  app.gpu = std::move(device);
  app.gpu_why_none.clear();
  rebuild_unstarted(app, app.runner && app.runner->spec().backend != Backend::cpu);
}

void gpu_unavailable(App& app, const std::string& why) {
  app.gpu.reset();
  app.gpu_why_none = why;
  rebuild_unstarted(app, app.runner && app.runner->spec().backend == Backend::webgpu);  // its note says why not
}

void trainer_ready(App& app, int workers) {
  app.remote.workers = workers;
  rebuild_unstarted(app, app.runner != nullptr);
}

void trainer_progress(App& app, int generation) {
  remote_take_message(app.remote);
  if (!app.remote.active || generation != app.remote.generation || !app.runner) return;
  const std::string why = apply_progress(*app.runner, app.remote.inbox.data(), app.remote.inbox.size());
  if (!why.empty()) return trainer_failed(app, generation, why);
  if (app.runner->done() && app.state != RunState::idle) app.state = RunState::finished;
}

void trainer_failed(App& app, int generation, const std::string& why) {
  if (generation >= 0 && generation != app.remote.generation) return;
  app.remote.workers = 0;
  if (!app.remote.active) return;
  app.remote.active = false;
  if (app.state == RunState::running) app.state = RunState::paused;
  app.message = "Training in the background stopped (" + why + "). Reset and Run train on the page itself.";
}

namespace {

// Keeps one parallel batch (members × steps each) near a quarter of the frame's training budget: long enough that
// waking the threads costs little, short enough to stop close to the budget. It grows to every member first (all
// curves advance together), then in steps; it shrinks in steps first, then to one member per thread.
void adapt_slice(App& app, double took_ms, double budget_ms) {
  const int all = int(app.runner->members().size());
  if (took_ms < budget_ms / 8) {
    if (app.slice_members < all) app.slice_members = std::min(2 * app.slice_members, all);
    else app.slice_steps = std::min(2 * app.slice_steps, 1024);
  } else if (took_ms > budget_ms / 2) {
    if (app.slice_steps > 1) app.slice_steps /= 2;
    else app.slice_members = std::max(app.pool->threads(), app.slice_members / 2);
  }
}

// Steps the app's own runner for about `budget_ms`.
void train_here(App& app, double budget_ms, double (*now_ms)()) {
  const double start = now_ms();
  while (now_ms() - start < budget_ms) {
    const double call_start = now_ms();
    const bool parallel = app.pool && app.pool->threads() > 1 && app.runner->members_on_gpu() == 0;
    if (!(parallel ? app.runner->step_parallel(*app.pool, app.slice_steps, app.slice_members) : app.runner->step())) {
      app.state = RunState::finished;
      break;
    }
    if (app.runner->waiting()) break;  // the device's reads arrive between frames, not during this loop
    if (parallel) adapt_slice(app, now_ms() - call_start, budget_ms);
  }
}

}  // namespace

void advance(App& app, double budget_ms, double (*now_ms)()) {
  const double start = now_ms();
  const double since_last_s = (start - app.last_advance_ms) / 1000;
  app.last_advance_ms = start;
  const long steps_before = app.steps_at_last_advance;
  app.steps_at_last_advance = app.runner ? app.runner->total_steps() : 0;
  if (app.state != RunState::running || !app.runner) return;
  if (!app.remote.active) train_here(app, budget_ms, now_ms);
  app.steps_at_last_advance = app.runner->total_steps();
  if (since_last_s <= 0 || since_last_s > 1) return;  // first frame, or the tab was in the background
  // Steps per second of wall time (the worker's steps arrive between frames), smoothed over about ten frames so the
  // status bar is readable.
  const double rate = double(app.runner->total_steps() - steps_before) / since_last_s;
  app.steps_per_second = app.steps_per_second == 0 ? rate : 0.9 * app.steps_per_second + 0.1 * rate;
}
