#include "web/app/table_import.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>

#include "engine/spec/metric_table.hpp"
#include "engine/spec/spec.hpp"
#include "engine/spec/transformer_spec.hpp"
#include "engine/task/table_task.hpp"
#include "web/app/page_limits.hpp"
#include "web/draw/i18n.hpp"

namespace {

// The task object of the Data window's choices, as spec_to_json writes it.
json::Value task_object(const TablePreview& p) {
  ExperimentSpec s;
  s.task = table_preview_task(p);
  return *spec_to_json(s).find("task");
}

// Drops the metrics the table cannot have ("metrics[i]: ..."), and says which.
std::vector<std::string> drop_unfit_metrics(App& app) {
  const std::vector<std::string> errors = parse_spec(app.spec_doc, app.spec_limits).errors;
  const json::Value* metrics = app.spec_doc.find("metrics");
  if (!metrics || !metrics->is_array()) return {};
  json::Value kept = json::Value::make_array();
  std::vector<std::string> dropped;
  for (size_t i = 0; i < metrics->array.size(); i++) {
    const std::string at = "metrics[" + std::to_string(i) + "]: ";
    bool unfit = false;
    for (const std::string& e : errors) unfit = unfit || e.rfind(at, 0) == 0;
    if (unfit) dropped.push_back(metrics->array[i].string);
    else kept.push(metrics->array[i]);
  }
  app.spec_doc.set("metrics", kept);
  return dropped;
}

std::string short_hash(const std::string& sha256) { return sha256.substr(0, 12) + "…"; }

// The file of the editor's table task that the page lacks (the data file first, then its test file); file "" if none.
struct WantedFile {
  std::string file, sha256;
  long bytes = 0;
};
WantedFile wanted_file(const App& app) {
  if (!table_file_missing(app.spec_errors)) return {};
  const TaskConfig task = parse_spec(app.spec_doc, app.spec_limits).spec.task;
  const TableSpec& t = task.table;
  if (task.table_file && !task.table_file->error.empty()) return {t.file, t.sha256, t.bytes};
  if (task.test_table_file && !task.test_table_file->error.empty()) return {t.test_file, t.test_sha256, t.test_bytes};
  return {};
}

}  // namespace

// The reasons below go to the page's script, which shows them as they are: they are in the page's language here.
std::string open_table(App& app, const std::string& name) {
  const auto file = read_table_file(std::string(kPageTableDir) + "/" + name);
  if (!file->error.empty()) return tr_message(file->error);
  app.table_preview = table_preview(file, name);
  return "";
}

void use_table(App& app) {
  json::Value doc = app.spec_doc.is_object() ? app.spec_doc : json::Value::make_object();
  doc.set("task", task_object(app.table_preview));
  if (const json::Value* model = doc.find("model");
      model && model->find("kind") && names_transformer(model->find("kind")->string)) {
    doc.set("model", *spec_to_json(ExperimentSpec{}).find("model"));
    doc.set("parametrization", *spec_to_json(ExperimentSpec{}).find("parametrization"));
  }
  json::Value name = json::Value::make_string(app.table_preview.name + ": " +
                                              (doc.find("name") && doc.find("name")->is_string()
                                                   ? doc.find("name")->string : std::string("your data")));
  doc.set("name", name);
  // The description told of the experiment's own data and numbers.
  auto& fields = doc.object;
  fields.erase(std::remove_if(fields.begin(), fields.end(), [](const auto& f) { return f.first == "description"; }),
               fields.end());
  app.spec_doc = doc;
  const std::vector<std::string> dropped = drop_unfit_metrics(app);
  load_spec_text(app, json::write(app.spec_doc));
  if (!dropped.empty() && app.message.empty()) {
    std::string names;
    for (const std::string& m : dropped) names += (names.empty() ? "" : ", ") + m;
    app.message = trf("Left out the metrics a table task does not have: %s.", names.c_str());
  }
}

std::string table_wanted(const App& app) {
  const WantedFile wanted = wanted_file(app);
  if (wanted.file.empty()) return "";
  json::Value out = json::Value::make_object();
  out.set("file", json::Value::make_string(wanted.file));
  out.set("bytes", json::Value::make_number(double(wanted.bytes)));
  out.set("sha256", json::Value::make_string(wanted.sha256));
  return json::write(out);
}

std::string offer_table(App& app, const std::string& path, const std::string& offered_name) {
  const WantedFile want = wanted_file(app);
  if (want.file.empty()) return tr("the experiment no longer asks for a data file");
  const std::string& wanted = want.file;
  const std::string& sha256 = want.sha256;
  const long bytes = want.bytes;
  const auto file = read_table_file(path);
  if (!file->error.empty()) return tr_message(file->error);
  if (!sha256.empty() && (file->sha256 != sha256 || long(file->bytes) != bytes)) {
    std::remove(path.c_str());
    return trf("You chose %s (%zu bytes, sha256 %s); this experiment trains on %s (%ld bytes, sha256 %s): not the "
               "same data. Choose %s.", offered_name.c_str(), file->bytes, short_hash(file->sha256).c_str(),
               wanted.c_str(), bytes, short_hash(sha256).c_str(), wanted.c_str());
  }
  const std::string place = std::string(kPageTableDir) + "/" + wanted;
  mkdir(kPageTableDir, 0755);  // a page that was never given a table has no folder for one yet
  if (std::rename(path.c_str(), place.c_str()) != 0) return trf("could not keep %s in the page", offered_name.c_str());
  load_spec_text(app, json::write(app.spec_doc));
  return "";
}
