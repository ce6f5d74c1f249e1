#include "engine/spec/spec.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>

#include "engine/base/enum_names.hpp"
#include "engine/kernels/gemm_f32.hpp"
#include "engine/spec/memory_budget.hpp"
#include "engine/spec/metric_table.hpp"
#include "engine/spec/time_budget.hpp"
#include "engine/task/fashion_mnist.hpp"
#include "engine/task/phenomena_tasks.hpp"

namespace {

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", x);
  return buf;
}

std::string describe(const json::Value& v) {
  switch (v.type) {
    case json::Type::number: return num(v.number);
    case json::Type::string: return "\"" + v.string.substr(0, 40) + (v.string.size() > 40 ? "…\"" : "\"");
    default: return json::type_name(v.type);
  }
}

// Reads the fields of one JSON object into a struct, collecting errors with full paths.
// Every key read is remembered; finish() reports the keys nobody asked for as unknown fields.
class ObjectReader {
 public:
  ObjectReader(const json::Value* obj, std::string path, std::vector<std::string>& errors)
      : obj_(obj), path_(std::move(path)), errors_(errors) {
    if (obj_ && !obj_->is_object()) {
      error(path_, std::string("expected an object, got ") + json::type_name(obj_->type));
      obj_ = nullptr;
    }
  }

