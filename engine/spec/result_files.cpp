#include "engine/spec/result_files.hpp"

#include <vector>

namespace {

// A JSON number as text (shortest exact form); null (a non-finite value) and absent cells are empty.
std::string cell(const json::Value* v) { return v && v->is_number() ? json::write(*v) : ""; }

std::vector<std::string> series_names(const json::Value& runs) {
  std::vector<std::string> names;
  for (const json::Value& run : runs.array)
    if (const json::Value* series = run.find("series"))
      for (const auto& kv : series->object) {
        bool seen = false;
        for (const std::string& n : names) seen = seen || n == kv.first;
        if (!seen) names.push_back(kv.first);
      }
  return names;
}

}  // namespace

std::string spec_file_text(const ExperimentSpec& spec) { return json::write(spec_to_json(spec), 2) + "\n"; }

std::string result_file_text(const json::Value& results) { return json::write(results, 1) + "\n"; }

std::string results_csv(const json::Value& results) {
  static const json::Value kNone = json::Value::make_array();
  const json::Value* found = results.find("runs");
  const json::Value& runs = found && found->is_array() ? *found : kNone;
  const std::vector<std::string> names = series_names(runs);
  // Transformer sweeps also vary the init rate and the weight decay: two more coordinate columns.
  // Residual MLPs vary the depth: a column after the width.
  bool transformer = false, residual = false;
  for (const json::Value& run : runs.array) {
    transformer = transformer || run.find("gamma");
    residual = residual || run.find("depth");
  }
  std::string out = std::string("width,") + (residual ? "depth," : "") + "lr,seed," +
                    (transformer ? "gamma,weight_decay," : "") + "status,step";
  for (const std::string& n : names) out += "," + n;
  out += "\n";
  for (const json::Value& run : runs.array) {
    const json::Value* status = run.find("status");
    const std::string head = cell(run.find("width")) + "," + (residual ? cell(run.find("depth")) + "," : "") +
                             cell(run.find("lr")) + "," + cell(run.find("seed")) + "," +
                             (transformer ? cell(run.find("gamma")) + "," + cell(run.find("weight_decay")) + "," : "") +
                             (status && status->is_string() ? status->string : "");
    const json::Value* steps = run.find("recorded_steps");
    const json::Value* series = run.find("series");
    for (size_t i = 0; steps && i < steps->array.size(); i++) {
      out += head + "," + cell(&steps->array[i]);
      for (const std::string& n : names) {
        const json::Value* s = series ? series->find(n) : nullptr;
        out += "," + cell(s && i < s->array.size() ? &s->array[i] : nullptr);
      }
      out += "\n";
    }
  }
  return out;
}
