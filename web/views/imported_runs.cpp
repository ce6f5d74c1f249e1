#include "web/views/imported_runs.hpp"

#include <cmath>
#include <cstdio>

#include "engine/run/runner.hpp"
#include "engine/spec/result_files.hpp"
#include "engine/spec/spec.hpp"

namespace {

constexpr size_t kMaxErrors = 8;        // enough to fix a file by; a broken file of 4 MB would list thousands
constexpr int kMaxWidth = 1 << 24;      // far beyond any GPU run, small enough for an int
constexpr int kMaxDepth = 1 << 16;      // residual blocks: far beyond any run
constexpr size_t kMaxNameChars = 120;   // the legend and the list show the name on one line

// Walks the document, collecting problems with the path they are at.
struct Reader {
  std::vector<std::string>& errors;
  void fail(const std::string& path, const std::string& why) {
    if (errors.size() < kMaxErrors) errors.push_back(path + ": " + why);
  }
  const json::Value* field(const json::Value& object, const std::string& path, const std::string& key, json::Type type,
                           bool required) {
    const json::Value* v = object.find(key);
    if (!v || (!required && v->type == json::Type::null)) {
      if (required) fail(path + key, "missing");
      return nullptr;
    }
    if (v->type != type) {
      fail(path + key, std::string("expected ") + json::type_name(type) + ", found " + json::type_name(v->type));
      return nullptr;
    }
    return v;
  }
};

bool is_whole(double x, double lo, double hi) { return std::isfinite(x) && x == std::floor(x) && x >= lo && x <= hi; }

std::vector<int> read_steps(Reader& r, const json::Value& steps, const std::string& path) {
  std::vector<int> out;
  for (size_t i = 0; i < steps.array.size(); i++) {
    const json::Value& t = steps.array[i];
    if (!t.is_number() || !is_whole(t.number, 0, 1e9)) {
      r.fail(path + "[" + std::to_string(i) + "]", "not a step number");
      return {};
    }
    out.push_back(int(t.number));
  }
  return out;
}

// One series: a number (or null, for a non-finite value) per recorded step.
Series read_series(Reader& r, const std::string& name, const json::Value& values, size_t records, const std::string& path) {
  Series s{name, {}};
  if (!values.is_array()) {
    r.fail(path, std::string("expected array, found ") + json::type_name(values.type));
    return s;
  }
  if (values.array.size() > records) r.fail(path, "more values than recorded_steps");
  for (size_t i = 0; i < values.array.size(); i++) {
    const json::Value& v = values.array[i];
    if (v.is_number()) s.values.push_back(v.number);
    else if (v.type == json::Type::null) s.values.push_back(NAN);
    else {
      r.fail(path + "[" + std::to_string(i) + "]", "not a number or null");
      break;
    }
  }
  return s;
}

std::string member_label(const ImportedRun& run, bool transformer) {
  char depth[32] = "";  // L only for a residual MLP
  if (run.depth > 0) std::snprintf(depth, sizeof depth, " L=%d", run.depth);
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s=%d%s lr=%g seed=%.0f", transformer ? "d" : "n", run.width, depth, run.lr,
                run.seed);
  return buf;
}

ImportedRun read_run(Reader& r, const json::Value& v, const std::string& path, bool transformer) {
  ImportedRun run;
  if (!v.is_object()) {
    r.fail(path, "expected object");
    return run;
  }
  if (const json::Value* w = r.field(v, path + ".", "width", json::Type::number, true)) {
    if (is_whole(w->number, 1, kMaxWidth)) run.width = int(w->number);
    else r.fail(path + ".width", "not a width (a whole number from 1 to " + std::to_string(kMaxWidth) + ")");
  }
  if (const json::Value* d = r.field(v, path + ".", "depth", json::Type::number, false)) {
    if (is_whole(d->number, 1, kMaxDepth)) run.depth = int(d->number);
    else r.fail(path + ".depth", "not a depth (a whole number from 1 to " + std::to_string(kMaxDepth) + ")");
  }
  if (const json::Value* lr = r.field(v, path + ".", "lr", json::Type::number, true)) run.lr = lr->number;
  if (const json::Value* seed = r.field(v, path + ".", "seed", json::Type::number, false)) run.seed = seed->number;
  const json::Value* status = r.field(v, path + ".", "status", json::Type::string, false);
  run.status = status ? status->string : run_status_name(RunStatus::finished);
  if (const json::Value* d = r.field(v, path + ".", "diverged_at", json::Type::number, false)) run.diverged_at = int(d->number);
  const json::Value* steps = r.field(v, path + ".", "recorded_steps", json::Type::array, true);
  if (steps) run.recorded_steps = read_steps(r, *steps, path + ".recorded_steps");
  const json::Value* series = r.field(v, path + ".", "series", json::Type::object, true);
  if (series && steps)  // without its steps a run's series cannot be placed: one problem is enough
    for (const auto& [name, values] : series->object)
      run.series.push_back(read_series(r, name, values, run.recorded_steps.size(), path + ".series." + name));
  run.label = member_label(run, transformer);
  return run;
}