  const json::Value* field(const char* key) {
    read_.push_back(key);
    return obj_ ? obj_->find(key) : nullptr;
  }
  std::string at(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

  void number(const char* key, double& out, double lo, double hi) {
    if (const json::Value* v = field(key)) read_number(*v, at(key), out, lo, hi);
  }
  void integer(const char* key, int& out, int lo, int hi) {
    if (const json::Value* v = field(key)) read_integer(*v, at(key), out, lo, hi);
  }
  void boolean(const char* key, bool& out) {
    const json::Value* v = field(key);
    if (!v) return;
    if (v->type == json::Type::boolean) out = v->boolean;
    else error(at(key), "expected true or false, got " + describe(*v));
  }
  void text(const char* key, std::string& out, size_t max_len) {
    const json::Value* v = field(key);
    if (!v) return;
    if (!v->is_string()) error(at(key), "expected a string, got " + describe(*v));
    else if (v->string.size() > max_len) error(at(key), "longer than " + std::to_string(max_len) + " characters");
    else out = v->string;
  }
  template <class Enum, size_t N>
  void choice(const char* key, Enum& out, const EnumName<Enum> (&allowed)[N]) {
    const json::Value* v = field(key);
    if (!v || (v->is_string() && enum_value(allowed, v->string, out))) return;
    std::string names;
    for (const EnumName<Enum>& row : allowed) names += std::string(names.empty() ? "" : ", ") + row.name;
    error(at(key), describe(*v) + " is not one of " + names);
  }

  void finish() {
    if (!obj_) return;
    for (const auto& kv : obj_->object) {
      bool known = false;
      for (const std::string& k : read_) known = known || k == kv.first;
      if (!known) error(at(kv.first.c_str()), "unknown field");
    }
  }

  void error(const std::string& where, const std::string& what) { errors_.push_back(where + ": " + what); }

  void read_number(const json::Value& v, const std::string& where, double& out, double lo, double hi) {
    if (!v.is_number()) return error(where, "expected a number, got " + describe(v));
    if (!(v.number >= lo && v.number <= hi))
      return error(where, num(v.number) + " is not in [" + num(lo) + ", " + num(hi) + "]");
    out = v.number;
  }
  void read_integer(const json::Value& v, const std::string& where, int& out, int lo, int hi) {
    double x = out;
    if (!v.is_number()) return error(where, "expected an integer, got " + describe(v));
    if (v.number != std::floor(v.number)) return error(where, num(v.number) + " is not an integer");
    read_number(v, where, x, lo, hi);
    out = int(x);
  }

 private:
  const json::Value* obj_;
  std::string path_;
  std::vector<std::string>& errors_;
  std::vector<std::string> read_;
};

// An array field whose items are read by `item(value, path, index)`.
template <class Fn>
void read_array(ObjectReader& r, const char* key, size_t max_items, Fn item, bool* present = nullptr) {
  const json::Value* v = r.field(key);
  if (present) *present = v != nullptr;
  if (!v) return;
  if (!v->is_array()) return r.error(r.at(key), std::string("expected an array, got ") + json::type_name(v->type));
  if (v->array.size() > max_items)
    return r.error(r.at(key), std::to_string(v->array.size()) + " items, more than " + std::to_string(max_items));
  for (size_t i = 0; i < v->array.size(); i++) item(v->array[i], r.at(key) + "[" + std::to_string(i) + "]");
}

constexpr int kMaxWidth = 16384;
constexpr int kMaxDepth = 256;  // residual blocks of a residual_mlp
constexpr int kMaxHiddenLayers = 16;
constexpr size_t kMaxSweepMembers = 256;
constexpr double kMinGamma = -4, kMaxGamma = 4;

// Two booleans of TransformerSpec that the JSON names: pre_ln ("norm") and uniform ("init_distribution").
constexpr EnumName<bool> kNormNames[] = {{true, "pre"}, {false, "post"}};
constexpr EnumName<bool> kDistributionNames[] = {{false, "normal"}, {true, "uniform"}};
// model.transformer.activation allows fewer activations than model.activation: relu and gelu only.
constexpr EnumName<Activation> kTransformerActivations[] = {enum_row(kActivationNames, Activation::relu),
                                                            enum_row(kActivationNames, Activation::gelu)};

const char* norm_name(bool pre_ln) { return enum_name(kNormNames, pre_ln); }
const char* distribution_name(bool uniform) { return enum_name(kDistributionNames, uniform); }

void read_transformer(ObjectReader& r, TransformerSpec& t, std::vector<std::string>& errors) {
  r.integer("layers", t.layers, 1, 16);
  r.integer("d_model", t.d_model, 1, 4096);
  r.integer("heads", t.heads, 1, 64);
  r.integer("d_head", t.d_head, 0, 4096);
  r.integer("d_ff", t.d_ff, 1, 16384);
  r.choice("activation", t.activation, kTransformerActivations);
  r.choice("norm", t.pre_ln, kNormNames);
  r.boolean("attention_bias", t.attention_bias);
  r.boolean("mlp_bias", t.mlp_bias);
  r.boolean("output_bias", t.output_bias);
  r.choice("init", t.init, kInitSchemeNames);
  r.number("gamma", t.gamma, 0, 3);
  r.choice("init_distribution", t.uniform, kDistributionNames);
  r.boolean("zero_readout", t.zero_readout);
  r.choice("attention_scale", t.attention_scale, kAttentionScaleNames);
  t.has_attention_cut = r.field("attention_cut") != nullptr;
  ObjectReader cut(r.field("attention_cut"), r.at("attention_cut"), errors);
  cut.integer("layer", t.attention_cut.layer, 1, 16);
  cut.integer("head", t.attention_cut.head, 0, 64);
  cut.choice("target", t.attention_cut.target, kCutTargetNames);
  cut.finish();
  r.finish();
}

void read_anchor(ObjectReader& r, AnchorTaskConfig& a) {
  r.choice("kind", a.kind, kAnchorTaskNames);
  r.integer("vocab", a.vocab, kAnchorMinVocab, 1024);
  r.integer("seq_len", a.seq_len, 3, 64);
  r.integer("ood_test_size", a.ood_test_size, 1, 100000);
  r.integer("modulus", a.modulus, 2, 64);
  r.finish();
}

void read_model(ObjectReader& r, ModelSpec& m, std::vector<std::string>& errors) {
  bool present = false;
  std::vector<int> widths;
  read_array(r, "widths", kMaxHiddenLayers, [&](const json::Value& v, const std::string& at) {
    int w = 0;
    r.read_integer(v, at, w, 1, kMaxWidth);
    widths.push_back(w);
  }, &present);
  if (present) {
    if (widths.empty()) r.error(r.at("widths"), "needs at least one hidden layer");
    m.widths = widths;
  }
  r.choice("activation", m.activation, kActivationNames);
  r.boolean("input_bias", m.input_bias);
  r.choice("kind", m.kind, kModelKindNames);
  ObjectReader t(r.field("transformer"), r.at("transformer"), errors);
  read_transformer(t, m.transformer, errors);
  r.number("activation_param", m.activation_param, 1e-6, 1e6);
  r.boolean("asi", m.asi);
  r.number("dropout", m.dropout, 0, 0.95);
  r.boolean("biases", m.biases);
  r.integer("depth", m.depth, 1, kMaxDepth);
  r.integer("block_depth", m.block_depth, 1, 2);
  r.boolean("block_norm", m.block_norm);
  r.finish();
}

void read_parametrization(ObjectReader& r, ParametrizationSpec& p, std::vector<std::string>& errors) {
  r.choice("preset", p.preset, kPresetNames);
  r.number("theta", p.theta, -2, 2);
  r.number("init_scale", p.init_scale, 1e-12, 1e6);
  r.choice("init_scale_layers", p.init_scale_layers, kInitScaleLayersNames);
  r.number("gamma", p.gamma, kMinGamma, kMaxGamma);
  r.number("gamma_prime", p.gamma_prime, kMinGamma, kMaxGamma);
  r.choice("depth_rule", p.depth_rule, kDepthRuleNames);
  r.number("depth_alpha", p.depth_alpha, -4, 4);
  r.number("depth_gamma", p.depth_gamma, -4, 4);
  read_array(r, "custom", kMaxHiddenLayers + 1, [&](const json::Value& v, const std::string& at) {
    Abc e;
    ObjectReader layer(&v, at, errors);
    layer.number("a", e.a, -4, 4);
    layer.number("b", e.b, -4, 4);
    layer.number("c", e.c, -4, 4);
    layer.finish();
    p.custom.push_back(e);
  });
  r.finish();
}

void read_task(ObjectReader& r, TaskConfig& t, std::vector<std::string>& errors) {
  r.choice("kind", t.kind, kTaskNames);
  ObjectReader anchor(r.field("anchor"), r.at("anchor"), errors);
  read_anchor(anchor, t.anchor);
  r.choice("target", t.target, kTargetNames);
  r.number("noise", t.noise, 0, 100);
  r.boolean("center_target", t.center_target);
  r.boolean("gradient_loss", t.gradient_loss);
  r.number("filter_width", t.filter_width, 1e-6, 1e6);
  r.integer("input_dim", t.input_dim, 1, 4096);
  r.integer("train_size", t.train_size, 1, 100000);
  r.integer("test_size", t.test_size, 1, 100000);
  r.number("frequency", t.frequency, 0, 1000);
  r.integer("classes", t.classes, 2, 64);
  r.number("twist", t.twist, -100, 100);
  double seed = double(t.seed);
  r.number("seed", seed, 0, 9007199254740991.0);
  if (seed != std::floor(seed)) r.error(r.at("seed"), num(seed) + " is not an integer");
  t.seed = uint64_t(seed);
  r.boolean("data_per_seed", t.data_per_seed);
  r.finish();
}

void read_optimizer(ObjectReader& r, OptimizerConfig& o) {
  r.choice("kind", o.kind, kOptimizerNames);
  r.number("lr", o.lr, 1e-12, 1e6);
  r.number("momentum", o.momentum, 0, 0.9999);
  r.number("beta1", o.beta1, 0, 0.9999);
  r.number("beta2", o.beta2, 0, 0.999999);
  r.number("eps", o.eps, 1e-30, 1);
  r.number("weight_decay", o.weight_decay, 0, 100);
  r.finish();
}

void read_schedule(ObjectReader& r, ScheduleSpec& s) {
  r.integer("steps", s.steps, 1, 1000000);
  r.integer("batch_size", s.batch_size, 0, 100000);
  r.integer("record_every", s.record_every, 1, 1000000);
  r.number("divergence_loss", s.divergence_loss, 1e-6, 1e300);
  r.number("warmup_fraction", s.warmup_fraction, 0, 1);
  r.boolean("cosine", s.cosine);
  r.number("final_lr_fraction", s.final_lr_fraction, 0, 1);
  r.number("clip_norm", s.clip_norm, 0, 1e6);
  r.number("stop_loss_ratio", s.stop_loss_ratio, 0, 1);
  r.finish();
}

void read_sweep(ObjectReader& r, SweepSpec& s) {
  s.width.clear();
  read_array(r, "width", 64, [&](const json::Value& v, const std::string& at) {
    int w = 0;
    r.read_integer(v, at, w, 1, kMaxWidth);
    s.width.push_back(w);
  });
  s.lr.clear();
  read_array(r, "lr", 64, [&](const json::Value& v, const std::string& at) {
    double x = 0;
    r.read_number(v, at, x, 1e-12, 1e6);
    s.lr.push_back(x);
  });
  s.gamma.clear();
  read_array(r, "gamma", 64, [&](const json::Value& v, const std::string& at) {
    double x = 0;
    r.read_number(v, at, x, 0, 3);
    s.gamma.push_back(x);
  });
  s.weight_decay.clear();
  read_array(r, "weight_decay", 64, [&](const json::Value& v, const std::string& at) {
    double x = 0;
    r.read_number(v, at, x, 0, 100);
    s.weight_decay.push_back(x);
  });
  bool present = false;
  std::vector<uint64_t> seeds;
  read_array(r, "seeds", 64, [&](const json::Value& v, const std::string& at) {
    int x = 0;
    r.read_integer(v, at, x, 0, 2147483647);
    seeds.push_back(uint64_t(x));
  }, &present);
  if (present) {
    if (seeds.empty()) r.error(r.at("seeds"), "needs at least one seed");
    s.seeds = seeds;
  }
  s.depth.clear();
  read_array(r, "depth", 64, [&](const json::Value& v, const std::string& at) {
    int d = 0;
    r.read_integer(v, at, d, 1, kMaxDepth);
    s.depth.push_back(d);
  });
  s.phase_points.clear();
  read_array(r, "phase_points", 64, [&](const json::Value& v, const std::string& at) {
    if (!v.is_array() || v.array.size() != 2)
      return r.error(at, "expected a pair [gamma, gamma_prime], got " + describe(v));
    PhasePoint p;
    r.read_number(v.array[0], at + "[0]", p.gamma, kMinGamma, kMaxGamma);
    r.read_number(v.array[1], at + "[1]", p.gamma_prime, kMinGamma, kMaxGamma);
    s.phase_points.push_back(p);
  });
  r.finish();
}

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
  const bool transformer = s.model.kind == ModelKind::transformer;
  const bool anchor = s.task.kind == TaskKind::anchor;
  if (transformer && !anchor)
    errors.push_back(std::string("task.kind: \"") + task_name(s.task.kind) +
                     "\" is not a token task: a transformer trains on \"anchor\"");
  if (!transformer && anchor) errors.push_back("task.kind: \"anchor\" needs model.kind \"transformer\"");
  if (s.task.data_per_seed && !anchor)
    errors.push_back("task.data_per_seed: only for task.kind \"anchor\" (other tasks share one data set)");
  if (!transformer) {
    const ScheduleSpec plain;
    auto only = [&](bool used, const char* field) {
      if (used) errors.push_back(std::string(field) + ": only for model.kind \"transformer\"");
    };
    only(!s.sweep.gamma.empty(), "sweep.gamma");
    only(!s.sweep.weight_decay.empty(), "sweep.weight_decay");
    only(s.schedule.warmup_fraction != plain.warmup_fraction, "schedule.warmup_fraction");
    only(s.schedule.cosine != plain.cosine, "schedule.cosine");
    only(s.schedule.final_lr_fraction != plain.final_lr_fraction, "schedule.final_lr_fraction");
    only(s.schedule.clip_norm != plain.clip_norm, "schedule.clip_norm");
    only(s.model.transformer.has_attention_cut, "model.transformer.attention_cut");
    return;
  }
  const TransformerSpec& t = s.model.transformer;
  const Preset preset = s.parametrization.preset;
  if (preset != Preset::sp && preset != Preset::mup)
    errors.push_back(std::string("parametrization.preset: \"") + preset_name(preset) +
                     "\" is not defined for a transformer (use \"sp\" or \"mup\")");
  if (s.parametrization.theta != 0) errors.push_back("parametrization.theta: only for MLPs (use 0)");
  if (s.parametrization.init_scale_layers != InitScaleLayers::all)
    errors.push_back("parametrization.init_scale_layers: only for MLPs (a transformer's init_scale scales every tensor)");
  if (preset == Preset::mup && s.optimizer.kind == OptimizerKind::sgd)
    errors.push_back("parametrization.preset: muP for a transformer follows the Adam table: use optimizer.kind "
                     "\"adam\" or \"adamw\"");
  if (preset == Preset::mup && t.init == InitScheme::gamma)
    errors.push_back("model.transformer.init: \"gamma\" sets every init itself and needs preset \"sp\" "
                     "(with muP use init \"pytorch\")");
  if (t.init != InitScheme::gamma && !s.sweep.gamma.empty())
    errors.push_back("sweep.gamma: needs model.transformer.init \"gamma\"");
  if (t.init != InitScheme::gamma && t.uniform)
    errors.push_back("model.transformer.init_distribution: \"uniform\" applies to init \"gamma\" only");
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

// The phenomena fields (targets, the (γ, γ′) preset, gd_auto, stop_loss_ratio) only where they mean something.
void check_phenomena_toggles(const ExperimentSpec& s, std::vector<std::string>& errors);

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
  } else if (t.target != Target::none) {
    errors.push_back("task.target: only used with task kinds function_1d and boolean_cube");
  }
  if (t.center_target && task_is_classification(t.kind))
    errors.push_back("task.center_target: needs a regression task");
  const ParametrizationSpec& p = s.parametrization;
  if (p.preset == Preset::two_layer_gamma && s.model.widths.size() != 1)
    errors.push_back("parametrization.preset: two_layer_gamma is defined for exactly 1 hidden layer, the model has " +
                     std::to_string(s.model.widths.size()));
  if (p.preset != Preset::two_layer_gamma && (p.gamma != 0 || p.gamma_prime != 0))
    errors.push_back("parametrization.gamma: only used with preset \"two_layer_gamma\"");
  if (p.preset != Preset::two_layer_gamma && !s.sweep.phase_points.empty())
    errors.push_back("sweep.phase_points: only used with preset \"two_layer_gamma\"");
  if (s.optimizer.kind == OptimizerKind::gd_auto) {
    if (s.schedule.batch_size != 0 && s.schedule.batch_size != t.train_size)
      errors.push_back("optimizer.kind: gd_auto is full-batch gradient descent, schedule.batch_size must be 0");
    if (task_is_classification(t.kind)) errors.push_back("optimizer.kind: gd_auto needs a regression task (MSE)");
    if (s.optimizer.lr >= 2)
      errors.push_back("optimizer.lr: " + num(s.optimizer.lr) + " is not below 2 (gd_auto takes the step lr/lambda_max;"
                       " GD is unstable from 2/lambda_max on)");
  }
  if (s.schedule.stop_loss_ratio > 0 && task_is_classification(t.kind))
    errors.push_back("schedule.stop_loss_ratio: needs a regression task (it compares with the zero predictor)");
  check_phenomena_toggles(s, errors);
}

