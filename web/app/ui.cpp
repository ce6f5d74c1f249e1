// The page's panels, drawn each frame as plain functions of the App (Dear ImGui's immediate mode):
// presets and spec editor on the left, run controls, the live plot and the runs table on the right,
// a status bar at the bottom. Keyboard: Space run/pause, S single step, R reset (when no field is active).
// An embed (app.view) shows only the panels its author chose, compactly.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "engine/spec/spec.hpp"
#include "imgui.h"
#include "imgui_stdlib.h"
#include "web/app/app.hpp"
#include "web/app/backend_panel.hpp"
#include "web/app/table_import.hpp"
#include "web/app/view_text.hpp"
#include "web/draw/drawn.hpp"
#include "web/draw/figure_text.hpp"
#include "web/draw/i18n.hpp"
#include "web/draw/colour_maps.hpp"
#include "web/draw/plot.hpp"
#include "web/draw/plot_legend.hpp"
#include "web/draw/semantics.hpp"
#include "web/draw/same_line.hpp"
#include "web/draw/splitter.hpp"
#include "web/draw/wrapped_text.hpp"
#include "web/views/depth_view.hpp"
#include "web/views/lr_view.hpp"
#include "web/views/max_lr_view.hpp"
#include "web/views/phenomena_view.hpp"
#include "web/views/spec_editor.hpp"
#include "web/views/step_text.hpp"
#include "web/views/step_view.hpp"
#include "web/views/width_view.hpp"

