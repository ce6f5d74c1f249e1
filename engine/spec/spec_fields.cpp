#include "engine/spec/spec_fields.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "engine/base/enum_names.hpp"
#include "engine/task/anchor_tasks.hpp"
#include "engine/task/table_file.hpp"

namespace {

using Errors = std::vector<std::string>;
using Written = bool (*)(const ExperimentSpec&);

// ---- checking one value ---------------------------------------------------------------------------------------------

// As JSON writes it: the shortest text that reads back exactly.
std::string num(double x) { return json::write(json::Value::make_number(x)); }

std::string describe(const json::Value& v) {
  switch (v.type) {
    case json::Type::number: return num(v.number);
    case json::Type::string: return "\"" + v.string.substr(0, 40) + (v.string.size() > 40 ? "…\"" : "\"");
    default: return json::type_name(v.type);
  }
}

bool fail(Errors& errors, const std::string& where, const std::string& what) {
  errors.push_back(where + ": " + what);
  return false;
}

bool check_number(const json::Value& v, const std::string& where, double lo, double hi, Errors& errors) {
  if (!v.is_number()) return fail(errors, where, "expected a number, got " + describe(v));
  if (!(v.number >= lo && v.number <= hi))
    return fail(errors, where, num(v.number) + " is not in [" + num(lo) + ", " + num(hi) + "]");
  return true;
}

bool check_integer(const json::Value& v, const std::string& where, double lo, double hi, Errors& errors) {
  if (!v.is_number()) return fail(errors, where, "expected an integer, got " + describe(v));
  if (v.number != std::floor(v.number)) return fail(errors, where, num(v.number) + " is not an integer");
  return check_number(v, where, lo, hi, errors);
}

bool check_list(const json::Value& v, const std::string& where, size_t max_items, Errors& errors) {
  if (!v.is_array()) return fail(errors, where, std::string("expected an array, got ") + json::type_name(v.type));
  if (v.array.size() > max_items)
    return fail(errors, where, std::to_string(v.array.size()) + " items, more than " + std::to_string(max_items));
  return true;
}

std::string item_path(const std::string& list, size_t i) { return list + "[" + std::to_string(i) + "]"; }

// ---- when a field is written, and where it means something ----------------------------------------------------------

constexpr Written kWhenSet = nullptr;
bool always(const ExperimentSpec&) { return true; }
bool an_mlp(const ExperimentSpec& s) { return !is_transformer(s.model.kind); }
bool a_transformer(const ExperimentSpec& s) { return is_transformer(s.model.kind); }
bool a_residual_mlp(const ExperimentSpec& s) { return has_residual_blocks(s.model.kind); }
bool an_anchor_task(const ExperimentSpec& s) { return s.task.kind == TaskKind::anchor; }
bool has_attention_cut(const ExperimentSpec& s) { return s.model.transformer.has_attention_cut; }
bool a_plain_mlp(const ExperimentSpec& s) { return is_plain_mlp(s.model.kind); }
bool gamma_init(const ExperimentSpec& s) { return s.model.transformer.init == InitScheme::gamma; }
bool a_transformer_with_gamma_init(const ExperimentSpec& s) { return a_transformer(s) && gamma_init(s); }
bool two_layer_gamma(const ExperimentSpec& s) { return s.parametrization.preset == Preset::two_layer_gamma; }
bool custom_preset(const ExperimentSpec& s) { return s.parametrization.preset == Preset::custom; }
bool custom_depth_rule(const ExperimentSpec& s) { return s.parametrization.depth_rule == DepthRule::custom; }
bool a_table_task(const ExperimentSpec& s) { return s.task.kind == TaskKind::table; }
constexpr const char* kTableTask = "task.kind \"table\"";
bool a_target_task(const ExperimentSpec& s) {
  return s.task.kind == TaskKind::function_1d || s.task.kind == TaskKind::boolean_cube;
}
constexpr const char* kTransformer = "model.kind \"transformer\"";
constexpr const char* kResidualMlp = "model.kind \"residual_mlp\"";
constexpr const char* kMlps = "MLPs (model.kind \"mlp\" or \"residual_mlp\")";
// A residual_mlp writes its block fields always, so the Fields editor offers them; another kind only when set (the
// check then names them).
bool block_depth_written(const ExperimentSpec& s) { return a_residual_mlp(s) || s.model.block_depth != 1; }
bool block_norm_written(const ExperimentSpec& s) { return a_residual_mlp(s) || s.model.block_norm; }
bool depth_rule_written(const ExperimentSpec& s) {
  return a_residual_mlp(s) || s.parametrization.depth_rule != DepthRule::standard;
}

// ---- rows -----------------------------------------------------------------------------------------------------------
// Each factory takes `at`, a generic lambda from the spec to the member the field fills
// ([](auto& s) -> auto& { return s.optimizer.lr; }), so one accessor serves both reading and writing.

SpecField row(const char* path, FieldKind kind, Written written, const char* help) {
  SpecField f;
  f.path = path;
  f.kind = kind;
  f.written = written;
  f.help = help;
  return f;
}

SpecField object(const char* path, Written written, const char* help) {
  SpecField f = row(path, FieldKind::object, written, help);
  f.read = [](const json::Value& v, const std::string& where, ExperimentSpec&, Errors& errors) {
    if (!v.is_object()) fail(errors, where, std::string("expected an object, got ") + json::type_name(v.type));
  };
  return f;
}

template <class At>
SpecField number(const char* path, double lo, double hi, At at, Written written, const char* help) {
  SpecField f = row(path, FieldKind::number, written, help);
  f.lo = lo, f.hi = hi;
  f.read = [=](const json::Value& v, const std::string& where, ExperimentSpec& s, Errors& errors) {
    if (check_number(v, where, lo, hi, errors)) at(s) = v.number;
  };
  f.write = [=](const ExperimentSpec& s) { return json::Value::make_number(at(s)); };
  return f;
}

template <class At>
SpecField integer(const char* path, double lo, double hi, At at, Written written, const char* help) {
  SpecField f = row(path, FieldKind::integer, written, help);
  f.lo = lo, f.hi = hi;
  f.read = [=](const json::Value& v, const std::string& where, ExperimentSpec& s, Errors& errors) {
    using Int = std::remove_reference_t<decltype(at(s))>;
    if (check_integer(v, where, lo, hi, errors)) at(s) = Int(v.number);
  };
  f.write = [=](const ExperimentSpec& s) { return json::Value::make_number(double(at(s))); };
  return f;
}

template <class At>
SpecField boolean(const char* path, At at, Written written, const char* help) {
  SpecField f = row(path, FieldKind::boolean, written, help);
  f.read = [=](const json::Value& v, const std::string& where, ExperimentSpec& s, Errors& errors) {
    if (v.type == json::Type::boolean) at(s) = v.boolean;
    else fail(errors, where, "expected true or false, got " + describe(v));
  };
  f.write = [=](const ExperimentSpec& s) { return json::Value::make_bool(at(s)); };
  return f;
}

template <class At>
SpecField text(const char* path, size_t max_len, At at, Written written, const char* help) {
  SpecField f = row(path, FieldKind::text, written, help);
  f.max_items = max_len;
  f.read = [=](const json::Value& v, const std::string& where, ExperimentSpec& s, Errors& errors) {
    if (!v.is_string()) fail(errors, where, "expected a string, got " + describe(v));
    else if (v.string.size() > max_len) fail(errors, where, "longer than " + std::to_string(max_len) + " characters");
    else at(s) = v.string;
  };
  f.write = [=](const ExperimentSpec& s) { return json::Value::make_string(at(s)); };
  return f;
}

template <class Enum, size_t N, class At>
SpecField choice(const char* path, const EnumName<Enum> (&names)[N], At at, Written written, const char* help) {
  SpecField f = row(path, FieldKind::choice, written, help);
  f.choices = enum_names(names);
  f.read = [&names, at, list = f.choices](const json::Value& v, const std::string& where, ExperimentSpec& s,
                                          Errors& errors) {
    if (v.is_string() && enum_value(names, v.string, at(s))) return;
    std::string listed;
    for (const std::string& name : list) listed += (listed.empty() ? "" : ", ") + name;
    fail(errors, where, describe(v) + " is not one of " + listed);
  };
  f.write = [&names, at](const ExperimentSpec& s) { return json::Value::make_string(enum_name(names, at(s))); };
  return f;
}

// A list of numbers or integers; `if_empty` is the error for an empty list, or null where an empty list is allowed.
template <class At>
SpecField list(const char* path, FieldKind kind, size_t max_items, double lo, double hi, const char* if_empty, At at,
               Written written, const char* help) {
  SpecField f = row(path, kind, written, help);
  f.lo = lo, f.hi = hi, f.max_items = max_items;
  f.read = [=](const json::Value& v, const std::string& where, ExperimentSpec& s, Errors& errors) {
    if (!check_list(v, where, max_items, errors)) return;
    if (v.array.empty() && if_empty) return void(fail(errors, where, if_empty));
    using Item = typename std::remove_reference_t<decltype(at(s))>::value_type;
    std::vector<Item> items;
    for (size_t i = 0; i < v.array.size(); i++) {
      const bool ok = kind == FieldKind::integers ? check_integer(v.array[i], item_path(where, i), lo, hi, errors)
                                                  : check_number(v.array[i], item_path(where, i), lo, hi, errors);
      items.push_back(ok ? Item(v.array[i].number) : Item());
    }
    at(s) = items;
  };
  f.write = [=](const ExperimentSpec& s) {
    json::Value a = json::Value::make_array();
    for (auto x : at(s)) a.push(json::Value::make_number(double(x)));
    return a;
  };
  return f;
}

SpecField metric_names(const char* path, size_t max_items, const char* help) {
  SpecField f = row(path, FieldKind::names, always, help);
  f.max_items = max_items;
  f.read = [=](const json::Value& v, const std::string& where, ExperimentSpec& s, Errors& errors) {
    if (!check_list(v, where, max_items, errors)) return;
    std::vector<std::string> names;
    for (size_t i = 0; i < v.array.size(); i++)
      if (v.array[i].is_string()) names.push_back(v.array[i].string);
      else fail(errors, item_path(where, i), "expected a metric name, got " + describe(v.array[i]));
    s.metrics = names;
  };
  f.write = [](const ExperimentSpec& s) {
    json::Value a = json::Value::make_array();
    for (const std::string& m : s.metrics) a.push(json::Value::make_string(m));
    return a;
  };
  return f;
}

SpecField abc_layers(const char* path, size_t max_items, double lo, double hi, const char* help) {
  SpecField f = row(path, FieldKind::abc_layers, nullptr, help);
  f.lo = lo, f.hi = hi, f.max_items = max_items;
  f.read = [=](const json::Value& v, const std::string& where, ExperimentSpec& s, Errors& errors) {
    if (!check_list(v, where, max_items, errors)) return;
    for (size_t i = 0; i < v.array.size(); i++) {
      const json::Value& layer = v.array[i];
      const std::string at = item_path(where, i);
      if (!layer.is_object()) {
        fail(errors, at, std::string("expected an object, got ") + json::type_name(layer.type));
        continue;
      }
      Abc e;
      for (const auto& [key, value] : layer.object) {
        double* out = key == "a" ? &e.a : key == "b" ? &e.b : key == "c" ? &e.c : nullptr;
        if (!out) fail(errors, at + "." + key, "unknown field");
        else if (check_number(value, at + "." + key, lo, hi, errors)) *out = value.number;
      }
      s.parametrization.custom.push_back(e);
    }
  };
  f.write = [](const ExperimentSpec& s) {
    json::Value layers = json::Value::make_array();
    for (const Abc& e : s.parametrization.custom) {
      json::Value layer = json::Value::make_object();
      layer.set("a", json::Value::make_number(e.a));
      layer.set("b", json::Value::make_number(e.b));
      layer.set("c", json::Value::make_number(e.c));
      layers.push(layer);
    }
    return layers;
  };
  return f;
}

SpecField phase_points(const char* path, size_t max_items, double lo, double hi, const char* help) {
  SpecField f = row(path, FieldKind::number_pairs, nullptr, help);
  f.lo = lo, f.hi = hi, f.max_items = max_items;
  f.read = [=](const json::Value& v, const std::string& where, ExperimentSpec& s, Errors& errors) {
    if (!check_list(v, where, max_items, errors)) return;
    for (size_t i = 0; i < v.array.size(); i++) {
      const json::Value& pair = v.array[i];
      const std::string at = item_path(where, i);
      if (!pair.is_array() || pair.array.size() != 2) {
        fail(errors, at, "expected a pair [gamma, gamma_prime], got " + describe(pair));
        continue;
      }
      PhasePoint p;
      if (check_number(pair.array[0], item_path(at, 0), lo, hi, errors)) p.gamma = pair.array[0].number;
      if (check_number(pair.array[1], item_path(at, 1), lo, hi, errors)) p.gamma_prime = pair.array[1].number;
      s.sweep.phase_points.push_back(p);
    }
  };
  f.write = [](const ExperimentSpec& s) {
    json::Value points = json::Value::make_array();
    for (const PhasePoint& q : s.sweep.phase_points) {
      json::Value pair = json::Value::make_array();
      pair.push(json::Value::make_number(q.gamma));
      pair.push(json::Value::make_number(q.gamma_prime));
      points.push(pair);
    }
    return points;
  };
  return f;
}

constexpr int kMaxWidth = 16384;
constexpr int kMaxDepth = 256;  // residual blocks of a residual_mlp
constexpr size_t kMaxHiddenLayers = 16;
constexpr size_t kMaxSweepValues = 64;
constexpr double kMaxGamma = 4;  // the phase diagram's (γ, γ′)
constexpr double kMaxSeed = 9007199254740991.0;  // 2^53 − 1: the largest integer a JSON number holds exactly

// Two booleans of TransformerSpec that the JSON names: pre_ln ("norm") and uniform ("init_distribution").
constexpr EnumName<bool> kNormNames[] = {{true, "pre"}, {false, "post"}};
constexpr EnumName<bool> kDistributionNames[] = {{false, "normal"}, {true, "uniform"}};
// model.transformer.activation allows fewer activations than model.activation: relu and gelu only.
constexpr EnumName<Activation> kTransformerActivations[] = {enum_row(kActivationNames, Activation::relu),
                                                            enum_row(kActivationNames, Activation::gelu)};

std::vector<SpecField> model_fields() {
  using K = FieldKind;
  return {
      object("model", always, "the network"),
      list("model.widths", K::integers, kMaxHiddenLayers, 1, kMaxWidth, "needs at least one hidden layer",
           [](auto& s) -> auto& { return s.model.widths; }, an_mlp, "hidden widths n1 ... nL, one per hidden layer"),
      choice("model.activation", kActivationNames, [](auto& s) -> auto& { return s.model.activation; }, an_mlp,
             "the hidden layers' activation (gelu: its tanh form)")
          .on_device_only_as({"relu", "tanh", "gelu", "linear", "sigmoid"}),
      boolean("model.input_bias", [](auto& s) -> auto& { return s.model.input_bias; }, an_mlp,
              "fold a first-layer bias in as a constant input coordinate, x -> (x, 1)"),
      choice("model.kind", kModelKindNames, [](auto& s) -> auto& { return s.model.kind; }, kWhenSet,
             "mlp; residual_mlp (blocks of one width, see depth); transformer (see model.transformer)"),
      object("model.transformer", a_transformer, "a transformer's shape and init (model.kind transformer)"),
      integer("model.transformer.layers", 1, 16, [](auto& s) -> auto& { return s.model.transformer.layers; },
              always, "transformer blocks"),
      integer("model.transformer.d_model", 1, 4096, [](auto& s) -> auto& { return s.model.transformer.d_model; },
              always, "the residual stream's width (the width sweep.width replaces)"),
      integer("model.transformer.heads", 1, 64, [](auto& s) -> auto& { return s.model.transformer.heads; }, always,
              "attention heads per layer"),
      integer("model.transformer.d_head", 0, 4096, [](auto& s) -> auto& { return s.model.transformer.d_head; },
              always, "each head's width; 0: d_model / heads"),
      integer("model.transformer.d_ff", 1, 16384, [](auto& s) -> auto& { return s.model.transformer.d_ff; }, always,
              "the feed-forward layer's width"),
      choice("model.transformer.activation", kTransformerActivations,
             [](auto& s) -> auto& { return s.model.transformer.activation; }, always, "the feed-forward activation"),
      choice("model.transformer.norm", kNormNames, [](auto& s) -> auto& { return s.model.transformer.pre_ln; },
             always, "LayerNorm before each block's sublayer (pre) or after its residual sum (post)"),
      boolean("model.transformer.attention_bias", [](auto& s) -> auto& { return s.model.transformer.attention_bias; },
              always, "biases in the query, key, value and output projections"),
      boolean("model.transformer.mlp_bias", [](auto& s) -> auto& { return s.model.transformer.mlp_bias; }, always,
              "biases in the feed-forward layers"),
      boolean("model.transformer.output_bias", [](auto& s) -> auto& { return s.model.transformer.output_bias; },
              always, "a bias in the readout"),
      choice("model.transformer.init", kInitSchemeNames, [](auto& s) -> auto& { return s.model.transformer.init; },
             always, "pytorch: PyTorch's default inits; gamma: every weight N(0, fan_in^(-2 gamma))"),
      number("model.transformer.gamma", 0, 3, [](auto& s) -> auto& { return s.model.transformer.gamma; }, always,
             "the initialization rate of init gamma"),
      choice("model.transformer.init_distribution", kDistributionNames,
             [](auto& s) -> auto& { return s.model.transformer.uniform; }, always,
             "init gamma's distribution: normal, or uniform of the same variance")
          .only_for(gamma_init, "model.transformer.init \"gamma\""),
      boolean("model.transformer.zero_readout", [](auto& s) -> auto& { return s.model.transformer.zero_readout; },
              always, "start the readout at zero"),
      choice("model.transformer.attention_scale", kAttentionScaleNames,
             [](auto& s) -> auto& { return s.model.transformer.attention_scale; }, always,
             "the attention logits' scale: 1/sqrt(d_head) (SP) or 1/d_head (muP)"),
      [] {
        SpecField cut = object("model.transformer.attention_cut", has_attention_cut,
                               "cut one head's attention to a target position in the test set's forward pass");
        const auto read_object = cut.read;
        cut.read = [read_object](const json::Value& v, const std::string& where, ExperimentSpec& s, Errors& errors) {
          s.model.transformer.has_attention_cut = true;
          read_object(v, where, s, errors);
        };
        return cut.only_for(a_transformer, kTransformer)
            .not_exported_because("the masking analysis runs in the engine only (muplay attention-cut); leave it "
                                  "out to export");
      }(),
      integer("model.transformer.attention_cut.layer", 1, 16,
              [](auto& s) -> auto& { return s.model.transformer.attention_cut.layer; }, always,
              "the layer whose attention is cut, from 1"),
      integer("model.transformer.attention_cut.head", 0, 64,
              [](auto& s) -> auto& { return s.model.transformer.attention_cut.head; }, always,
              "the head, from 1; 0: every head of the layer"),
      choice("model.transformer.attention_cut.target", kCutTargetNames,
             [](auto& s) -> auto& { return s.model.transformer.attention_cut.target; }, always,
             "the position whose attention weight is set to zero"),
      number("model.activation_param", 1e-6, 1e6, [](auto& s) -> auto& { return s.model.activation_param; },
             kWhenSet, "a of the activations sin(a x) and the Ricker function"),
      boolean("model.asi", [](auto& s) -> auto& { return s.model.asi; }, kWhenSet,
              "antisymmetric init: two copies of the net, output (h(theta) - h(theta')) / sqrt(2), zero at init")
          .only_for(a_plain_mlp, "model.kind \"mlp\"")
          .cpu_only(),
      number("model.dropout", 0, 0.95, [](auto& s) -> auto& { return s.model.dropout; }, kWhenSet,
             "drop probability of every hidden unit in training steps")
          .only_for(a_plain_mlp, "model.kind \"mlp\"")
          .cpu_only(),
      boolean("model.biases", [](auto& s) -> auto& { return s.model.biases; }, kWhenSet,
              "a trainable, zero-initialized bias in every layer, hidden and output")
          .only_for(a_plain_mlp, "model.kind \"mlp\" (a transformer has model.transformer.mlp_bias and its kin)"),
      integer("model.depth", 1, kMaxDepth, [](auto& s) -> auto& { return s.model.depth; }, a_residual_mlp,
              "the number L of residual blocks")
          .only_for(a_residual_mlp, kResidualMlp),
      integer("model.block_depth", 1, 2, [](auto& s) -> auto& { return s.model.block_depth; }, block_depth_written,
              "weight layers per block")
          .only_for(a_residual_mlp, kResidualMlp),
      boolean("model.block_norm", [](auto& s) -> auto& { return s.model.block_norm; }, block_norm_written,
              "normalize each block's input")
          .only_for(a_residual_mlp, kResidualMlp),
  };
}

std::vector<SpecField> parametrization_fields() {
  return {
      object("parametrization", always, "how each layer's multiplier, init and learning rate scale with width"),
      choice("parametrization.preset", kPresetNames, [](auto& s) -> auto& { return s.parametrization.preset; },
             always, "a table of (a, b, c) per layer; mfp and two_layer_gamma: 1 hidden layer"),
      number("parametrization.theta", -2, 2, [](auto& s) -> auto& { return s.parametrization.theta; }, always,
             "the symmetry shift (a + theta, b - theta, c - 2 theta; Adam: c - theta)")
          .only_for(an_mlp, kMlps),
      abc_layers("parametrization.custom", kMaxHiddenLayers + 1, -4, 4,
                 "one {a, b, c} per weight matrix (hidden layers + 1)")
          .only_for(custom_preset, "parametrization.preset \"custom\""),
      number("parametrization.init_scale", 1e-12, 1e6, [](auto& s) -> auto& { return s.parametrization.init_scale; },
             kWhenSet, "multiplies the init std of every layer, or of the first only"),
      choice("parametrization.init_scale_layers", kInitScaleLayersNames,
             [](auto& s) -> auto& { return s.parametrization.init_scale_layers; }, kWhenSet,
             "which layers init_scale scales")
          .only_for(an_mlp, kMlps),
      choice("parametrization.readout_init", kReadoutInitNames,
             [](auto& s) -> auto& { return s.parametrization.readout_init; }, kWhenSet,
             "the readout's init: random (the parametrization's std) or zero (mup's readout_zero_init)")
          .only_for(an_mlp, "MLPs (a transformer has model.transformer.zero_readout)"),
      number("parametrization.gamma", -kMaxGamma, kMaxGamma, [](auto& s) -> auto& { return s.parametrization.gamma; },
             kWhenSet, "the init rate gamma (hidden weights' std m^-gamma)")
          .only_for(two_layer_gamma, "parametrization.preset \"two_layer_gamma\""),
      number("parametrization.gamma_prime", -kMaxGamma, kMaxGamma,
             [](auto& s) -> auto& { return s.parametrization.gamma_prime; }, kWhenSet,
             "the output scale gamma' (output m^-gamma')")
          .only_for(two_layer_gamma, "parametrization.preset \"two_layer_gamma\""),
      choice("parametrization.depth_rule", kDepthRuleNames,
             [](auto& s) -> auto& { return s.parametrization.depth_rule; }, depth_rule_written,
             "how the branch multiplier and learning rates scale with depth")
          .only_for(a_residual_mlp, kResidualMlp),
      number("parametrization.depth_alpha", -4, 4, [](auto& s) -> auto& { return s.parametrization.depth_alpha; },
             depth_rule_written, "the branch multiplier L^-alpha")
          .only_for(custom_depth_rule, "parametrization.depth_rule \"custom\""),
      number("parametrization.depth_gamma", -4, 4, [](auto& s) -> auto& { return s.parametrization.depth_gamma; },
             depth_rule_written, "the learning-rate exponent L^-gamma")
          .only_for(custom_depth_rule, "parametrization.depth_rule \"custom\""),
  };
}

std::vector<SpecField> task_fields() {
  return {
      object("task", always, "the data"),
      choice("task.kind", kTaskNames, [](auto& s) -> auto& { return s.task.kind; }, always,
             "the data set (Tasks, in examples/README.md)"),
      integer("task.input_dim", 1, 4096, [](auto& s) -> auto& { return s.task.input_dim; }, always,
              "the input's dimension d (skipgram: the vocabulary)"),
      integer("task.train_size", 1, 100000, [](auto& s) -> auto& { return s.task.train_size; }, always,
              "training examples"),
      integer("task.test_size", 1, 100000, [](auto& s) -> auto& { return s.task.test_size; }, always,
              "test examples"),
      number("task.frequency", 0, 1000, [](auto& s) -> auto& { return s.task.frequency; }, always,
             "sin_regression: y = sin(frequency x.v)"),
      integer("task.classes", 2, 64, [](auto& s) -> auto& { return s.task.classes; }, always,
              "sectors: the number of angular sectors"),
      number("task.twist", -100, 100, [](auto& s) -> auto& { return s.task.twist; }, always,
             "sectors: radians of twist per unit radius (spiral arms)"),
      integer("task.seed", 0, kMaxSeed, [](auto& s) -> auto& { return s.task.seed; }, always,
              "the data seed: the same data for every sweep member"),
      boolean("task.data_per_seed", [](auto& s) -> auto& { return s.task.data_per_seed; }, kWhenSet,
              "each sweep seed draws its own data (other tasks share one data set)")
          .only_for(an_anchor_task, "task.kind \"anchor\""),
      object("task.anchor", an_anchor_task, "an anchor-function task (task.kind anchor)"),
      choice("task.anchor.kind", kAnchorTaskNames, [](auto& s) -> auto& { return s.task.anchor.kind; }, always,
             "which anchor function"),
      integer("task.anchor.vocab", kAnchorMinVocab, 1024, [](auto& s) -> auto& { return s.task.anchor.vocab; },
              always, "tokens"),
      integer("task.anchor.seq_len", 3, 64, [](auto& s) -> auto& { return s.task.anchor.seq_len; }, always,
              "tokens per sequence"),
      integer("task.anchor.ood_test_size", 1, 100000, [](auto& s) -> auto& { return s.task.anchor.ood_test_size; },
              always, "out-of-distribution test sequences"),
      integer("task.anchor.modulus", 2, 64, [](auto& s) -> auto& { return s.task.anchor.modulus; }, always,
              "the modulus of the modular tasks"),
      choice("task.target", kTargetNames, [](auto& s) -> auto& { return s.task.target; }, kWhenSet,
             "the target function")
          .only_for(a_target_task, "task.kind \"function_1d\" or \"boolean_cube\""),
      number("task.noise", 0, 100, [](auto& s) -> auto& { return s.task.noise; }, kWhenSet,
             "noisy_sin: the noise's standard deviation"),
      boolean("task.center_target", [](auto& s) -> auto& { return s.task.center_target; }, kWhenSet,
              "regression: subtract the training targets' mean"),
      boolean("task.gradient_loss", [](auto& s) -> auto& { return s.task.gradient_loss; }, kWhenSet,
              "function_1d: add the squared error of the derivative to the loss")
          .cpu_only(),
      number("task.filter_width", 1e-6, 1e6, [](auto& s) -> auto& { return s.task.filter_width; }, kWhenSet,
             "fp_filter: the Gaussian filter's width delta"),
      object("task.table", a_table_task, "a data set you bring, a CSV or NumPy file (task.kind table)"),
      text("task.table.file", 255, [](auto& s) -> auto& { return s.task.table.file; }, always,
           "the file's name: the command line reads it beside the spec, the page among its imported files")
          .only_for(a_table_task, kTableTask),
      text("task.table.sha256", 64, [](auto& s) -> auto& { return s.task.table.sha256; }, kWhenSet,
           "the SHA-256 of the file's bytes (filled in when the file is read): another file of that name is refused")
          .only_for(a_table_task, kTableTask),
      integer("task.table.bytes", 0, double(kMaxTableFileBytes), [](auto& s) -> auto& { return s.task.table.bytes; },
              kWhenSet, "the file's size (filled in with sha256)")
          .only_for(a_table_task, kTableTask),
      list("task.table.inputs", FieldKind::integers, kMaxTableColumns, 0, kMaxTableColumns - 1, nullptr,
           [](auto& s) -> auto& { return s.task.table.inputs; }, kWhenSet,
           "the input columns (from 0); empty: every column that is not a target")
          .only_for(a_table_task, kTableTask),
      list("task.table.targets", FieldKind::integers, 64, 0, kMaxTableColumns - 1, nullptr,
           [](auto& s) -> auto& { return s.task.table.targets; }, kWhenSet,
           "the target columns (from 0); empty: the last column")
          .only_for(a_table_task, kTableTask),
      choice("task.table.type", kTableTypeNames, [](auto& s) -> auto& { return s.task.table.type; }, always,
             "regression (square loss on the targets) or classification (the target column's values are the classes)")
          .only_for(a_table_task, kTableTask),
      choice("task.table.standardize", kStandardizeNames, [](auto& s) -> auto& { return s.task.table.standardize; },
             always, "scale columns to mean 0 and variance 1 on the train rows")
          .only_for(a_table_task, kTableTask),
      text("task.table.test_file", 255, [](auto& s) -> auto& { return s.task.table.test_file; }, kWhenSet,
           "a separate test set with the same columns; empty: the file's rows are split")
          .only_for(a_table_task, kTableTask),
      text("task.table.test_sha256", 64, [](auto& s) -> auto& { return s.task.table.test_sha256; }, kWhenSet,
           "the SHA-256 of the test file (filled in when it is read)")
          .only_for(a_table_task, kTableTask),
      integer("task.table.test_bytes", 0, double(kMaxTableFileBytes),
              [](auto& s) -> auto& { return s.task.table.test_bytes; }, kWhenSet,
              "the test file's size (filled in with test_sha256)")
          .only_for(a_table_task, kTableTask),
  };
}

std::vector<SpecField> training_fields() {
  using K = FieldKind;
  return {
      object("optimizer", always, "the optimizer"),
      choice("optimizer.kind", kOptimizerNames, [](auto& s) -> auto& { return s.optimizer.kind; }, always,
             "sgd (with momentum), adam (L2 weight_decay on the gradient), adamw (decoupled), gd_auto (GD at lr / "
             "lambda_max)")
          .on_device_only_as({"sgd", "adam", "adamw"}),
      number("optimizer.lr", 1e-12, 1e6, [](auto& s) -> auto& { return s.optimizer.lr; }, always,
             "the base learning rate eta; the parametrization multiplies it per layer"),
      number("optimizer.momentum", 0, 0.9999, [](auto& s) -> auto& { return s.optimizer.momentum; }, always,
             "sgd's momentum"),
      number("optimizer.beta1", 0, 0.9999, [](auto& s) -> auto& { return s.optimizer.beta1; }, always,
             "Adam's first-moment decay"),
      number("optimizer.beta2", 0, 0.999999, [](auto& s) -> auto& { return s.optimizer.beta2; }, always,
             "Adam's second-moment decay"),
      number("optimizer.eps", 1e-30, 1, [](auto& s) -> auto& { return s.optimizer.eps; }, always,
             "Adam's epsilon"),
      number("optimizer.weight_decay", 0, 100, [](auto& s) -> auto& { return s.optimizer.weight_decay; }, always,
             "weight decay lambda"),
      object("schedule", always, "how long and how the training runs"),
      integer("schedule.steps", 1, 1000000, [](auto& s) -> auto& { return s.schedule.steps; }, always,
              "training steps"),
      integer("schedule.batch_size", 0, 100000, [](auto& s) -> auto& { return s.schedule.batch_size; }, always,
              "examples per step; 0: the full training set"),
      integer("schedule.record_every", 1, 1000000, [](auto& s) -> auto& { return s.schedule.record_every; }, always,
              "record the metrics every this many steps"),
      number("schedule.divergence_loss", 1e-6, 1e300, [](auto& s) -> auto& { return s.schedule.divergence_loss; },
             always, "a loss above this, or NaN/inf, ends the run as diverged"),
      number("schedule.warmup_fraction", 0, 1, [](auto& s) -> auto& { return s.schedule.warmup_fraction; },
             a_transformer, "the fraction of steps the learning rate warms up linearly")
          .only_for(a_transformer, kTransformer),
      boolean("schedule.cosine", [](auto& s) -> auto& { return s.schedule.cosine; }, a_transformer,
              "cosine decay after the warm-up")
          .only_for(a_transformer, kTransformer),
      number("schedule.final_lr_fraction", 0, 1, [](auto& s) -> auto& { return s.schedule.final_lr_fraction; },
             a_transformer, "the cosine's last learning rate, as a fraction of lr")
          .only_for(a_transformer, kTransformer),
      number("schedule.clip_norm", 0, 1e6, [](auto& s) -> auto& { return s.schedule.clip_norm; }, a_transformer,
             "clip the gradient's global norm to this; 0: no clipping")
          .only_for(a_transformer, kTransformer),
      number("schedule.stop_loss_ratio", 0, 1, [](auto& s) -> auto& { return s.schedule.stop_loss_ratio; }, kWhenSet,
             "regression: stop when the training loss is this fraction of the zero predictor's; 0: never")
          .cpu_only(),
      object("sweep", always, "the grid of runs: width x lr x seeds (x the lists below)"),
      list("sweep.width", K::integers, kMaxSweepValues, 1, kMaxWidth, nullptr,
           [](auto& s) -> auto& { return s.sweep.width; }, always,
           "each replaces every hidden width (a transformer's d_model); empty: the model's"),
      list("sweep.lr", K::numbers, kMaxSweepValues, 1e-12, 1e6, nullptr, [](auto& s) -> auto& { return s.sweep.lr; },
           always, "learning rates; empty: optimizer.lr"),
      list("sweep.seeds", K::integers, kMaxSweepValues, 0, 2147483647, "needs at least one seed",
           [](auto& s) -> auto& { return s.sweep.seeds; }, always, "initialization seeds"),
      list("sweep.gamma", K::numbers, kMaxSweepValues, 0, 3, nullptr, [](auto& s) -> auto& { return s.sweep.gamma; },
           kWhenSet, "initialization rates")
          .only_for(a_transformer_with_gamma_init, "model.kind \"transformer\" with model.transformer.init \"gamma\""),
      list("sweep.weight_decay", K::numbers, kMaxSweepValues, 0, 100, nullptr,
           [](auto& s) -> auto& { return s.sweep.weight_decay; }, kWhenSet, "weight decays")
          .only_for(a_transformer, kTransformer),
      list("sweep.depth", K::integers, kMaxSweepValues, 1, kMaxDepth, nullptr,
           [](auto& s) -> auto& { return s.sweep.depth; }, kWhenSet, "numbers of blocks")
          .only_for(a_residual_mlp, kResidualMlp),
      phase_points("sweep.phase_points", kMaxSweepValues, -kMaxGamma, kMaxGamma,
                   "the (gamma, gamma') points of the phase diagram")
          .only_for(two_layer_gamma, "parametrization.preset \"two_layer_gamma\""),
  };
}

std::vector<SpecField> all_fields() {
  std::vector<SpecField> fields = {
      integer("version", 1, 1000000, [](auto& s) -> auto& { return s.version; }, always,
              "the spec format's version (this build reads 1)"),
      text("name", 200, [](auto& s) -> auto& { return s.name; }, always, "shown in the preset list"),
      text("description", 4000, [](auto& s) -> auto& { return s.description; }, kWhenSet,
           "shown under the name"),
      text("view", kMaxViewChars, [](auto& s) -> auto& { return s.view; }, kWhenSet,
           "the figure the page opens on (Views in links, in examples/README.md); empty: vs step"),
  };
  for (auto group : {model_fields, parametrization_fields, task_fields, training_fields})
    for (SpecField& f : group()) fields.push_back(std::move(f));
  fields.push_back(metric_names("metrics", 16, "the series each run records (Metrics, in examples/README.md)"));
  fields.push_back(choice("backend", kBackendNames, [](auto& s) -> auto& { return s.backend; }, kWhenSet,
                          "where to train: auto (the CPU, until WebGPU's speed is measured), cpu, or webgpu (float32)"));
  fields.push_back(choice("precision", kPrecisionNames, [](auto& s) -> auto& { return s.precision; }, kWhenSet,
                          "float32: the matrix products in float32 (see Precision, in examples/README.md)"));
  return fields;
}

std::string kind_word(FieldKind kind) {
  switch (kind) {
    case FieldKind::numbers: return "numbers";
    case FieldKind::integers: return "integers";
    default: return "";
  }
}

}  // namespace