// A residual_mlp: one width, the width presets that are abc tables for any number of layers, none of the MLP's
// extras whose rule across blocks is not defined; the depth fields only with it.
void check_residual(const ExperimentSpec& s, std::vector<std::string>& errors) {
  const ParametrizationSpec& p = s.parametrization;
  if (s.model.kind != ModelKind::residual_mlp) {
    if (!s.sweep.depth.empty()) errors.push_back("sweep.depth: only used with model.kind \"residual_mlp\"");
    if (s.model.depth != ModelSpec{}.depth) errors.push_back("model.depth: only used with model.kind \"residual_mlp\"");
    if (s.model.block_depth != ModelSpec{}.block_depth)
      errors.push_back("model.block_depth: only used with model.kind \"residual_mlp\"");
    if (s.model.block_norm) errors.push_back("model.block_norm: only used with model.kind \"residual_mlp\"");
    if (p.depth_rule != DepthRule::standard || p.depth_alpha != 0.5 || p.depth_gamma != 0)
      errors.push_back("parametrization.depth_rule: only used with model.kind \"residual_mlp\"");
    return;
  }
  if (s.model.widths.size() != 1)
    errors.push_back("model.widths: a residual_mlp has one width (its blocks' and stream's), not " +
                     std::to_string(s.model.widths.size()) + "; model.depth sets the number of blocks");
  const Preset preset = p.preset;
  if (preset != Preset::sp && preset != Preset::sp_lr_over_n && preset != Preset::ntp && preset != Preset::mup)
    errors.push_back(std::string("parametrization.preset: ") + preset_name(preset) +
                     " is not for a residual_mlp (sp, sp_lr_over_n, ntp or mup: tables for any depth)");
  if (p.depth_rule != DepthRule::custom && (p.depth_alpha != 0.5 || p.depth_gamma != 0))
    errors.push_back("parametrization.depth_alpha: only used with depth_rule \"custom\"");
  if (s.model.asi) errors.push_back("model.asi: not for a residual_mlp");
  if (s.model.dropout > 0) errors.push_back("model.dropout: not for a residual_mlp");
  if (s.model.biases) errors.push_back("model.biases: not for a residual_mlp");
  if (s.task.gradient_loss) errors.push_back("task.gradient_loss: not for a residual_mlp");
  // The exact Hessian-vector product (engine/metrics/hessian_vector.hpp) is a plain MLP's: it has no skips or norm.
  // (The metrics a residual_mlp cannot record say so in their rows: engine/spec/metric_table.cpp.)
  if (s.optimizer.kind == OptimizerKind::gd_auto)
    errors.push_back("optimizer.kind: gd_auto is not for a residual_mlp (its λ_max comes from a Hessian-vector "
                     "product without skips)");
}

