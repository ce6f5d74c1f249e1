#include "web/app/view_text.hpp"

#include <algorithm>
#include <cstdlib>

#include "web/views/step_view.hpp"

namespace {

// The settings of each tab, in the order view_text writes them.
const char* const kStepKeys[] = {"metric", "logx", "logy", "limit"};
const char* const kSweepKeys[] = {"quantity", "record", "refs"};  // vs width, vs depth
const char* const kMemberKeys[] = {"member"};
const char* const kAnchorKeys[] = {"member", "set", "seq", "layer", "head"};

std::vector<std::string> keys_of(ViewTab tab) {
  auto list = [](const auto& keys) { return std::vector<std::string>(std::begin(keys), std::end(keys)); };
  switch (tab) {
    case ViewTab::step: return list(kStepKeys);
    case ViewTab::width:
    case ViewTab::depth: return list(kSweepKeys);
    case ViewTab::phenomena: return list(kMemberKeys);
    case ViewTab::anchor: return list(kAnchorKeys);
    default: return {};
  }
}

// The runs' first series: the metric vs step shows unless another is chosen.
std::string first_metric(const App& app) {
  const std::vector<std::string> names = metric_names(app.runner.get());
  return names.empty() ? "train_loss" : names[0];
}

// The metric vs step plots, or "" for the default one (the runs' first series).
std::string chosen_metric(const App& app) {
  const std::vector<std::string> names = metric_names(app.runner.get());
  if (!app.asked_metric.empty()) return names.empty() || app.asked_metric != names[0] ? app.asked_metric : "";
  if (app.plot_metric <= 0 || app.plot_metric >= int(names.size())) return "";
  return names[size_t(app.plot_metric)];
}

std::string flag(bool on) { return on ? "1" : "0"; }

// "key=value" for each setting of the tab the page shows. Settings at their defaults are left out, so a link says
// only what its author chose.
std::vector<std::string> settings(const App& app) {
  std::vector<std::string> out;
  switch (app.tab) {
    case ViewTab::step: {
      const std::string metric = chosen_metric(app);
      if (!metric.empty()) out.push_back("metric=" + metric);
      if (app.log_x) out.push_back("logx=1");
      const std::string plotted = !metric.empty() ? metric : first_metric(app);
      // log_y is the plot's choice for log_y_metric only: for another metric the plot has yet to set its axis.
      if (app.log_y_metric == plotted && app.log_y == linear_by_default(plotted))
        out.push_back("logy=" + flag(app.log_y));
      if (!app.show_limit) out.push_back("limit=0");
      break;
    }
    case ViewTab::width:
      if (!app.width_view.family.empty()) out.push_back("quantity=" + app.width_view.family);
      out.push_back("record=" + std::to_string(app.width_view.record));
      if (app.width_view.references) out.push_back("refs=1");
      break;
    case ViewTab::depth:
      if (app.depth_view.eta) out.push_back("quantity=eta");
      else if (!app.depth_view.quantity.empty()) out.push_back("quantity=" + app.depth_view.quantity);
      if (app.depth_view.record >= 0) out.push_back("record=" + std::to_string(app.depth_view.record));
      if (app.depth_view.references) out.push_back("refs=1");
      break;
    case ViewTab::phenomena:
      if (app.phenomena_view.run > 0) out.push_back("member=" + std::to_string(app.phenomena_view.run));
      break;
    case ViewTab::anchor:
      if (app.anchor_view.picked) out.push_back("member=" + std::to_string(app.anchor_view.run));
      if (app.anchor_view.set) out.push_back("set=1");
      if (app.anchor_view.sequence) out.push_back("seq=" + std::to_string(app.anchor_view.sequence));
      if (app.anchor_view.layer) out.push_back("layer=" + std::to_string(app.anchor_view.layer));
      if (app.anchor_view.head) out.push_back("head=" + std::to_string(app.anchor_view.head));
      break;
    default: break;
  }
  return out;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find(separator, start), text.size());
    parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

// A count in 0 … 100000 (records, members, sequences), or -1 when `value` is not one.
int count(const std::string& value) {
  if (value.empty() || value.size() > 6 || value.find_first_not_of("0123456789") != std::string::npos) return -1;
  const int n = std::atoi(value.c_str());
  return n <= 100000 ? n : -1;
}

// A 0/1 setting: -1 when `value` is neither.
int flag_value(const std::string& value) { return value == "0" ? 0 : value == "1" ? 1 : -1; }

bool take_step_setting(App& app, const std::string& key, const std::string& value) {
  if (key == "metric") {
    app.asked_metric = value;
    return !value.empty();
  }
  const int on = flag_value(value);
  if (on < 0) return false;
  if (key == "logx") app.log_x = on;
  if (key == "limit") app.show_limit = on;
  if (key == "logy") {  // for the metric named before it, else the runs' first
    app.log_y = on;
    app.log_y_metric = !app.asked_metric.empty() ? app.asked_metric : first_metric(app);
  }
  return true;
}

// vs width and vs depth: a quantity (for vs depth, "eta": η* against L), a record, the reference slopes.
bool take_sweep_setting(App& app, ViewTab tab, const std::string& key, const std::string& value) {
  const bool width = tab == ViewTab::width;
  if (key == "quantity" && value.empty()) return false;
  if (key == "quantity" && width) app.width_view.family = value;
  if (key == "quantity" && !width) {
    app.depth_view.eta = value == "eta";
    app.depth_view.quantity = app.depth_view.eta ? "" : value;
  }
  if (key == "record") {
    const int n = count(value);
    if (n < 0) return false;
    (width ? app.width_view.record : app.depth_view.record) = n;
  }
  if (key == "refs") {
    const int on = flag_value(value);
    if (on < 0) return false;
    (width ? app.width_view.references : app.depth_view.references) = on;
  }
  return true;
}

// The per-run views: the member shown, and for the anchor view its sequence, layer and head.
bool take_run_setting(App& app, ViewTab tab, const std::string& key, const std::string& value) {
  const int n = count(value);
  if (n < 0 || (key == "set" && n > 1)) return false;
  if (tab == ViewTab::phenomena) {
    app.phenomena_view.run = n;
    return true;
  }
  AnchorView& v = app.anchor_view;
  if (key == "member") v.run = n, v.picked = true;
  if (key == "set") v.set = n;
  if (key == "seq") v.sequence = n;
  if (key == "layer") v.layer = n;
  if (key == "head") v.head = n;
  return true;
}

// Takes one setting of `tab` (a key keys_of lists); false when its value is not valid.
bool take_setting(App& app, ViewTab tab, const std::string& key, const std::string& value) {
  if (tab == ViewTab::step) return take_step_setting(app, key, value);
  if (tab == ViewTab::width || tab == ViewTab::depth) return take_sweep_setting(app, tab, key, value);
  return take_run_setting(app, tab, key, value);
}

// Every view's settings at their defaults: a view names only what differs, whatever was shown before.
void reset_settings(App& app) {
  app.plot_metric = 0;
  app.asked_metric.clear();
  app.log_x = false;
  app.log_y_metric.clear();  // the plot sets log_y for its metric
  app.show_limit = true;
  const WidthView width;
  app.width_view.family = width.family;
  app.width_view.record = width.record;
  app.width_view.references = width.references;
  app.depth_view = DepthView{};
  app.phenomena_view.run = 0;
  const AnchorView anchor;
  app.anchor_view.run = anchor.run;
  app.anchor_view.picked = anchor.picked;
  app.anchor_view.set = anchor.set;
  app.anchor_view.sequence = anchor.sequence;
  app.anchor_view.layer = anchor.layer;
  app.anchor_view.head = anchor.head;
}

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : ", ") + w;
  return s.empty() ? "none" : s;
}