const std::vector<SpecField>& spec_fields() {
  static const std::vector<SpecField> fields = all_fields();
  return fields;
}

const SpecField* spec_field(const std::string& path) {
  static const std::map<std::string, const SpecField*> by_path = [] {
    std::map<std::string, const SpecField*> m;
    for (const SpecField& f : spec_fields()) m[f.path] = &f;
    return m;
  }();
  const auto it = by_path.find(path);
  return it == by_path.end() ? nullptr : it->second;
}

std::string field_allowed(const SpecField& f) {
  const std::string range = "[" + num(f.lo) + ", " + num(f.hi) + "]";
  const std::string up_to = "up to " + std::to_string(f.max_items) + " ";
  switch (f.kind) {
    case FieldKind::object: return "object";
    case FieldKind::number: return "number in " + range;
    case FieldKind::integer: return "integer in " + range;
    case FieldKind::boolean: return "true or false";
    case FieldKind::text: return "text, up to " + std::to_string(f.max_items) + " bytes";
    case FieldKind::choice: {
      std::string names;
      for (const std::string& c : f.choices) names += (names.empty() ? "" : ", ") + c;
      return names;
    }
    case FieldKind::numbers:
    case FieldKind::integers: return up_to + kind_word(f.kind) + " in " + range;
    case FieldKind::names: return up_to + "metric names";
    case FieldKind::abc_layers: return up_to + "{a, b, c}, each in " + range;
    case FieldKind::number_pairs: return up_to + "pairs, each in " + range;
  }
  return "";
}