// ASI, dropout and the gradient-augmented loss, each only with the tasks and optimizers it is defined for.
void check_phenomena_toggles(const ExperimentSpec& s, std::vector<std::string>& errors) {
  const bool transformer = s.model.kind == ModelKind::transformer;
  if (s.model.asi && transformer) errors.push_back("model.asi: only for MLPs (model.kind \"mlp\")");
  if (s.model.dropout > 0 && transformer) errors.push_back("model.dropout: only for MLPs (model.kind \"mlp\")");
  if (s.model.biases && transformer)
    errors.push_back("model.biases: only for MLPs (a Transformer has model.transformer.mlp_bias and its kin)");
  if (s.model.biases && s.model.asi)
    errors.push_back("model.biases: not with model.asi (the two copies would share one readout bias)");
  if (s.model.biases && s.task.gradient_loss)
    errors.push_back("model.biases: not with task.gradient_loss (its backward pass has no bias terms)");
  if (s.model.dropout > 0 && s.optimizer.kind == OptimizerKind::gd_auto)
    errors.push_back("model.dropout: not with gd_auto (its step size comes from the loss without dropout)");
  const TaskConfig& t = s.task;
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
  if (!s.task.gradient_loss) return;
  if (t.kind != TaskKind::function_1d || (t.target != Target::sin135 && t.target != Target::sin15))
    errors.push_back("task.gradient_loss: needs a function_1d task with a smooth target (sin135, sin15)");
  if (s.schedule.batch_size != 0 && s.schedule.batch_size != t.train_size)
    errors.push_back("task.gradient_loss: full batch only, schedule.batch_size must be 0");
  if (!activation_has_second_derivative(s.model.activation))
    errors.push_back(std::string("task.gradient_loss: needs phi'' of the activation; ") +
                     activation_name(s.model.activation) + " is not supported (use tanh, sigmoid, softplus, ...)");
  if (s.optimizer.kind == OptimizerKind::gd_auto)
    errors.push_back("task.gradient_loss: not with gd_auto (its Hessian is that of the plain MSE)");
  if (s.model.dropout > 0) errors.push_back("task.gradient_loss: not with model.dropout");
}

}  // namespace