// The view the spec names; for a spec without one (a link made before specs named views), the view of the preset of
// the same name, if any.
std::string opening_view(const App& app, const ExperimentSpec& spec) {
  if (!spec.view.empty()) return spec.view;
  const int index = preset_named(app, spec.name);
  if (index < 0) return "";
  const SpecResult preset = parse_spec_text(app.presets[size_t(index)].text, app.spec_limits);
  return preset.ok() ? preset.spec.view : "";
}

}  // namespace

void open_spec_view(App& app) {
  app.view_pending = false;
  const SpecResult r = parse_spec(app.spec_doc, app.spec_limits);
  if (!r.ok()) return;
  const std::vector<std::string> errors = apply_view_text(app, opening_view(app, r.spec));
  if (!errors.empty()) app.message = "The view this experiment names was not shown as written: " + errors[0] + ".";
}

std::string view_text(const App& app) {
  const std::vector<std::string> chosen = settings(app);
  if (app.tab == ViewTab::step && chosen.empty()) return "";  // the default view: links and files name none
  std::string text = view_tab_id(app.tab);
  for (const std::string& s : chosen) text += ";" + s;
  return text;
}

std::vector<std::string> apply_view_text(App& app, const std::string& text) {
  std::vector<std::string> errors;
  const std::vector<std::string> parts = split(text, ';');
  const std::string& id = parts.front();
  const ViewTabName* found = nullptr;
  for (const ViewTabName& n : view_tab_names())
    if (id == n.id || (id.empty() && n.tab == ViewTab::step)) found = &n;
  if (!found) {
    std::vector<std::string> ids;
    for (const ViewTabName& n : view_tab_names()) ids.push_back(n.id);
    return {"view: there is no view \"" + id.substr(0, 40) + "\" (the views: " + joined(ids) + ")"};
  }
  reset_settings(app);
  app.view_pending = false;  // a view asked for wins over the one a just-loaded spec names
  app.tab = found->tab;
  app.tab_asked = true;
  const std::vector<std::string> keys = keys_of(found->tab);
  for (size_t i = 1; i < parts.size(); i++) {
    const size_t eq = parts[i].find('=');
    const std::string key = parts[i].substr(0, eq), value = eq == std::string::npos ? "" : parts[i].substr(eq + 1);
    if (std::find(keys.begin(), keys.end(), key) == keys.end())
      errors.push_back("view: " + std::string(found->id) + " has no setting \"" + key.substr(0, 40) + "\" (its settings: " +
                       joined(keys) + ")");
    else if (!take_setting(app, found->tab, key, value))
      errors.push_back("view: " + key + "=" + value.substr(0, 40) + " is not a valid value");
  }
  // What links and drafts carry from now on, before the tab bar has shown it.
  app.shown_view = view_text(app);
  app.view_revision += 1;
  return errors;
}
