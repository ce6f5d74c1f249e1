// muplay: the command-line front end of the engine.
//
//   muplay run SPEC.json [--out RESULT.json] [--csv METRICS.csv] [--quiet] [--threads N]
//                                                         train every sweep member, write the result document
//   muplay export-init SPEC.json [--out INIT.json]     every member's initial weights, multipliers and data
//   muplay export torch SPEC.json --out DIR [--force]     the spec as a PyTorch project (train.py, README.md)
//   muplay validate SPEC.json                             report every problem of a spec (exit 2 if any)
//   muplay link SPEC.json                                 the spec's share link (SPEC.json may be a link anywhere)
//   muplay max-lr SPEC.json --lo LO --hi HI [--out F]     E1: each member's largest stable learning rate
//   muplay gpu-plan SPEC.json [--out PLAN.json]           the first member's training step as a GPU kernel plan
//   muplay presets [--dir DIR]                            list the preset specs of examples/
//   muplay names                                          the names each choice field of a spec allows, as JSON
//   muplay fields                                         every spec field with its default, range and meaning
//   muplay reach                                          what trains on the CPU only and what the export refuses
//   muplay --help
//
// Exit codes: 0 success, 1 a run diverged or failed (the result is still written), 2 bad input.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/analysis/attention_cut.hpp"
#include "engine/analysis/init_export.hpp"
#include "engine/analysis/lr_scan.hpp"
#include "engine/base/worker_pool.hpp"
#include "engine/cli/gpu_plan_document.hpp"
#include "engine/export/torch_export.hpp"
#include "engine/gpu/gpu_device.hpp"
#include "engine/run/runner.hpp"
#include "engine/spec/link.hpp"
#include "engine/spec/memory_budget.hpp"
#include "engine/spec/presets.hpp"
#include "engine/spec/reach_table.hpp"
#include "engine/spec/result_files.hpp"
#include "engine/spec/spec.hpp"
#include "engine/spec/spec_migrations.hpp"
#include "engine/spec/time_budget.hpp"

#ifndef MUPLAY_EXAMPLES_DIR
#define MUPLAY_EXAMPLES_DIR "examples"
#endif
#ifndef MUPLAY_FASHION_MNIST_DIR
#define MUPLAY_FASHION_MNIST_DIR ""
#endif