std::vector<std::string> check_spec(const ExperimentSpec& s, const SpecLimits& limits) {
  std::vector<std::string> errors;
  const int layers = int(s.model.widths.size()) + 1;
  if (s.version != kSpecVersion)
    errors.push_back("version: " + std::to_string(s.version) + " is not supported (this build reads version " +
                     std::to_string(kSpecVersion) + ")");
  if (s.parametrization.preset == Preset::custom && int(s.parametrization.custom.size()) != layers)
    errors.push_back("parametrization.custom: has " + std::to_string(s.parametrization.custom.size()) +
                     " layers, the model has " + std::to_string(layers) + " weight matrices (hidden layers + 1)");
  if (s.parametrization.preset != Preset::custom && !s.parametrization.custom.empty())
    errors.push_back("parametrization.custom: only used with preset \"custom\"");
  if (s.parametrization.preset == Preset::mfp && s.model.widths.size() != 1)
    errors.push_back("parametrization.preset: mfp is defined for exactly 1 hidden layer, the model has " +
                     std::to_string(s.model.widths.size()));
  if (s.task.kind == TaskKind::sectors && s.task.input_dim != 2)
    errors.push_back("task.input_dim: " + std::to_string(s.task.input_dim) + " is not 2 (sectors is a 2-D task)");
  if (s.task.kind == TaskKind::fashion_mnist) check_fashion_mnist(s.task, limits, errors);
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
                     (s.model.kind == ModelKind::transformer ? " × gamma × weight_decay" : "") +
                     (s.sweep.phase_points.empty() ? "" : " × phase_points") + "), more than " +
                     std::to_string(kMaxSweepMembers));
  if (members > kMaxSweepMembers) return errors;  // the budgets below go through every member
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