const json::Value* at(const json::Value& doc, const char* object, const char* key) {
  const json::Value* o = doc.find(object);
  const json::Value* v = o && o->is_object() ? o->find(key) : nullptr;
  return v && v->is_string() ? v : nullptr;
}

// The header's text fields as the list shows them: one line, at most kMaxNameChars.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return s.size() > kMaxNameChars ? s.substr(0, kMaxNameChars) + "..." : s;
}

std::string source_name(const std::string& file_name, const std::string& engine, const std::string& device) {
  std::string name = file_name.empty() ? "" : file_name + " \xC2\xB7 ";  // U+00B7 MIDDLE DOT
  name += engine;
  if (!device.empty()) name += " \xC2\xB7 " + device;
  return one_line(name);
}

}  // namespace

const Series* ImportedRun::find_series(const std::string& name) const {
  for (const Series& s : series)
    if (s.name == name) return &s;
  return nullptr;
}

bool is_result_document(const json::Value& doc) {
  const json::Value* schema = doc.is_object() ? doc.find("schema") : nullptr;
  return schema && schema->is_string() && schema->string == "muplay-result";
}

std::string experiment_kind(const json::Value& spec) {
  static const json::Value defaults = spec_to_json(ExperimentSpec{});
  const json::Value* model = at(spec, "model", "kind");  // written for Transformers only: MLP specs keep their form
  const json::Value* task = at(spec, "task", "kind");
  const std::string task_kind = task ? task->string : at(defaults, "task", "kind")->string;
  std::string kind = std::string(model ? model->string : model_kind_name(ModelSpec{}.kind)) + " on " + task_kind;
  // An anchor task is one of several: its own object in the task names which.
  const json::Value* task_object = spec.find("task");
  if (task_kind == task_name(TaskKind::anchor) && task_object && task_object->is_object())
    for (const auto& [key, value] : task_object->object)
      if (const json::Value* sub = value.is_object() ? value.find("kind") : nullptr; sub && sub->is_string())
        kind += " (" + sub->string + ")";
  return kind;
}

ImportedSet read_imported_set(const json::Value& doc, const std::string& file_name, std::vector<std::string>& errors) {
  Reader r{errors};
  ImportedSet set;
  if (!is_result_document(doc)) {
    r.fail("schema", "not \"muplay-result\"");
    return set;
  }
  const json::Value* version = r.field(doc, "", "version", json::Type::number, true);
  if (version && version->number != kResultVersion)
    r.fail("version", "result document version " + json::write(*version) + ": this build reads version " +
                          std::to_string(kResultVersion));
  const json::Value* engine = r.field(doc, "", "engine", json::Type::string, false);
  const json::Value* device = r.field(doc, "", "device", json::Type::string, false);
  set.engine = one_line(engine ? engine->string : "muplay");
  set.device = one_line(device ? device->string : "");
  set.name = source_name(file_name, set.engine, set.device);
  if (const json::Value* spec = r.field(doc, "", "spec", json::Type::object, true)) set.spec = *spec;
  set.experiment = experiment_kind(set.spec);
  const json::Value* model = at(set.spec, "model", "kind");
  const bool transformer = model && names_transformer(model->string);
  if (const json::Value* runs = r.field(doc, "", "runs", json::Type::array, true))
    for (size_t i = 0; i < runs->array.size(); i++)
      set.runs.push_back(read_run(r, runs->array[i], "runs[" + std::to_string(i) + "]", transformer));
  if (!errors.empty()) set.runs.clear();
  return set;
}

std::string overlay_mismatch(const ImportedSet& set, const ExperimentSpec& spec) {
  const std::string page = experiment_kind(spec_to_json(spec));
  if (set.experiment == page) return "";
  return "it trained " + set.experiment + " and the page's experiment is " + page +
         ": its runs are not comparable with the page's, so they are not drawn (open an experiment of " +
         set.experiment + " to see them)";
}