namespace {

const char* kUsage =
    "usage:\n"
    "  muplay run SPEC.json [--out RESULT.json] [--csv METRICS.csv] [--quiet] [--threads N]\n"
    "      Train every member of the spec's sweep (width x lr x seed) and write the result document\n"
    "      (schema muplay-result v1, see examples/README.md) to RESULT.json, or to stdout without --out; --csv also\n"
    "      writes its metrics as CSV (one row per run and recorded step), as the page's download does.\n"
    "      --threads: members train side by side on N threads (default: every core); same results.\n"
    "      With model.transformer.attention_cut, each run also gets \"attention_cut\": its test answers with\n"
    "      and without that head's attention to the key or anchor (the book's masking experiment).\n"
    "  muplay export-init SPEC.json [--out INIT.json]\n"
    "      Write every member's initial weights (row-major fan_out x fan_in), forward and learning-rate\n"
    "      multipliers, and the train/test data as JSON (schema muplay-init v1), for cross-checks.\n"
    "  muplay export torch SPEC.json --out DIR [--force]\n"
    "      Write the spec as a standalone PyTorch project in DIR: train.py (the same models, parametrization,\n"
    "      task, sweep and metrics; torchrun splits the sweep or trains a member with DDP), README.md with\n"
    "      its commands, requirements.txt and spec.json. A spec it cannot express is refused, field by field.\n"
    "      The sweep's memory and time are not checked (it trains elsewhere); files of the same names\n"
    "      already in DIR are overwritten only with --force.\n"
    "  muplay max-lr SPEC.json --lo LO --hi HI [--out RESULT.json]\n"
    "      Experiment E1: for every (width, seed) of the sweep, the largest learning rate of the 1/4-octave grid\n"
    "      LO * 2^(k/4) <= HI, scanned upward, whose run of schedule.steps steps passes (finite loss, L_T < L_0,\n"
    "      output not identically zero), with every trial's verdict, as JSON. The sweep's lr axis is ignored.\n"
    "  muplay link SPEC.json\n"
    "      Print the spec's share link fragment (s=1.<data>&r=1), as the page's Copy link makes it; open it as\n"
    "      http://127.0.0.1:8080/#<fragment>. Wherever a command takes SPEC.json, a share link (or a whole page\n"
    "      address holding one) works too: muplay run 'http://127.0.0.1:8080/#s=1....' trains what the link opens.\n"
    "  muplay validate SPEC.json\n"
    "      Check a spec; print every problem with its field path. Exit 2 if any.\n"
    "  muplay presets [--dir DIR]\n"
    "      List the preset specs in DIR (default: the project's examples/).\n"
    "  muplay names\n"
    "      Print, as JSON, every spec field whose value is one of a few names (model.activation, task.kind, ...)\n"
    "      with the names it allows.\n"
    "  muplay gpu-plan SPEC.json [--out PLAN.json]\n"
    "      The first sweep member's training step as a GPU kernel plan (engine/gpu/mlp_gpu_plan.hpp, or\n"
    "      engine/gpu/transformer_gpu_plan.hpp for a transformer), for\n"
    "      scripts/gpu-bench.mjs --plan PLAN.json to time on a GPU.\n"
    "  muplay --help\n";

int bad_input(const std::string& message) {
  std::fprintf(stderr, "muplay: %s\n", message.c_str());
  return 2;
}

// The command line's limits: its time budget, and the Fashion-MNIST subset of $MUPLAY_FASHION_MNIST_DIR, else the one
// this build cut (data/CMakeLists.txt).
SpecLimits command_line_limits() {
  SpecLimits limits;
  const char* data_dir = std::getenv("MUPLAY_FASHION_MNIST_DIR");
  limits.fashion_mnist_dir = data_dir && *data_dir ? data_dir : MUPLAY_FASHION_MNIST_DIR;
  return limits;
}

// The share link in `arg` where a spec file is expected: a fragment "s=..." or "#s=...", or a page address holding
// one (found by its "#s=": an embed's query has "panels=" in it); "" when `arg` is a file name.
std::string link_fragment(const std::string& arg) {
  if (arg.rfind("s=", 0) == 0) return arg;
  const size_t at = arg.find("#s=");
  return at == std::string::npos ? "" : arg.substr(at + 1);
}

bool load_spec(const std::string& path, const SpecLimits& limits, SpecResult& out) {
  if (std::string fragment = link_fragment(path); !fragment.empty()) {
    // A page's link may carry a data set after the spec (web/js/tables.js: "&d=", compressed): the command line
    // reads task.table.file from the working folder instead.
    if (const size_t data = fragment.find("&d="); data != std::string::npos) {
      fragment.resize(data);
      std::fprintf(stderr, "muplay: the link carries its data set; the command line reads task.table.file from this "
                   "folder (put the file here)\n");
    }
    const LinkResult r = spec_from_link(fragment, limits);
    out = r;
    if (r.ok() && r.result_version != kResultVersion)
      std::fprintf(stderr, "muplay: the link was made by an engine of result version %d (this one's is %d): its "
                   "numbers may differ\n", r.result_version, kResultVersion);
    return out.ok();
  }
  std::string text;
  if (!read_text_file(path, text)) {
    out.errors.push_back("cannot read " + path);
    return false;
  }
  SpecLimits beside_the_spec = limits;  // a table task's file is named relative to the spec
  const size_t slash = path.find_last_of('/');
  beside_the_spec.table_dir = slash == std::string::npos ? "." : path.substr(0, slash);
  out = read_spec_text(text, beside_the_spec);  // older spec versions are migrated
  return out.ok();
}

int report_errors(const std::string& path, const SpecResult& r) {
  for (const std::string& e : r.errors) std::fprintf(stderr, "%s: %s\n", path.c_str(), e.c_str());
  return 2;
}

// The command line has no GPU, so the link pins what the spec trains on here: the CPU, unless it asks for webgpu.
int cmd_link(const std::string& path, const SpecLimits& limits) {
  SpecResult r;
  if (!load_spec(path, limits, r)) return report_errors(path, r);
  r.spec.backend = resolved_backend(r.spec.backend, nullptr);
  std::printf("%s\n", spec_to_link(r.spec).c_str());
  return 0;
}

int cmd_validate(const std::string& path, const SpecLimits& limits) {
  SpecResult r;
  if (!load_spec(path, limits, r)) return report_errors(path, r);
  std::printf("%s: valid (%s); about %.3g GFLOP, %s at an assumed %.3g GFLOP/s, %.0f MB\n", path.c_str(),
              r.spec.name.c_str(), estimate_flops(r.spec) / 1e9,
              describe_duration(estimate_seconds(r.spec, limits.budget)).c_str(), limits.budget.flops_per_second / 1e9,
              estimate_memory_bytes(r.spec) / 1e6);
  return 0;
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  return bool(out << text);
}

json::Value answer_shares_json(const AnswerShares& a) {
  json::Value v = json::Value::make_object();
  v.set("label", json::Value::make_number(a.label));
  v.set("other_token", json::Value::make_number(a.other_token));
  v.set("elsewhere", json::Value::make_number(a.elsewhere));
  return v;
}

// model.transformer.attention_cut: each trained Transformer's answers on its test set with and without the cut, as
// an "attention_cut" object of its run in the result document.
void add_attention_cuts(Runner& runner, json::Value& results) {
  const AttentionCut& cut = runner.spec().model.transformer.attention_cut;
  for (auto& [key, runs] : results.object) {
    if (key != "runs") continue;
    for (size_t i = 0; i < runs.array.size() && i < runner.members().size(); i++) {
      AnchorTrainer* trainer = runner.members()[i]->transformer();
      if (!trainer || runner.members()[i]->status() != RunStatus::finished) continue;
      const CutResult r = attention_cut_experiment(trainer->model(), trainer->data().test, cut);
      json::Value v = json::Value::make_object();
      v.set("sequences", json::Value::make_number(r.sequences));
      v.set("intact", answer_shares_json(r.intact));
      v.set("cut", answer_shares_json(r.cut));
      v.set("changed", json::Value::make_number(r.changed));
      runs.array[i].set("attention_cut", v);
    }
  }
}

int cmd_run(const std::string& path, const SpecLimits& limits, const std::string& out_path, const std::string& csv_path,
            bool quiet, int threads) {
  SpecResult r;
  if (!load_spec(path, limits, r)) return report_errors(path, r);
  Runner runner(r.spec, limits.fashion_mnist_dir);
  if (!runner.backend_note().empty()) std::fprintf(stderr, "%s: %s\n", path.c_str(), runner.backend_note().c_str());
  const long planned = runner.planned_steps();
  long next_report = planned / 20;
  WorkerPool pool(std::min(threads, int(runner.members().size())));
  // Members advance in slices of 1/20 of the schedule: few waits for the slowest member, and progress to report.
  const int slice = std::max(1, r.spec.schedule.steps / 20);
  while (runner.step_parallel(pool, slice, int(runner.members().size()))) {
    if (!quiet && runner.progress_steps() >= next_report) {
      std::fprintf(stderr, "\r%s: %3ld%% (%ld / %ld steps)", r.spec.name.c_str(), 100 * runner.progress_steps() / planned,
                   runner.progress_steps(), planned);
      next_report += planned / 20 + 1;
    }
  }
  int diverged = 0, failed = 0;
  for (const auto& run : runner.members()) {
    if (run->status() == RunStatus::diverged) {
      diverged++;
      if (!quiet) std::fprintf(stderr, "\n%s: diverged at step %d", run->label().c_str(), run->diverged_at());
    }
    if (run->status() == RunStatus::failed) {  // reported even with --quiet: it is an error, not an outcome
      failed++;
      std::fprintf(stderr, "\n%s: failed at step %d: %s", run->label().c_str(), run->steps_done(), run->error().c_str());
    }
  }
  if (!quiet || failed) std::fprintf(stderr, "\n%zu runs, %d diverged, %d failed\n", runner.members().size(), diverged, failed);
  json::Value results = runner.results();
  if (r.spec.model.transformer.has_attention_cut) add_attention_cuts(runner, results);
  const std::string text = result_file_text(results);
  if (out_path.empty()) std::fwrite(text.data(), 1, text.size(), stdout);
  else if (!write_file(out_path, text)) return bad_input("cannot write " + out_path);
  if (!csv_path.empty() && !write_file(csv_path, results_csv(results))) return bad_input("cannot write " + csv_path);
  return diverged || failed ? 1 : 0;
}

int cmd_export_init(const std::string& path, const SpecLimits& limits, const std::string& out_path) {
  SpecResult r;
  if (!load_spec(path, limits, r)) return report_errors(path, r);
  const Runner runner(r.spec, limits.fashion_mnist_dir);  // not stepped: every model is at init
  const std::string text = json::write(init_document(runner)) + "\n";
  if (out_path.empty()) std::fwrite(text.data(), 1, text.size(), stdout);
  else if (!write_file(out_path, text)) return bad_input("cannot write " + out_path);
  return 0;
}

// Every (width, seed) of the sweep, scanned on the grid; {"members": [{"width", "seed", "max_lr", "trials"}]}.
int cmd_max_lr(const std::string& path, const SpecLimits& limits, double lo, double hi, const std::string& out_path) {
  if (!(lo > 0 && hi >= lo)) return bad_input("max-lr needs --lo and --hi with 0 < LO <= HI (see muplay --help)");
  SpecResult r;
  if (!load_spec(path, limits, r)) return report_errors(path, r);
  const std::vector<double> grid = log2_grid(lo, hi, 4);
  const std::vector<int> widths = r.spec.sweep.width.empty() ? std::vector<int>{0} : r.spec.sweep.width;
  json::Value members = json::Value::make_array();
  for (int width : widths) {
    for (uint64_t seed : r.spec.sweep.seeds) {
      const LrScan scan = max_stable_lr(r.spec, width, seed, grid);
      json::Value trials = json::Value::make_array();
      for (const LrTrial& t : scan.trials) {
        json::Value trial = json::Value::make_object();
        trial.set("lr", json::Value::make_number(t.lr));
        trial.set("why", json::Value::make_string(t.why));
        trials.push(trial);
      }
      json::Value m = json::Value::make_object();
      m.set("width", json::Value::make_number(width));
      m.set("seed", json::Value::make_number(double(seed)));
      m.set("max_lr", json::Value::make_number(scan.max_lr));
      m.set("trials", trials);
      members.push(m);
    }
  }
  json::Value doc = json::Value::make_object();
  doc.set("members", members);
  const std::string text = json::write(doc) + "\n";
  if (out_path.empty()) std::fwrite(text.data(), 1, text.size(), stdout);
  else if (!write_file(out_path, text)) return bad_input("cannot write " + out_path);
  return 0;
}

// What `muplay export WORD` says when WORD is not "torch": the formats there are, and where the spec goes.
std::string export_format_problem(const std::string& word) {
  const std::string usage = "`muplay export torch SPEC.json --out DIR` writes a PyTorch project (the one format; "
                            "`muplay export-init SPEC.json` writes the initial weights)";
  if (word.empty()) return "export needs a format: " + usage;
  if (word.find('.') != std::string::npos || std::filesystem::exists(word) || !link_fragment(word).empty())
    return "export needs a format before the spec: " + usage;
  return "export has no format '" + word + "': " + usage;
}

// The names of `files` that already exist in `dir` ("" when none does), for the message that will not overwrite them.
std::string existing_files(const std::string& dir, const std::vector<ExportFile>& files) {
  std::string names;
  for (const ExportFile& f : files)
    if (std::filesystem::exists(dir + "/" + f.path)) names += (names.empty() ? "" : ", ") + f.path;
  return names;
}

// The export trains elsewhere, so the sweep's memory and time here are not its limits; a field's own range still
// is, and past it train.py's options take over.
int cmd_export_torch(const std::string& path, const SpecLimits& limits, const std::string& out_dir, bool force) {
  if (out_dir.empty()) return bad_input("export torch needs --out DIR (see muplay --help)");
  SpecLimits export_limits = limits;
  export_limits.host_budgets = false;
  SpecResult r;
  if (!load_spec(path, export_limits, r)) {
    const bool past_a_range = std::any_of(r.errors.begin(), r.errors.end(), [](const std::string& e) {
      return e.find(" is not in [") != std::string::npos;
    });
    if (past_a_range)
      r.errors.push_back("to go past these ranges, export the spec within them and give train.py the large values: "
                         "--widths, --depths, --lrs, --seeds, --steps (examples/README.md, \"PyTorch export\")");
    return report_errors(path, r);
  }
  std::vector<std::string> errors;
  const std::vector<ExportFile> files = export_torch_project(r.spec, errors);
  if (!errors.empty()) {
    r.errors = errors;
    return report_errors(path + " (export torch)", r);
  }
  if (const std::string there = existing_files(out_dir, files); !there.empty() && !force)
    return bad_input(out_dir + " already has " + there + ": choose another --out, or add --force to overwrite them");
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  std::string written;
  for (const ExportFile& f : files) {
    const std::string file = out_dir + "/" + f.path;
    std::filesystem::create_directories(std::filesystem::path(file).parent_path(), ec);
    if (!write_file(file, f.text)) return bad_input("cannot write " + file);
    written += (written.empty() ? "" : ", ") + f.path;
  }
  std::fprintf(stderr, "muplay: wrote %s in %s; next: cd %s && python3 train.py\n", written.c_str(), out_dir.c_str(),
               out_dir.c_str());
  return 0;
}

int cmd_gpu_plan(const std::string& path, const SpecLimits& limits, const std::string& out_path) {
  SpecResult r;
  if (!load_spec(path, limits, r)) return report_errors(path, r);
  const std::string& data_dir = limits.fashion_mnist_dir;
  const bool transformer = is_transformer(r.spec.model.kind);
  const std::string text = json::write(transformer ? transformer_gpu_plan_document(r.spec, data_dir)
                                                   : mlp_gpu_plan_document(r.spec, data_dir)) + "\n";
  if (out_path.empty()) std::fwrite(text.data(), 1, text.size(), stdout);
  else if (!write_file(out_path, text)) return bad_input("cannot write " + out_path);
  return 0;
}

int cmd_presets(const std::string& dir, const SpecLimits& limits) {
  const std::vector<PresetFile> presets = list_presets(dir, limits);
  if (presets.empty()) return bad_input("no preset files (*.json) in " + dir);
  for (const PresetFile& p : presets) {
    std::printf("%-40s %s%s\n", p.path.c_str(), p.name.c_str(), p.errors.empty() ? "" : "  [INVALID]");
    for (const std::string& e : p.errors) std::printf("    %s\n", e.c_str());
  }
  return 0;
}

int cmd_names() {
  json::Value fields = json::Value::make_object();
  for (const auto& [path, names] : spec_choice_fields()) {
    json::Value list = json::Value::make_array();
    for (const std::string& name : names) list.push(json::Value::make_string(name));
    fields.set(path, list);
  }
  std::printf("%s\n", json::write(fields, 2).c_str());
  return 0;
}

int cmd_fields() {
  std::fputs(spec_fields_markdown().c_str(), stdout);
  return 0;
}

int cmd_reach() {
  std::fputs(reach_markdown().c_str(), stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  // "export torch" is one command of two words.
  const bool export_torch = !std::strcmp(argv[1], "export") && argc > 2 && !std::strcmp(argv[2], "torch");
  if (!std::strcmp(argv[1], "export") && !export_torch)
    return bad_input(export_format_problem(argc > 2 ? argv[2] : ""));
  const std::string cmd = export_torch ? "export torch" : argv[1];
  std::string positional, out_path, csv_path, dir = MUPLAY_EXAMPLES_DIR;
  bool quiet = false, force = false;
  double lo = 0, hi = 0;  // max-lr's grid
  int threads = WorkerPool::available_threads();
  for (int i = export_torch ? 3 : 2; i < argc; i++) {
    const std::string arg = argv[i];
    if (arg == "--threads" && i + 1 < argc) {
      char* end = nullptr;
      const long n = std::strtol(argv[++i], &end, 10);
      if (*end || n < 1 || n > 256) return bad_input(std::string("--threads needs a number from 1 to 256, not '") + argv[i] + "'");
      threads = int(n);
      continue;
    }
    if ((arg == "--lo" || arg == "--hi") && i + 1 < argc) {
      char* end = nullptr;
      (arg == "--lo" ? lo : hi) = std::strtod(argv[++i], &end);
      if (*end) return bad_input(arg + " needs a number, not '" + argv[i] + "'");
      continue;
    }
    if (arg == "--out" && i + 1 < argc) out_path = argv[++i];
    else if (arg == "--csv" && i + 1 < argc) csv_path = argv[++i];
    else if (arg == "--dir" && i + 1 < argc) dir = argv[++i];
    else if (arg == "--quiet") quiet = true;
    else if (arg == "--force" && export_torch) force = true;
    else if (!arg.empty() && arg[0] != '-' && positional.empty()) positional = arg;
    else return bad_input("unexpected argument '" + arg + "' (see muplay --help)");
  }
  const SpecLimits limits = command_line_limits();
  if (cmd == "presets") return cmd_presets(dir, limits);
  if (cmd == "names") return cmd_names();
  if (cmd == "fields") return cmd_fields();
  if (cmd == "reach") return cmd_reach();
  if (cmd == "export-init" && !positional.empty()) return cmd_export_init(positional, limits, out_path);
  if (cmd == "gpu-plan" && !positional.empty()) return cmd_gpu_plan(positional, limits, out_path);
  if (cmd == "export torch" && !positional.empty()) return cmd_export_torch(positional, limits, out_path, force);
  if (cmd == "max-lr" && !positional.empty()) return cmd_max_lr(positional, limits, lo, hi, out_path);
  if (cmd == "link" && !positional.empty()) return cmd_link(positional, limits);
  if (cmd != "run" && cmd != "validate" && cmd != "link" && cmd != "export-init" && cmd != "gpu-plan" && cmd != "export torch" &&
      cmd != "max-lr")
    return bad_input("unknown command '" + cmd + "' (see muplay --help)");
  if (positional.empty()) return bad_input(cmd + " needs a SPEC.json (see muplay --help)");
  return cmd == "run" ? cmd_run(positional, limits, out_path, csv_path, quiet, threads) : cmd_validate(positional, limits);
}