SpecResult parse_spec(const json::Value& v, const SpecLimits& limits) {
  SpecResult out;
  std::vector<std::string>& errors = out.errors;
  ExperimentSpec& s = out.spec;
  ObjectReader root(&v, "", errors);
  if (!v.is_object()) return out;
  if (!root.field("version")) {
    errors.push_back("version: missing (this build reads version " + std::to_string(kSpecVersion) + ")");
  }
  root.integer("version", s.version, 1, 1000000);
  root.text("name", s.name, 200);
  root.text("description", s.description, 4000);
  root.text("view", s.view, kMaxViewChars);
  ObjectReader model(root.field("model"), "model", errors);
  read_model(model, s.model, errors);
  ObjectReader param(root.field("parametrization"), "parametrization", errors);
  read_parametrization(param, s.parametrization, errors);
  ObjectReader task(root.field("task"), "task", errors);
  read_task(task, s.task, errors);
  ObjectReader opt(root.field("optimizer"), "optimizer", errors);
  read_optimizer(opt, s.optimizer);
  ObjectReader sched(root.field("schedule"), "schedule", errors);
  read_schedule(sched, s.schedule);
  ObjectReader sweep(root.field("sweep"), "sweep", errors);
  read_sweep(sweep, s.sweep);
  bool present = false;
  std::vector<std::string> metrics;
  read_array(root, "metrics", 16, [&](const json::Value& m, const std::string& at) {
    if (m.is_string()) metrics.push_back(m.string);
    else root.error(at, "expected a metric name, got " + describe(m));
  }, &present);
  if (present) s.metrics = metrics;
  root.choice("backend", s.backend, kBackendNames);
  root.choice("precision", s.precision, kPrecisionNames);
  root.finish();
  if (errors.empty()) errors = check_spec(s, limits);
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

json::Value spec_to_json(const ExperimentSpec& s) {
  using json::Value;
  auto numbers = [](const auto& xs) {
    Value a = Value::make_array();
    for (auto x : xs) a.push(Value::make_number(double(x)));
    return a;
  };
  Value root = Value::make_object();
  root.set("version", Value::make_number(s.version));
  root.set("name", Value::make_string(s.name));
  if (!s.description.empty()) root.set("description", Value::make_string(s.description));
  if (!s.view.empty()) root.set("view", Value::make_string(s.view));

  Value model = Value::make_object();
  if (s.model.kind != ModelKind::transformer) {  // a Transformer reads none of the MLP's fields: the editor shows its own
    model.set("widths", numbers(s.model.widths));
    model.set("activation", Value::make_string(activation_name(s.model.activation)));
    model.set("input_bias", Value::make_bool(s.model.input_bias));
  } else {  // MLP specs keep their exact form
    const TransformerSpec& t = s.model.transformer;
    model.set("kind", Value::make_string(model_kind_name(s.model.kind)));
    Value tf = Value::make_object();
    tf.set("layers", Value::make_number(t.layers));
    tf.set("d_model", Value::make_number(t.d_model));
    tf.set("heads", Value::make_number(t.heads));
    tf.set("d_head", Value::make_number(t.d_head));
    tf.set("d_ff", Value::make_number(t.d_ff));
    tf.set("activation", Value::make_string(activation_name(t.activation)));
    tf.set("norm", Value::make_string(norm_name(t.pre_ln)));
    tf.set("attention_bias", Value::make_bool(t.attention_bias));
    tf.set("mlp_bias", Value::make_bool(t.mlp_bias));
    tf.set("output_bias", Value::make_bool(t.output_bias));
    tf.set("init", Value::make_string(init_scheme_name(t.init)));
    tf.set("gamma", Value::make_number(t.gamma));
    tf.set("init_distribution", Value::make_string(distribution_name(t.uniform)));
    tf.set("zero_readout", Value::make_bool(t.zero_readout));
    tf.set("attention_scale", Value::make_string(attention_scale_name(t.attention_scale)));
    if (t.has_attention_cut) {  // written only when set, so older share links stay the same
      Value cut = Value::make_object();
      cut.set("layer", Value::make_number(t.attention_cut.layer));
      cut.set("head", Value::make_number(t.attention_cut.head));
      cut.set("target", Value::make_string(cut_target_name(t.attention_cut.target)));
      tf.set("attention_cut", cut);
    }
    model.set("transformer", tf);
  }
  // Fields added after share links existed are written only when set, so those links stay the same.
  if (s.model.activation_param != 1) model.set("activation_param", Value::make_number(s.model.activation_param));
  if (s.model.asi) model.set("asi", Value::make_bool(true));
  if (s.model.dropout > 0) model.set("dropout", Value::make_number(s.model.dropout));
  if (s.model.biases) model.set("biases", Value::make_bool(true));
  // A residual_mlp writes its block fields always, so the page's spec editor offers them; another kind only when set
  // (the check then names them).
  const bool residual = s.model.kind == ModelKind::residual_mlp;
  if (residual) {
    model.set("kind", Value::make_string(model_kind_name(s.model.kind)));
    model.set("depth", Value::make_number(s.model.depth));
  }
  if (residual || s.model.block_depth != 1) model.set("block_depth", Value::make_number(s.model.block_depth));
  if (residual || s.model.block_norm) model.set("block_norm", Value::make_bool(s.model.block_norm));
  root.set("model", model);

  Value param = Value::make_object();
  param.set("preset", Value::make_string(preset_name(s.parametrization.preset)));
  param.set("theta", Value::make_number(s.parametrization.theta));
  if (!s.parametrization.custom.empty()) {
    Value layers = Value::make_array();
    for (const Abc& e : s.parametrization.custom) {
      Value layer = Value::make_object();
      layer.set("a", Value::make_number(e.a));
      layer.set("b", Value::make_number(e.b));
      layer.set("c", Value::make_number(e.c));
      layers.push(layer);
    }
    param.set("custom", layers);
  }
  const ParametrizationSpec& p = s.parametrization;
  if (p.init_scale != 1) param.set("init_scale", Value::make_number(p.init_scale));
  if (p.init_scale_layers != InitScaleLayers::all)
    param.set("init_scale_layers", Value::make_string(init_scale_layers_name(p.init_scale_layers)));
  if (p.gamma != 0) param.set("gamma", Value::make_number(p.gamma));
  if (p.gamma_prime != 0) param.set("gamma_prime", Value::make_number(p.gamma_prime));
  if (s.model.kind == ModelKind::residual_mlp || p.depth_rule != DepthRule::standard) {
    param.set("depth_rule", Value::make_string(depth_rule_name(p.depth_rule)));
    param.set("depth_alpha", Value::make_number(p.depth_alpha));
    param.set("depth_gamma", Value::make_number(p.depth_gamma));
  }
  root.set("parametrization", param);

  Value task = Value::make_object();
  task.set("kind", Value::make_string(task_name(s.task.kind)));
  task.set("input_dim", Value::make_number(s.task.input_dim));
  task.set("train_size", Value::make_number(s.task.train_size));
  task.set("test_size", Value::make_number(s.task.test_size));
  task.set("frequency", Value::make_number(s.task.frequency));
  task.set("classes", Value::make_number(s.task.classes));
  task.set("twist", Value::make_number(s.task.twist));
  task.set("seed", Value::make_number(double(s.task.seed)));
  if (s.task.data_per_seed) task.set("data_per_seed", Value::make_bool(true));
  if (s.task.kind == TaskKind::anchor) {
    const AnchorTaskConfig& a = s.task.anchor;
    Value anchor = Value::make_object();
    anchor.set("kind", Value::make_string(anchor_task_name(a.kind)));
    anchor.set("vocab", Value::make_number(a.vocab));
    anchor.set("seq_len", Value::make_number(a.seq_len));
    anchor.set("ood_test_size", Value::make_number(a.ood_test_size));
    anchor.set("modulus", Value::make_number(a.modulus));
    task.set("anchor", anchor);
  }
  const TaskConfig defaults;
  if (s.task.target != Target::none) task.set("target", Value::make_string(target_name(s.task.target)));
  if (s.task.noise != defaults.noise) task.set("noise", Value::make_number(s.task.noise));
  if (s.task.center_target) task.set("center_target", Value::make_bool(true));
  if (s.task.gradient_loss) task.set("gradient_loss", Value::make_bool(true));
  if (s.task.filter_width != TaskConfig{}.filter_width) task.set("filter_width", Value::make_number(s.task.filter_width));
  root.set("task", task);

  Value opt = Value::make_object();
  opt.set("kind", Value::make_string(optimizer_name(s.optimizer.kind)));
  opt.set("lr", Value::make_number(s.optimizer.lr));
  opt.set("momentum", Value::make_number(s.optimizer.momentum));
  opt.set("beta1", Value::make_number(s.optimizer.beta1));
  opt.set("beta2", Value::make_number(s.optimizer.beta2));
  opt.set("eps", Value::make_number(s.optimizer.eps));
  opt.set("weight_decay", Value::make_number(s.optimizer.weight_decay));
  root.set("optimizer", opt);

  Value sched = Value::make_object();
  sched.set("steps", Value::make_number(s.schedule.steps));
  sched.set("batch_size", Value::make_number(s.schedule.batch_size));
  sched.set("record_every", Value::make_number(s.schedule.record_every));
  sched.set("divergence_loss", Value::make_number(s.schedule.divergence_loss));
  if (s.model.kind == ModelKind::transformer) {
    sched.set("warmup_fraction", Value::make_number(s.schedule.warmup_fraction));
    sched.set("cosine", Value::make_bool(s.schedule.cosine));
    sched.set("final_lr_fraction", Value::make_number(s.schedule.final_lr_fraction));
    sched.set("clip_norm", Value::make_number(s.schedule.clip_norm));
  }
  if (s.schedule.stop_loss_ratio > 0) sched.set("stop_loss_ratio", Value::make_number(s.schedule.stop_loss_ratio));
  root.set("schedule", sched);

  Value sweep = Value::make_object();
  sweep.set("width", numbers(s.sweep.width));
  sweep.set("lr", numbers(s.sweep.lr));
  sweep.set("seeds", numbers(s.sweep.seeds));
  if (!s.sweep.gamma.empty()) sweep.set("gamma", numbers(s.sweep.gamma));
  if (!s.sweep.weight_decay.empty()) sweep.set("weight_decay", numbers(s.sweep.weight_decay));
  if (!s.sweep.depth.empty()) sweep.set("depth", numbers(s.sweep.depth));
  if (!s.sweep.phase_points.empty()) {
    Value points = Value::make_array();
    for (const PhasePoint& q : s.sweep.phase_points) {
      Value pair = Value::make_array();
      pair.push(Value::make_number(q.gamma));
      pair.push(Value::make_number(q.gamma_prime));
      points.push(pair);
    }
    sweep.set("phase_points", points);
  }
  root.set("sweep", sweep);

  Value metrics = Value::make_array();
  for (const auto& m : s.metrics) metrics.push(Value::make_string(m));
  root.set("metrics", metrics);
  // Only when chosen: the default keeps every existing document and share link as it was.
  if (s.backend != Backend::auto_) root.set("backend", Value::make_string(backend_name(s.backend)));
  if (s.precision != Precision::float64) root.set("precision", Value::make_string(precision_name(s.precision)));
  return root;
}

const std::map<std::string, std::vector<std::string>>& spec_choice_fields() {
  // The tables the read_* functions above read each field with.
  static const std::map<std::string, std::vector<std::string>> fields = {
      {"model.activation", enum_names(kActivationNames)},
      {"model.kind", enum_names(kModelKindNames)},
      {"model.transformer.activation", enum_names(kTransformerActivations)},
      {"model.transformer.norm", enum_names(kNormNames)},
      {"model.transformer.init", enum_names(kInitSchemeNames)},
      {"model.transformer.init_distribution", enum_names(kDistributionNames)},
      {"model.transformer.attention_scale", enum_names(kAttentionScaleNames)},
      {"model.transformer.attention_cut.target", enum_names(kCutTargetNames)},
      {"parametrization.preset", enum_names(kPresetNames)},
      {"parametrization.init_scale_layers", enum_names(kInitScaleLayersNames)},
      {"parametrization.depth_rule", enum_names(kDepthRuleNames)},
      {"task.kind", enum_names(kTaskNames)},
      {"task.anchor.kind", enum_names(kAnchorTaskNames)},
      {"task.target", enum_names(kTargetNames)},
      {"optimizer.kind", enum_names(kOptimizerNames)},
      {"backend", enum_names(kBackendNames)},
      {"precision", enum_names(kPrecisionNames)},
  };
  return fields;
}

const std::vector<std::string>& spec_field_choices(const std::string& json_path) {
  static const std::vector<std::string> none;
  const auto& fields = spec_choice_fields();
  const auto it = fields.find(json_path);
  return it == fields.end() ? none : it->second;
}
