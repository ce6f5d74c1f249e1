#include "web/app.hpp"

#include <algorithm>

const char* run_state_name(RunState s) {
  switch (s) {
    case RunState::idle: return "idle";
    case RunState::running: return "running";
    case RunState::paused: return "paused";
    case RunState::finished: return "finished";
  }
  return "?";
}

App& the_app() {
  static App app;
  return app;
}

void app_init(App& app, const std::string& presets_dir) {
  app.presets = list_presets(presets_dir);
  for (int i = 0; i < int(app.presets.size()); i++)
    if (app.presets[size_t(i)].errors.empty() && load_preset(app, i)) return;
  load_spec_text(app, json::write(spec_to_json(ExperimentSpec{}), 2));  // no presets: the defaults
}

bool load_preset(App& app, int index) {
  if (index < 0 || index >= int(app.presets.size())) return false;
  app.preset_index = index;
  return load_spec_text(app, app.presets[size_t(index)].text).empty();
}

void spec_doc_changed(App& app) {
  app.spec_errors = parse_spec(app.spec_doc).errors;
  app.spec_text = json::write(app.spec_doc, 2);
  app.spec_edited = true;
}

std::vector<std::string> load_spec_text(App& app, const std::string& text) {
  json::ParseResult parsed = json::parse(text);
  if (!parsed.ok()) {
    app.message = "not valid JSON: " + parsed.error + " (the editor keeps the previous spec)";
    return {app.message};
  }
  app.spec_doc = parsed.value;
  spec_doc_changed(app);
  if (!app.spec_errors.empty()) {
    app.message = std::to_string(app.spec_errors.size()) + " problem(s) in the spec: " + app.spec_errors[0];
    return app.spec_errors;
  }
  // A valid spec: show it in canonical form (every field, so every field is editable) and get it ready to run.
  app.spec_doc = spec_to_json(parse_spec(app.spec_doc).spec);
  app.spec_text = json::write(app.spec_doc, 2);
  app.message.clear();
  reset(app);
  return {};
}

bool reset(App& app) {
  SpecResult r = parse_spec(app.spec_doc);
  if (!r.ok()) {
    app.message = "cannot reset: the spec has " + std::to_string(r.errors.size()) + " problem(s), first: " + r.errors[0];
    return false;
  }
  app.runner = std::make_unique<Runner>(r.spec);
  app.state = RunState::idle;
  app.spec_edited = false;
  app.steps_per_second = 0;
  app.message.clear();
  return true;
}

void run(App& app) {
  if (!app.runner || app.spec_edited || app.state == RunState::finished)
    if (!reset(app)) return;
  app.state = RunState::running;
}

void pause(App& app) {
  if (app.state == RunState::running) app.state = RunState::paused;
}

void step_once(App& app) {
  if (!app.runner || app.spec_edited)
    if (!reset(app)) return;
  app.state = app.runner->step() && !app.runner->done() ? RunState::paused : RunState::finished;
}

void advance(App& app, double budget_ms, double (*now_ms)()) {
  const double start = now_ms();
  const double since_last_s = (start - app.last_advance_ms) / 1000;
  app.last_advance_ms = start;
  if (app.state != RunState::running || !app.runner) return;
  const long steps_before = app.runner->total_steps();
  while (now_ms() - start < budget_ms)
    if (!app.runner->step()) {
      app.state = RunState::finished;
      break;
    }
  if (since_last_s <= 0 || since_last_s > 1) return;  // first frame, or the tab was in the background
  // Steps per second of wall time, smoothed over about ten frames so the status bar is readable.
  const double rate = double(app.runner->total_steps() - steps_before) / since_last_s;
  app.steps_per_second = app.steps_per_second == 0 ? rate : 0.9 * app.steps_per_second + 0.1 * rate;
}
