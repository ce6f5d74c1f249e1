#include "engine/spec/spec.hpp"

#include <cstdio>

#include "engine/base/enum_names.hpp"
#include "engine/kernels/gemm_f32.hpp"
#include "engine/spec/memory_budget.hpp"
#include "engine/spec/metric_table.hpp"
#include "engine/spec/time_budget.hpp"
#include "engine/task/fashion_mnist.hpp"
#include "engine/task/phenomena_tasks.hpp"
#include "engine/task/table_task.hpp"

namespace {

constexpr size_t kMaxSweepMembers = 256;

// The files in the front end's folder, or the sizes it declared while they are not there yet.
FashionMnistFiles fashion_mnist_files(const SpecLimits& limits) {
  const FashionMnistFiles files = probe_fashion_mnist(limits.fashion_mnist_dir);
  if (!files.error.empty() && limits.fashion_mnist_train > 0)
    return FashionMnistFiles{limits.fashion_mnist_train, limits.fashion_mnist_test, ""};
  return files;
}

// The data must exist where the front end said, with enough images: say so before a run starts.
void check_fashion_mnist(const TaskConfig& t, const SpecLimits& limits, std::vector<std::string>& errors) {
  if (t.input_dim != kFashionMnistPixels)
    errors.push_back("task.input_dim: " + std::to_string(t.input_dim) + " is not 784 (fashion_mnist images are 28×28)");
  const FashionMnistFiles files = fashion_mnist_files(limits);
  if (!files.error.empty()) return errors.push_back("task.kind: fashion_mnist: " + files.error);
  if (t.train_size > files.train)
    errors.push_back("task.train_size: " + std::to_string(t.train_size) + " is more than the " +
                     std::to_string(files.train) + " training images of this build's Fashion-MNIST subset");
  if (t.test_size > files.test)
    errors.push_back("task.test_size: " + std::to_string(t.test_size) + " is more than the " +
                     std::to_string(files.test) + " test images of this build's Fashion-MNIST subset");
}

// Fields that only a Transformer on an anchor task reads, and the Transformer's own constraints.
void check_transformer(const ExperimentSpec& s, std::vector<std::string>& errors) {
  const bool transformer = is_transformer(s.model.kind);
  const bool anchor = s.task.kind == TaskKind::anchor;
  if (transformer && !anchor)
    errors.push_back(std::string("task.kind: \"") + task_name(s.task.kind) +
                     "\" is not a token task: a transformer trains on \"anchor\"");
  if (!transformer) return;
  const TransformerSpec& t = s.model.transformer;
  const Preset preset = s.parametrization.preset;
  if (preset != Preset::sp && preset != Preset::mup)
    errors.push_back(std::string("parametrization.preset: \"") + preset_name(preset) +
                     "\" is not defined for a transformer (use \"sp\" or \"mup\")");
  const std::vector<int> as_written{t.d_model};
  for (int d : s.sweep.width.empty() ? as_written : s.sweep.width)
    if (t.d_head == 0 && d % t.heads != 0)
      errors.push_back("model.transformer.heads: d_model " + std::to_string(d) + " is not divisible by " +
                       std::to_string(t.heads) + " heads (or set d_head)");
  const AttentionCut& cut = t.attention_cut;
  if (t.has_attention_cut && cut.layer > t.layers)
    errors.push_back("model.transformer.attention_cut.layer: " + std::to_string(cut.layer) + " is past the model's " +
                     std::to_string(t.layers) + " layers (layers count from 1)");
  if (t.has_attention_cut && cut.head > t.heads)
    errors.push_back("model.transformer.attention_cut.head: " + std::to_string(cut.head) + " is past the model's " +
                     std::to_string(t.heads) + " heads (heads count from 1; 0 cuts every head)");
  const AnchorTaskConfig& a = s.task.anchor;
  if ((a.kind == AnchorTaskKind::reading || a.kind == AnchorTaskKind::classification) && a.seq_len != 9)
    errors.push_back(std::string("task.anchor.seq_len: ") + std::to_string(a.seq_len) + " is not 9 (" +
                     anchor_task_name(a.kind) + " sequences are four pairs and a query)");
  if (a.kind == AnchorTaskKind::working_memory && a.seq_len < 6)
    errors.push_back("task.anchor.seq_len: " + std::to_string(a.seq_len) +
                     " is below 6 (working_memory needs a key, two anchors and up to three keys between them)");
  if ((a.kind == AnchorTaskKind::recite_previous || a.kind == AnchorTaskKind::recite_next) && a.seq_len < 4)
    errors.push_back("task.anchor.seq_len: " + std::to_string(a.seq_len) + " is below 4 (" +
                     anchor_task_name(a.kind) + " needs m, 3, n and the query)");
  if (a.kind == AnchorTaskKind::synonyms && s.task.train_size <= 4 * kSynonymRarePerPair)
    errors.push_back("task.train_size: " + std::to_string(s.task.train_size) + " is not above " +
                     std::to_string(4 * kSynonymRarePerPair) + " (synonyms trains 100 sequences of each pair with 9)");
}

// The phenomena tasks' targets and sizes, and the phenomena settings whose message states the spec's own values.
void check_phenomena(const ExperimentSpec& s, std::vector<std::string>& errors) {
  const TaskConfig& t = s.task;
  const std::string target = std::string("\"") + target_name(t.target) + "\"";
  if (t.kind == TaskKind::function_1d) {
    if (t.target == Target::none || t.target == Target::parity || t.target == Target::x1x2)
      errors.push_back("task.target: " + target + " is not a function_1d target (sin135, sin15, step, noisy_sin, "
                       "piecewise_relu, four_points)");
    if (t.input_dim != 1)
      errors.push_back("task.input_dim: " + std::to_string(t.input_dim) + " is not 1 (function_1d is a 1-D task)");
    if (t.target == Target::four_points && t.train_size != kFourPoints)
      errors.push_back("task.train_size: " + std::to_string(t.train_size) + " is not 4 (four_points has 4 points)");
  } else if (t.kind == TaskKind::boolean_cube) {
    if (t.target != Target::parity && t.target != Target::x1x2)
      errors.push_back("task.target: " + target + " is not a boolean_cube target (parity, x1x2)");
    if (t.input_dim < 2 || t.input_dim > kMaxCubeBits)
      errors.push_back("task.input_dim: " + std::to_string(t.input_dim) + " is not in [2, " +
                       std::to_string(kMaxCubeBits) + "] (boolean_cube bits)");
    else if (t.train_size + t.test_size > (1 << t.input_dim))
      errors.push_back("task.test_size: train_size + test_size = " + std::to_string(t.train_size + t.test_size) +
                       " is more than the " + std::to_string(1 << t.input_dim) + " corners of {-1,1}^" +
                       std::to_string(t.input_dim));
  }
  const ParametrizationSpec& p = s.parametrization;
  if (p.preset == Preset::two_layer_gamma && s.model.widths.size() != 1)
    errors.push_back("parametrization.preset: two_layer_gamma is defined for exactly 1 hidden layer, the model has " +
                     std::to_string(s.model.widths.size()));
  if (s.optimizer.kind == OptimizerKind::gd_auto && s.optimizer.lr >= 2)
    errors.push_back("optimizer.lr: " + json::write(json::Value::make_number(s.optimizer.lr)) + " is not below 2 (gd_auto takes the step lr/lambda_max;"
                     " GD is unstable from 2/lambda_max on)");
  if (t.kind == TaskKind::image_2d) {
    if (t.input_dim != 2)
      errors.push_back("task.input_dim: " + std::to_string(t.input_dim) + " is not 2 (image_2d: the pixel position)");
    if (image_2d_side(t) == 0)
      errors.push_back("task.train_size: " + std::to_string(t.train_size) + " is not side^2/2 for an even side "
                       "(image_2d trains on the odd columns of a side x side image: 512 for 32 x 32)");
    if (t.test_size != t.train_size)
      errors.push_back("task.test_size: " + std::to_string(t.test_size) + " is not train_size (image_2d tests on the "
                       "even columns)");
  }
  if (t.gradient_loss && !activation_has_second_derivative(s.model.activation))
    errors.push_back(std::string("task.gradient_loss: needs phi'' of the activation; ") +
                     activation_name(s.model.activation) + " is not supported (use tanh, sigmoid, softplus, ...)");
}

// A residual_mlp: one width, and a width preset that is an abc table for any number of layers. (What else it does
// not combine with: its fields' rows, kRules and the metric rows.)
void check_residual(const ExperimentSpec& s, std::vector<std::string>& errors) {
  const ParametrizationSpec& p = s.parametrization;
  if (!has_residual_blocks(s.model.kind)) return;
  if (s.model.widths.size() != 1)
    errors.push_back("model.widths: a residual_mlp has one width (its blocks' and stream's), not " +
                     std::to_string(s.model.widths.size()) + "; model.depth sets the number of blocks");
  const Preset preset = p.preset;
  if (preset != Preset::sp && preset != Preset::sp_lr_over_n && preset != Preset::ntp && preset != Preset::mup)
    errors.push_back(std::string("parametrization.preset: ") + preset_name(preset) +
                     " is not for a residual_mlp (sp, sp_lr_over_n, ntp or mup: tables for any depth)");
}

// Each field set away from its default where its row says it means nothing ("PATH: only for WHAT").
void check_fields_in_use(const ExperimentSpec& s, std::vector<std::string>& errors) {
  for (const SpecField& f : spec_fields())
    if (f.used && !f.used(s) && field_is_set(f, s)) errors.push_back(f.path + ": only for " + f.used_by);
}

// Settings that do not combine, one rule each: the field its message names, when the spec breaks it, and why.
// (Rules whose message states the spec's numbers are in the check_* functions above.)
struct Rule {
  const char* path;
  bool (*broken)(const ExperimentSpec& s);
  const char* message;
};

using S = const ExperimentSpec&;
bool regression(S s) { return !task_is_classification(s.task); }
bool full_batch(S s) { return s.schedule.batch_size == 0 || s.schedule.batch_size == s.task.train_size; }
bool gd_auto(S s) { return s.optimizer.kind == OptimizerKind::gd_auto; }
bool transformer_mup(S s) {
  return is_transformer(s.model.kind) && s.parametrization.preset == Preset::mup;
}
bool smooth_1d_target(S s) {
  return s.task.kind == TaskKind::function_1d && (s.task.target == Target::sin135 || s.task.target == Target::sin15);
}

const Rule kRules[] = {
    {"task.kind", [](S s) { return s.task.kind == TaskKind::anchor && !is_transformer(s.model.kind); },
     "\"anchor\" needs model.kind \"transformer\""},
    {"parametrization.preset", [](S s) { return transformer_mup(s) && s.optimizer.kind == OptimizerKind::sgd; },
     "muP for a transformer follows the Adam table: use optimizer.kind \"adam\" or \"adamw\""},
    {"model.transformer.init", [](S s) { return transformer_mup(s) && s.model.transformer.init == InitScheme::gamma; },
     "\"gamma\" sets every init itself and needs preset \"sp\" (with muP use init \"pytorch\")"},
    {"task.center_target", [](S s) { return s.task.center_target && !regression(s); }, "needs a regression task"},
    {"schedule.stop_loss_ratio", [](S s) { return s.schedule.stop_loss_ratio > 0 && !regression(s); },
     "needs a regression task (it compares with the zero predictor)"},
    {"optimizer.kind", [](S s) { return gd_auto(s) && !full_batch(s); },
     "gd_auto is full-batch gradient descent, schedule.batch_size must be 0"},
    {"optimizer.kind", [](S s) { return gd_auto(s) && !regression(s); }, "gd_auto needs a regression task (MSE)"},
    // The exact Hessian-vector product (engine/metrics/hessian_vector.hpp) is a plain MLP's: no skips or norm.
    {"optimizer.kind", [](S s) { return gd_auto(s) && has_residual_blocks(s.model.kind); },
     "gd_auto is not for a residual_mlp (its λ_max comes from a Hessian-vector product without skips)"},
    {"model.biases", [](S s) { return s.model.biases && s.model.asi; },
     "not with model.asi (the two copies would share one readout bias)"},
    {"model.biases", [](S s) { return s.model.biases && s.task.gradient_loss; },
     "not with task.gradient_loss (its backward pass has no bias terms)"},
    {"model.dropout", [](S s) { return s.model.dropout > 0 && gd_auto(s); },
     "not with gd_auto (its step size comes from the loss without dropout)"},
    {"task.gradient_loss", [](S s) { return s.task.gradient_loss && !smooth_1d_target(s); },
     "needs a function_1d task with a smooth target (sin135, sin15)"},
    {"task.gradient_loss", [](S s) { return s.task.gradient_loss && !full_batch(s); },
     "full batch only, schedule.batch_size must be 0"},
    {"task.gradient_loss", [](S s) { return s.task.gradient_loss && has_residual_blocks(s.model.kind); },
     "not for a residual_mlp"},
    {"task.gradient_loss", [](S s) { return s.task.gradient_loss && gd_auto(s); },
     "not with gd_auto (its Hessian is that of the plain MSE)"},
    {"task.gradient_loss", [](S s) { return s.task.gradient_loss && s.model.dropout > 0; }, "not with model.dropout"},
};

void check_rules(const ExperimentSpec& s, std::vector<std::string>& errors) {
  for (const Rule& rule : kRules)
    if (rule.broken(s)) errors.push_back(std::string(rule.path) + ": " + rule.message);
}

}  // namespace