std::string field_default(const SpecField& f) {
  static const ExperimentSpec defaults;
  return f.write ? json::write(f.write(defaults)) : "";
}

std::string field_meaning(const SpecField& f) {
  return f.used_by.empty() ? f.help : f.help + "; only for " + f.used_by;
}

std::string spec_fields_markdown() {
  std::string out = "| field | default | allowed | meaning |\n|---|---|---|---|\n";
  for (const SpecField& f : spec_fields())
    if (f.kind != FieldKind::object)
      out += "| `" + f.path + "` | `" + field_default(f) + "` | " + field_allowed(f) + " | " + field_meaning(f) + " |\n";
  return out;
}

const std::map<std::string, std::vector<std::string>>& spec_choice_fields() {
  static const std::map<std::string, std::vector<std::string>> fields = [] {
    std::map<std::string, std::vector<std::string>> m;
    for (const SpecField& f : spec_fields())
      if (f.kind == FieldKind::choice) m[f.path] = f.choices;
    return m;
  }();
  return fields;
}

const std::vector<std::string>& spec_field_choices(const std::string& json_path) {
  static const std::vector<std::string> none;
  const SpecField* f = spec_field(json_path);
  return f ? f->choices : none;
}

bool field_is_set(const SpecField& f, const ExperimentSpec& s) {
  static const ExperimentSpec defaults;
  if (f.kind == FieldKind::object) return !f.written || f.written(s);
  return json::write(f.write(s)) != json::write(f.write(defaults));
}

std::string first_cpu_only_field(const ExperimentSpec& s) {
  for (const SpecField& f : spec_fields()) {
    if (!f.on_device && field_is_set(f, s)) return f.path;
    if (f.device_names.empty()) continue;
    const std::string name = f.write(s).string;
    if (std::find(f.device_names.begin(), f.device_names.end(), name) == f.device_names.end())
      return f.path + " \"" + name + "\"";
  }
  return "";
}

std::vector<std::string> fields_not_exported(const ExperimentSpec& s) {
  std::vector<std::string> out;
  for (const SpecField& f : spec_fields()) {
    if (!f.not_exported.empty() && field_is_set(f, s)) out.push_back(f.path + ": " + f.not_exported);
  }
  return out;
}