namespace {

const ImVec4 kErrorColor = ImGui::ColorConvertU32ToFloat4(page_colour::error);
const ImVec4 kEditedColor = ImGui::ColorConvertU32ToFloat4(page_colour::notice);

void wrapped_tooltip(const std::string& text) {
  ImGui::BeginTooltip();
  wrapped_text(text, ImGui::GetFontSize() * 32);
  ImGui::EndTooltip();
}

// A preset's name or description in the page's language (the catalogue has them); a text the user wrote stays as is.
std::string preset_text(const App& app, const std::string& text) {
  for (const PresetFile& p : app.presets)
    if (text == p.name || text == p.description) return tr(text);
  return text;
}

void presets_panel(App& app) {
  ImGui::TextDisabled("%s", tr("EXPERIMENTS"));
  for (int i = 0; i < int(app.presets.size()); i++) {
    const PresetFile& p = app.presets[size_t(i)];
    // The presets' names are in the catalogue; the English after "###" keeps the item's id in both languages.
    const std::string id = (p.name.empty() ? p.path : p.name) + (p.errors.empty() ? "" : "  [invalid]");
    const std::string label = (p.name.empty() ? p.path : tr(p.name)) + (p.errors.empty() ? "" : tr("  [invalid]")) +
                              "###" + id;
    SemanticHint option{"option", "", "presets", tr("Experiments")};
    option.description = tr(p.description);
    option.selected = i == app.preset_index;
    semantics_next(label.c_str(), std::move(option));
    if (ImGui::Selectable(label.c_str(), i == app.preset_index)) {
      load_preset(app, i);
      app.scroll_to_preset = false;  // picked here: it is in view, and the list stays under the pointer
    }
    if (ImGui::IsItemHovered() && !p.description.empty()) wrapped_tooltip(tr(p.description));
    if (i != app.preset_index) continue;
    drawn_item_checked();
    if (app.scroll_to_preset) ImGui::SetScrollHereY(0.5f);
    app.scroll_to_preset = false;
  }
}

// The experiment's description, in a box at most four lines tall (it scrolls), so the fields below stay in sight.
void description_box(const App& app) {
  const json::Value* d = app.spec_doc.find("description");
  if (!d || !d->is_string() || d->string.empty()) return;
  const float wrap = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize;
  const std::string description = preset_text(app, d->string);
  const float text = ImGui::CalcTextSize(with_line_breaks(description, wrap).c_str(), nullptr, false, wrap).y;
  ImGui::BeginChild("description", ImVec2(0, std::min(text, 4 * ImGui::GetTextLineHeightWithSpacing())));
  wrapped_text(description);
  ImGui::EndChild();
}

// The lines under the spec editor's tabs: the problems of the spec, or that it was edited. Their room is reserved
// whether or not there is anything to say, so a problem appearing never moves the field being edited.
float spec_notice_height() { return 3 * ImGui::GetTextLineHeightWithSpacing(); }

void spec_notice(const App& app) {
  ImGui::BeginChild("spec notice", ImVec2(0, spec_notice_height()));
  if (!app.spec_errors.empty()) {
    wrapped_text_disabled(trf("%zu problem(s), marked in red in Fields; Run starts once they are fixed:",
                              app.spec_errors.size()));
    // The notes stay in English, as the tests read them.
    for (const std::string& e : app.spec_errors) drawn_wrapped_text(kErrorColor, tr_message(e), "spec error: " + e);
  } else if (app.spec_edited) {
    drawn_wrapped_text(kEditedColor, tr("Edited: Run or Reset (R) starts the edited experiment."), "spec edited");
  } else {
    wrapped_text_disabled(tr("Edit a field (Enter applies it); Run or Reset then starts the edited experiment."));
  }
  ImGui::EndChild();
}

void spec_panel(App& app) {
  ImGui::TextDisabled("%s", tr("SPEC"));
  description_box(app);
  const float below = spec_notice_height() + ImGui::GetStyle().ItemSpacing.y;
  if (ImGui::BeginTabBar("spec tabs")) {
    if (ImGui::BeginTabItem(tr_label("Fields"))) {
      // The fields scroll in their own box, above the notice.
      ImGui::BeginChild("fields", ImVec2(0, ImGui::GetContentRegionAvail().y - below));
      if (spec_editor(app.spec_doc, app.spec_errors)) spec_doc_changed(app);
      ImGui::EndChild();
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("JSON")) {
      const float button_row = ImGui::GetFrameHeightWithSpacing();
      const float text_height = ImGui::GetContentRegionAvail().y - below - button_row;
      if (const std::optional<std::string> given = semantics_take_value(ImGui::GetID("##json"))) app.spec_text = *given;
      SemanticHint json_text{"textarea", "JSON"};
      json_text.value = app.spec_text;
      semantics_next("##json", std::move(json_text));
      ImGui::InputTextMultiline("##json", &app.spec_text, ImVec2(-1, text_height));
      if (ImGui::Button(tr_label("Apply JSON"))) load_spec_text(app, app.spec_text);
      ImGui::SameLine();
      ImGui::TextDisabled("%s", tr("paste a spec, then Apply"));
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  spec_notice(app);
}

// The run controls. An embed's toolbar (index.html) has its Run button: one is enough for a reader.
void controls(App& app) {
  const bool running = app.state == RunState::running;
  if (!app.view.embed) {
    // One id in both states, so the button keeps its place in the semantics layer (and the keyboard's focus on it).
    const char* label = running ? tr_label("Pause (Space)###Run (Space)") : tr_label("Run (Space)");
    if (ImGui::Button(label, ImVec2(8 * ImGui::GetFontSize(), 0)))
      running ? pause(app) : run(app);
    ImGui::SameLine();
  }
  if (ImGui::Button(tr_label("Step (S)"))) step_once(app);
  ImGui::SameLine();
  if (ImGui::Button(tr_label("Reset (R)"))) reset(app);
  if (app.runner) {
    same_line_if_room(9 * ImGui::GetFontSize());  // room for "1234 / 5678 steps"
    // progress_steps: a run that diverged early counts as complete, so a finished sweep shows 100%.
    const float done = app.runner->planned_steps() ? float(app.runner->progress_steps()) / float(app.runner->planned_steps()) : 0;
    const std::string overlay = trf("%ld / %ld steps", app.runner->progress_steps(), app.runner->planned_steps());
    ImGui::ProgressBar(done, ImVec2(-1, 0), overlay.c_str());
  } else if (app.data_wanted) {
    ImGui::SameLine();
    ImGui::TextUnformatted(app.run_when_data_arrives ? tr("loading data... (runs once it has arrived)")
                                                     : tr("loading data..."));
  }
  if (app.view.backend && !app.presenting) backend_controls(app);  // not for the back of the room
}

// Space run/pause, S step, R reset, and on the full page P present (Esc stops): whichever panels are shown (the
// page's help lists them), unless a text field has the keyboard. GLFW's codes for letters are their ASCII capitals.
void shortcuts(App& app) {
  if (!ImGui::GetIO().WantTextInput)
    for (int key : app.pressed_keys) {
      if (key == ' ') app.state == RunState::running ? pause(app) : run(app);
      if (key == 'S') step_once(app);
      if (key == 'R') reset(app);
      if (app.view.embed) continue;  // an embed gives P and Esc back to its host (a slide deck's "previous")
      const bool command = ImGui::GetIO().KeyCtrl || ImGui::GetIO().KeySuper;  // Ctrl+P prints
      if (key == 'P' && !command) app.presenting = !app.presenting;
      if (key == ImGui::GetKeyIndex(ImGuiKey_Escape)) app.presenting = false;
    }
  app.pressed_keys.clear();
}

// The width-∞ curve (engine/analysis/limit_curve.hpp) in white beside the finite widths' train loss, with a toggle;
// where the experiment has none, one line says why, so a student knows what to change to see it.
void limit_toggle(App& app, std::vector<PlotCurve>& curves) {
  if (app.limits.empty()) {
    if (app.no_limit_why.empty()) return;  // no runs yet
    const std::string why = trf("(no n=inf curve: %s)", tr_message(app.no_limit_why).c_str());
    if (app.view.embed || app.presenting) {  // an embed's plot is small, a slide's is the point: the reason waits
                                             // under the mouse
      ImGui::SameLine();
      ImGui::TextDisabled("%s", tr("(no n=inf curve)"));
      if (ImGui::IsItemHovered()) wrapped_tooltip(why);
      return;
    }
    // On a line of its own, wrapped: never cut at the panel's edge.
    drawn_wrapped_text(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), why,
                       "hint: (no n=inf curve: " + app.no_limit_why + ")");
    return;
  }
  same_line_if_room(labelled_width(ImGui::GetFrameHeight(), tr_label("n=inf curve")));
  ImGui::Checkbox(tr_label("n=inf curve"), &app.show_limit);
  if (!app.show_limit) return;
  for (const LimitCurve& c : app.limits)
    curves.push_back(with_key(solid_curve(tr_message(c.label), std::vector<double>(c.steps.begin(), c.steps.end()),
                                          c.train_loss, page_colour::limit_curve), c.label));
}

void plot_panel(App& app) {
  const std::vector<std::string> names = metric_names(app.runner.get());
  if (!app.asked_metric.empty()) {
    const auto asked = std::find(names.begin(), names.end(), app.asked_metric);
    if (asked != names.end()) {
      app.plot_metric = int(asked - names.begin());
      app.asked_metric.clear();
    }
  }
  app.plot_metric = std::clamp(app.plot_metric, 0, std::max(0, int(names.size()) - 1));
  const std::string metric = names.empty() ? "train_loss" : names[size_t(app.plot_metric)];
  ImGui::SetNextItemWidth(220);
  if (const std::optional<std::string> given = semantics_take_value(ImGui::GetID(tr_label("metric")))) {
    const auto picked = std::find(names.begin(), names.end(), *given);  // picked in the page's <select>
    if (picked != names.end()) app.plot_metric = int(picked - names.begin());
  }
  SemanticHint combo{"combo"};
  combo.value = names.empty() ? "train_loss" : names[size_t(app.plot_metric)];
  combo.choices = names;
  semantics_next(tr_label("metric"), std::move(combo));
  drawn_name_next(tr_label("metric"));
  if (ImGui::BeginCombo(tr_label("metric"), metric.c_str())) {
    for (int i = 0; i < int(names.size()); i++)
      if (ImGui::Selectable(names[size_t(i)].c_str(), i == app.plot_metric)) app.plot_metric = i;
    ImGui::EndCombo();
  }
  if (metric != app.log_y_metric) {  // a new metric starts on its own axis: log for a loss, linear for an accuracy
    app.log_y = !linear_by_default(metric);
    app.log_y_metric = metric;
  }
  same_line_if_room(labelled_width(ImGui::GetFrameHeight(), tr_label("log x")));
  ImGui::Checkbox(tr_label("log x"), &app.log_x);
  same_line_if_room(labelled_width(ImGui::GetFrameHeight(), tr_label("log y")));
  ImGui::Checkbox(tr_label("log y"), &app.log_y);
  std::vector<PlotCurve> curves = step_curves(app.runner.get(), drawn_imports(app), metric);
  if (metric == "train_loss") limit_toggle(app, curves);
  PlotAxes axes;
  axes.title = trf("%s vs step, one curve per sweep member", metric.c_str());
  axes.x_label = tr("step");
  axes.y_label = metric;
  axes.log_x = app.log_x;
  axes.log_y = app.log_y;
  const float table_height =
      app.view.runs ? std::min(200.0f, 40.0f + 22.0f * float(app.runner ? app.runner->members().size() : 0)) : 0;
  const float min_height = app.view.embed ? 120.0f : 200.0f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 size = line_plot("##plot", axes, curves,
                                ImVec2(0, std::max(min_height, ImGui::GetContentRegionAvail().y - table_height)));
  figure_text_publish([&] { return step_text(axes, curves); });
  app.plot_min = origin;  // for the PNG export (main.cpp reads these pixels back)
  app.plot_max = ImVec2(origin.x + size.x, origin.y + size.y);
}

// A member still training reads "running" only while the page trains: paused, or left behind by a Run that could
// not start an invalid spec, it reads as stopped.
const char* member_status(const App& app, const Member& run) {
  if (run.status() != RunStatus::running || app.state == RunState::running) return run_status_name(run.status());
  return run.steps_done() == 0 ? translatable("not started") : translatable("paused");
}

// A row of the runs table as one line of text, in the page's language, for the semantics layer.
std::string run_line(const App& app, const Member& run) {
  std::string status = tr(member_status(app, run));
  if (run.status() == RunStatus::diverged) status = trf("diverged at step %d", run.diverged_at());
  if (run.status() == RunStatus::failed) status = trf("failed: %s", tr_message(run.error()).c_str());
  std::string line = run.label() + ": " + status + ", " + trf("%d steps", run.steps_done());
  // The table's last two columns, under their headings.
  for (const auto& [series, heading] : {std::pair{"train_loss", "train loss"}, std::pair{"test_loss", "test"}}) {
    const Series* s = run.find_series(series);
    if (!s || s->values.empty()) continue;
    char value[32];
    std::snprintf(value, sizeof value, "%.4g", s->values.back());
    line += std::string(", ") + tr(heading) + " " + value;
  }
  return line;
}

// Its rows are told apart by lines, not by stripes: it is redrawn as training goes, and drawn in software (no GPU)
// every pixel of a translucent stripe costs a texture fetch and a blend, where a line covers few pixels.
void runs_table(const App& app) {
  if (!app.runner) return;
  const ImGuiTableFlags flags =
      ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("runs", 5, flags, ImVec2(0, ImGui::GetContentRegionAvail().y)))
    return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* h : {tr("run"), tr("status"), tr("steps"), tr("train loss"), tr("test")}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  const auto& runs = app.runner->members();
  const std::vector<PlotCurve> styles = member_styles(*app.runner);  // as the vs step plot draws them
  for (size_t i = 0; i < runs.size(); i++) {
    const Member& run = *runs[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const ImVec2 row_min(ImGui::GetWindowPos().x, ImGui::GetCursorScreenPos().y);
    // The curve's swatch, then its name in the text's colour: readable whatever the curve's colour.
    curve_swatch(styles[i]);
    ImGui::SameLine(0, 2);
    ImGui::TextUnformatted(run.label().c_str());
    ImGui::TableNextColumn();
    if (run.status() == RunStatus::diverged)
      ImGui::TextColored(kErrorColor, tr("diverged at step %d"), run.diverged_at());
    else if (run.status() == RunStatus::failed)
      ImGui::TextColored(kErrorColor, tr("failed: %s"), tr_message(run.error()).c_str());
    else
      ImGui::TextUnformatted(tr(member_status(app, run)));
    drawn_note_text("run: " + run.label() + ": " + member_status(app, run));
    ImGui::TableNextColumn();
    ImGui::Text("%d", run.steps_done());
    for (const char* name : {"train_loss", "test_loss"}) {
      ImGui::TableNextColumn();
      const Series* s = run.find_series(name);
      if (s && !s->values.empty() && std::isfinite(s->values.back())) ImGui::Text("%.4g", s->values.back());
      else if (s && !s->values.empty()) ImGui::TextColored(kErrorColor, "%s", tr("not finite"));
      else ImGui::TextDisabled("-");
    }
    const ImVec2 row_max(ImGui::GetWindowPos().x + ImGui::GetWindowWidth(), ImGui::GetItemRectMax().y);
    semantics_line("run " + run.label(), run_line(app, run), row_min, row_max, "runs", tr("runs"));
  }
  ImGui::EndTable();
}

// Writes the explorer's exponents into the spec as a custom parametrization, with as many hidden layers.
void use_exponents(App& app, const std::vector<Abc>& abc) {
  json::Value* model = nullptr;
  for (auto& kv : app.spec_doc.object) if (kv.first == "model") model = &kv.second;
  if (!model || !model->is_object()) return;
  json::Value widths = json::Value::make_array();
  const json::Value* old = model->find("widths");
  const double width = old && old->is_array() && !old->array.empty() ? old->array[0].number : 64;
  for (size_t l = 0; l + 1 < abc.size(); l++) widths.push(json::Value::make_number(width));
  model->set("widths", widths);
  json::Value param = json::Value::make_object();
  param.set("preset", json::Value::make_string(preset_name(Preset::custom)));
  param.set("theta", json::Value::make_number(0));
  json::Value layers = json::Value::make_array();
  for (const Abc& e : abc) {
    json::Value layer = json::Value::make_object();
    layer.set("a", json::Value::make_number(e.a));
    layer.set("b", json::Value::make_number(e.b));
    layer.set("c", json::Value::make_number(e.c));
    layers.push(layer);
  }
  param.set("custom", layers);
  app.spec_doc.set("parametrization", param);
  spec_doc_changed(app);
}

// The experiment the explorer shows the depth exponents of: the editor's spec while it is valid (a depth rule just
// edited shows at once), else the one trained.
std::optional<ExperimentSpec> explorer_experiment(const App& app) {
  if (app.spec_errors.empty()) {
    SpecResult editor = parse_spec(app.spec_doc, app.spec_limits);
    if (editor.ok()) return std::move(editor.spec);
  }
  if (app.runner) return app.runner->spec();
  return std::nullopt;
}

// Whether `tab` applies to the runner's experiment. A tab that does not apply is not shown: a tab more would cut the
// row's labels at 1024 px.
bool tab_applies(const App& app, ViewTab tab) {
  if (tab == ViewTab::depth) return app.runner && has_residual_blocks(app.runner->spec().model.kind);
  if (tab == ViewTab::anchor) return app.runner && is_transformer(app.runner->spec().model.kind);
  return true;
}

// One view's content. Returns whether it draws the models themselves (the training worker then sends their
// parameters).
bool tab_content(App& app, ViewTab tab) {
  switch (tab) {
    case ViewTab::step:
      if (app.view.plot) plot_panel(app);
      if (app.view.runs) runs_table(app);
      return false;
    case ViewTab::width:
      if (app.runner) width_view(app.width_view, *app.runner, drawn_imports(app), app.imports_revision);
      return false;
    case ViewTab::lr: lr_view(app.runner.get(), drawn_imports(app)); return false;
    case ViewTab::depth: depth_view(app.depth_view, *app.runner, drawn_imports(app)); return false;
    case ViewTab::embeddings:
      if (app.runner) embedding_view(app.embedding_view, *app.runner);
      return true;
    case ViewTab::anchor: anchor_view(app.anchor_view, *app.runner); return true;
    case ViewTab::phenomena:
      if (app.runner) phenomena_view(app.phenomena_view, *app.runner);
      return true;
    case ViewTab::parametrization: {
      const std::optional<ExperimentSpec> experiment = explorer_experiment(app);
      if (abc_explorer_panel(app.explorer, experiment ? &*experiment : nullptr)) use_exponents(app, app.explorer.abc);
      return false;
    }
    case ViewTab::max_lr:
      if (app.runner) max_lr_view(*app.runner);
      return false;
  }
  return false;
}

// How many of the sweep's members ended (finished, diverged or failed): a figure's milestones.
int members_ended(const App& app) {
  if (!app.runner) return 0;
  const auto& members = app.runner->members();
  return int(std::count_if(members.begin(), members.end(),
                           [](const auto& run) { return run->status() != RunStatus::running; }));
}

// One view's content, with its figure as text (web/draw/figure_text.hpp) over the view's whole area.
bool view_content(App& app, ViewTab tab) {
  const ImVec2 at = ImGui::GetCursorScreenPos(), room = ImGui::GetContentRegionAvail();
  figure_text_begin({view_tab_id(tab), tr(view_tab_label(tab)), at, ImVec2(at.x + room.x, at.y + room.y),
                     app.state == RunState::running, members_ended(app)});
  const bool draws_model = tab_content(app, tab);
  figure_text_end();
  return draws_model;
}

// The tab a preset, link or embed asked for, where it applies; else vs step.
void settle_asked_tab(App& app) {
  if (app.tab_asked && !tab_applies(app, app.tab)) app.tab = ViewTab::step;
}

// The right-hand views in a tab bar: training curves vs step (with the runs table), the width, learning-rate and depth
// pictures of the finished or running sweep, embeddings, attention maps, the phenomena, the parametrization explorer
// and the largest stable learning rate (E1). A tab asked for (app.tab_asked) is selected through ImGui's SetSelected,
// which shows it from the next frame on: until then the tab shown does not overwrite the one asked for.
void views(App& app) {
  // Tabs keep their whole label (a zoomed or narrow page scrolls the bar instead of cutting "vs learning rate" to
  // "vs le"), and the list button names every tab, one tap away on a touch screen.
  if (!ImGui::BeginTabBar("views", ImGuiTabBarFlags_FittingPolicyScroll | ImGuiTabBarFlags_TabListPopupButton)) return;
  settle_asked_tab(app);
  bool draws_model = false;
  for (const ViewTabName& name : view_tab_names()) {
    if (!tab_applies(app, name.tab)) continue;
    const bool select = app.tab_asked && app.tab == name.tab;
    semantics_next(tr_label(name.label), SemanticHint("tab", "", "views", tr("Views")));
    // Drawn in the page's language, with the English after "###" as the tab's id: the selected tab stays on a switch.
    if (!ImGui::BeginTabItem(tr_label(name.label), nullptr, select ? ImGuiTabItemFlags_SetSelected : 0)) continue;
    if (app.tab_asked && name.tab == app.tab) app.tab_asked = false;
    if (!app.tab_asked) app.tab = name.tab;
    draws_model = view_content(app, name.tab);
    ImGui::EndTabItem();
  }
  ImGui::EndTabBar();
  remote_want_parameters(app.remote, draws_model);
}

std::string status_line(const App& app) {
  const Runner* r = app.runner.get();
  const bool active = r && !r->members().empty() && app.state == RunState::running;
  // Where the steps are taken: the training workers (web/app/remote_training.hpp) or the page's own threads.
  const std::string trainers = app.remote.active ? trf("workers: %d", app.remote.shards)
                                                 : trf("threads: %d", app.pool ? app.pool->threads() : 1);
  const std::string active_run = active ? trf("active: %s", r->members()[size_t(r->active_run())]->label().c_str())
                                        : tr("no active run");
  return trf("%s | %.0f steps/s | backend: %s | %s | %s | %.0f FPS, %.0f drawn/s "
             "(frame work %.1f ms, training %.1f ms)",
             app.data_wanted ? tr("loading data") : tr(run_state_name(app.state)), app.shown.steps_per_second,
             backend_label(app).c_str(), trainers.c_str(), active_run.c_str(), app.shown.frames_per_second,
             app.shown.drawn_per_second, app.shown.frame_work_ms, app.shown.train_ms);
}

// The status bar's height at the window's width: its line and the latest message, each wrapped (never cut).
float status_bar_height(const App& app) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float wrap = ImGui::GetContentRegionAvail().x;
  float h = style.ItemSpacing.y + 1 + ImGui::CalcTextSize(status_line(app).c_str(), nullptr, false, wrap).y;
  if (!app.message.empty())
    h += style.ItemSpacing.y + ImGui::CalcTextSize(tr_message(app.message).c_str(), nullptr, false, wrap).y;
  return h + style.ItemSpacing.y;
}

void status_bar(const App& app) {
  ImGui::Separator();
  const std::string line = status_line(app);
  wrapped_text(line);
  drawn_note_text("status: " + line);
  if (!app.message.empty()) drawn_wrapped_text(kErrorColor, tr_message(app.message), "message: " + app.message);
}

// The presets list above the spec editor, with a splitter between them (`presets`: whether the list is shown).
void left_column(App& app, ImVec2 size, bool presets) {
  const View& v = app.view;
  ImGui::BeginChild("left", size, false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  if (!v.embed) {
    ImGui::TextUnformatted(tr("\u03bcPlayground: width scaling you can see"));
    ImGui::Separator();
  }
  if (presets && v.editor) {
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const float total = ImGui::GetContentRegionAvail().y - splitter_thickness() - 2 * ImGui::GetStyle().ItemSpacing.y;
    const float min_presets = 4 * line, min_spec = 12 * line;
    ImGui::BeginChild("presets", ImVec2(0, split_first(app.shares.presets, total, min_presets, min_spec)), true);
    presets_panel(app);
    ImGui::EndChild();
    splitter("##presets splitter", SplitAxis::rows, ImGui::GetContentRegionAvail().x, total, min_presets, min_spec,
             &app.shares.presets);
  } else if (presets) {
    ImGui::BeginChild("presets", ImVec2(0, 0), true);
    presets_panel(app);
    ImGui::EndChild();
  }
  if (v.editor) {
    ImGui::BeginChild("spec", ImVec2(0, 0), true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    spec_panel(app);
    ImGui::EndChild();
  }
  ImGui::EndChild();
}

// Presenting: the experiment's name over the view, larger than the rest, as a slide's title.
void presentation_title(const App& app) {
  const json::Value* name = app.spec_doc.is_object() ? app.spec_doc.find("name") : nullptr;
  if (!name || !name->is_string() || name->string.empty()) return;
  ImGui::SetWindowFontScale(1.35f);
  drawn_wrapped_text(ImGui::GetStyleColorVec4(ImGuiCol_Text), preset_text(app, name->string), "title: " + name->string);
  ImGui::SetWindowFontScale(1);
}

void right_column(App& app, float height) {
  const View& v = app.view;
  ImGui::BeginChild("right", ImVec2(0, height), !v.embed && !app.presenting);
  if (app.presenting && !v.embed) presentation_title(app);  // an embed's host page has its own title
  if (v.controls) controls(app);
  if (v.embed) {  // an embed shows just the panels it asked for: its view, without the tab bar
    settle_asked_tab(app);
    app.tab_asked = false;
    bool draws_model = false;
    if (v.plot) draws_model = view_content(app, app.tab);  // vs step draws the runs table too, when asked for
    if (v.runs && !(v.plot && app.tab == ViewTab::step)) runs_table(app);
    if (v.phenomena && app.runner && !(v.plot && app.tab == ViewTab::phenomena)) {
      phenomena_view(app.phenomena_view, *app.runner);
      draws_model = true;
    }
    remote_want_parameters(app.remote, draws_model);
  } else {
    views(app);
  }
  ImGui::EndChild();
}

// Counts changes of the view the reader sees (a tab, a metric, a record): the address bar and the saved draft follow.
void follow_view(App& app) {
  if (app.tab_asked) return;  // not shown yet
  std::string shown = view_text(app);
  if (shown == app.shown_view) return;
  app.shown_view = std::move(shown);
  app.view_revision += 1;
}

}  // namespace

void draw_ui(App& app) {
  if (app.view_pending) open_spec_view(app);
  const View& v = app.view;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  // An embed is small: tighter padding, and no title (the host page has its own).
  if (v.embed) ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(4, 4));
  // The wheel scrolls only the panels: the window itself never moves. Its background is the frame's clear colour
  // (web/main.cpp), not a rectangle over the whole canvas: where the page is drawn in software, each full-canvas
  // layer costs as much as training for a few milliseconds.
  ImGui::Begin("\xC2\xB5Playground", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBringToFrontOnFocus |
                   ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoBackground);
  if (v.embed) ImGui::PopStyleVar();
  app.plot_min = app.plot_max = ImVec2(0, 0);  // no plot unless plot_panel draws one this frame
  // Presenting folds the list and the editor away (so does a narrow screen), and the status bar unless it has a
  // problem to tell.
  const bool status = v.status && (!app.presenting || !app.message.empty());
  const float height = ImGui::GetContentRegionAvail().y - (status ? status_bar_height(app) : 0);
  // A narrow screen shows the editor alone in the views' place while the toolbar's Fields is pressed (its preset
  // menu stands for the list).
  const bool fields = app.narrow && app.narrow_editor && !app.presenting && v.editor;
  const bool left = !app.presenting && (!app.narrow || fields) && (v.presets || v.editor);
  const bool right = !fields && (v.controls || v.plot || v.runs);
  if (left && right) {
    // The columns share the width at the splitter between them; each keeps room for its widgets.
    const float total = ImGui::GetContentRegionAvail().x - splitter_thickness();
    const float min_left = (v.embed ? 14 : 18) * ImGui::GetFontSize(), min_right = 26 * ImGui::GetFontSize();
    left_column(app, ImVec2(split_first(app.shares.left, total, min_left, min_right), height), v.presets);
    ImGui::SameLine(0, 0);
    splitter("##columns splitter", SplitAxis::columns, height, total, min_left, min_right, &app.shares.left);
    ImGui::SameLine(0, 0);
  } else if (left) {
    left_column(app, ImVec2(0, height), v.presets && !fields);
  }
  if (right) right_column(app, height);
  shortcuts(app);
  follow_view(app);
  if (status) status_bar(app);
  if (app.table_preview.open && table_preview_window(app.table_preview) == TablePreviewAction::use) use_table(app);
  ImGui::End();
}