std::vector<std::string> check_spec(const ExperimentSpec& s, const SpecLimits& limits) {
  std::vector<std::string> errors;
  const int layers = int(s.model.widths.size()) + 1;
  if (s.version != kSpecVersion)
    errors.push_back("version: " + std::to_string(s.version) + " is not supported (this build reads version " +
                     std::to_string(kSpecVersion) + ")");
  check_fields_in_use(s, errors);
  check_rules(s, errors);
  if (s.parametrization.preset == Preset::custom && int(s.parametrization.custom.size()) != layers)
    errors.push_back("parametrization.custom: has " + std::to_string(s.parametrization.custom.size()) +
                     " layers, the model has " + std::to_string(layers) + " weight matrices (hidden layers + 1)");
  if (s.parametrization.preset == Preset::mfp && s.model.widths.size() != 1)
    errors.push_back("parametrization.preset: mfp is defined for exactly 1 hidden layer, the model has " +
                     std::to_string(s.model.widths.size()));
  if (s.task.kind == TaskKind::sectors && s.task.input_dim != 2)
    errors.push_back("task.input_dim: " + std::to_string(s.task.input_dim) + " is not 2 (sectors is a 2-D task)");
  if (s.task.kind == TaskKind::fashion_mnist) check_fashion_mnist(s.task, limits, errors);
  if (s.task.kind == TaskKind::table)
    for (const std::string& e : table_task_errors(s.task)) errors.push_back(e);
  if (s.task.kind == TaskKind::skipgram && (s.task.input_dim < 4 || s.task.input_dim % 2 != 0))
    errors.push_back("task.input_dim: " + std::to_string(s.task.input_dim) +
                     " is not an even number >= 4 (skipgram: the vocabulary, two clusters of equal size)");
  if (s.task.kind == TaskKind::skipgram && s.schedule.batch_size > s.task.input_dim)
    errors.push_back("schedule.batch_size: " + std::to_string(s.schedule.batch_size) +
                     " is larger than the skipgram vocabulary (task.input_dim " + std::to_string(s.task.input_dim) +
                     "): one example per word");
  if (s.schedule.batch_size > s.task.train_size)
    errors.push_back("schedule.batch_size: " + std::to_string(s.schedule.batch_size) +
                     " is larger than task.train_size " + std::to_string(s.task.train_size));
  check_metrics(s, errors);
  check_transformer(s, errors);
  check_phenomena(s, errors);
  check_residual(s, errors);
  const size_t members = sweep_size(s);
  if (members > kMaxSweepMembers)
    errors.push_back("sweep: " + std::to_string(members) + " runs (width × lr × seeds" +
                     (is_transformer(s.model.kind) ? " × gamma × weight_decay" : "") +
                     (s.sweep.phase_points.empty() ? "" : " × phase_points") + "), more than " +
                     std::to_string(kMaxSweepMembers));
  if (members > kMaxSweepMembers || !limits.host_budgets) return errors;  // the budgets go through every member
  const double bytes = estimate_memory_bytes(s);
  if (bytes > kMemoryBudgetBytes) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "needs about %.0f MB of memory, more than the limit of %.0f MB: "
                  "use smaller widths, batch or sweep", bytes / 1e6, kMemoryBudgetBytes / 1e6);
    errors.push_back(std::string("sweep: ") + buf);
  }
  check_time_budget(s, limits.budget, errors);
  return errors;
}


namespace {

// The path's last name ("batch_size" of "schedule.batch_size") and the object holding it ("schedule"; "" for the
// document itself).
std::string leaf_of(const std::string& path) { return path.substr(path.rfind('.') + 1); }
std::string parent_of(const std::string& path) {
  const size_t dot = path.rfind('.');
  return dot == std::string::npos ? "" : path.substr(0, dot);
}

// The value at `path`; null when it is absent or an object on the way is not an object (its own row says so).
const json::Value* value_at(const json::Value& doc, const std::string& path) {
  const std::string parent = parent_of(path);
  const json::Value* holder = parent.empty() ? &doc : value_at(doc, parent);
  return holder && holder->is_object() ? holder->find(leaf_of(path)) : nullptr;
}

// Keys that no row names, inside the objects the table has.
void unknown_fields(const json::Value& object, const std::string& path, std::vector<std::string>& errors) {
  for (const auto& [key, value] : object.object) {
    const std::string at = path.empty() ? key : path + "." + key;
    const SpecField* f = key.find('.') == std::string::npos ? spec_field(at) : nullptr;
    if (!f) errors.push_back(at + ": unknown field");
    else if (f->kind == FieldKind::object && value.is_object()) unknown_fields(value, at, errors);
  }
}

// A table task's files, read from the front end's folder; the spec learns their hashes and sizes if it did not name
// them.
void read_table_of(TaskConfig& task, const SpecLimits& limits) {
  if (task.kind != TaskKind::table) return;
  auto read = [&](const std::string& file, std::string& sha256, int& bytes) -> std::shared_ptr<const TableFile> {
    if (file.empty()) return nullptr;
    const std::string& dir = limits.table_dir;
    auto read = read_table_file(dir.empty() || file[0] == '/' ? file : dir + "/" + file);
    if (sha256.empty() && read->error.empty()) sha256 = read->sha256, bytes = int(read->bytes);
    return read;
  };
  task.table_file = read(task.table.file, task.table.sha256, task.table.bytes);
  task.test_table_file = read(task.table.test_file, task.table.test_sha256, task.table.test_bytes);
}

bool is_written(const SpecField& f, const ExperimentSpec& s) { return f.written ? f.written(s) : field_is_set(f, s); }

// The fields of the object at `path`, in the table's order: those its rows write, or with `every_field` all of them.
json::Value write_object(const std::string& path, const ExperimentSpec& s, bool every_field) {
  json::Value out = json::Value::make_object();
  for (const SpecField& f : spec_fields()) {
    if (parent_of(f.path) != path) continue;
    if (f.kind == FieldKind::object) {
      if (is_written(f, s)) out.set(leaf_of(f.path), write_object(f.path, s, every_field));
    } else if (every_field || is_written(f, s)) {
      out.set(leaf_of(f.path), f.write(s));
    }
  }
  return out;
}

}  // namespace

SpecResult parse_spec(const json::Value& v, const SpecLimits& limits) {
  SpecResult out;
  std::vector<std::string>& errors = out.errors;
  if (!v.is_object()) {
    errors.push_back(std::string(": expected an object, got ") + json::type_name(v.type));
    return out;
  }
  if (!v.find("version"))
    errors.push_back("version: missing (this build reads version " + std::to_string(kSpecVersion) + ")");
  for (const SpecField& f : spec_fields())
    if (const json::Value* value = value_at(v, f.path)) f.read(*value, f.path, out.spec, errors);
  unknown_fields(v, "", errors);
  if (errors.empty()) read_table_of(out.spec.task, limits);
  if (errors.empty()) errors = check_spec(out.spec, limits);
  return out;
}

SpecResult parse_spec_text(const std::string& text, const SpecLimits& limits) {
  json::ParseResult parsed = json::parse(text);
  if (!parsed.ok()) {
    SpecResult out;
    out.errors.push_back("not valid JSON: " + parsed.error);
    return out;
  }
  return parse_spec(parsed.value, limits);
}

json::Value spec_to_json(const ExperimentSpec& s) { return write_object("", s, false); }
json::Value spec_to_json_every_field(const ExperimentSpec& s) { return write_object("", s, true); }
