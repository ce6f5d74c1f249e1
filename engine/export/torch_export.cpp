#include "engine/export/torch_export.hpp"

#include <cmath>

#include "engine/base/sha256.hpp"
#include "engine/export/torch_pieces.hpp"
#include "engine/spec/metric_table.hpp"
#include "engine/spec/presets.hpp"
#include "engine/spec/result_files.hpp"
#include "engine/spec/spec.hpp"

namespace {

// One tensor of one member, as the engine builds it: how it is drawn and its three numbers.
struct TensorValues {
  std::string tensor;
  const char* init;  // "normal" N(0, std²), "uniform" U(±std), "constant" (std holds the value)
  double std = 0, multiplier = 1, lr_multiplier = 1;
  bool decay = true;  // weight decay applies
};

// value(n) = coef · n^(−exponent)
struct PowerLaw {
  double coef = 0, exponent = 0;
};

// An MLP's rules are read at widths n0, 2 n0 (the fit) and 8 n0 (the check).
constexpr int kMlpFitWidth = 64;

std::string number(double x) { return json::write(json::Value::make_number(x)); }

// Fits coef · n^(−e) through v(n0) and v(2 n0), and checks it at 8 n0. An exponent within 1e-13 of a multiple of
// 1e-12 is rounded to it, so a table reads 0.5, not 0.49999999999999994.
bool fit(double v1, double v2, double v8, int n0, PowerLaw& out) {
  if (v1 == 0 && v2 == 0 && v8 == 0) {
    out = {0, 0};
    return true;
  }
  if (v1 == 0 || v2 == 0 || (v1 > 0) != (v2 > 0)) return false;
  double e = std::log2(v1 / v2);
  const double rounded = std::round(e * 1e12) / 1e12;
  if (std::fabs(e - rounded) < 1e-13) e = rounded;
  out = {v1 * std::pow(double(n0), e), e};
  const double predicted = out.coef * std::pow(8.0 * n0, -e);
  return std::fabs(predicted - v8) <= 1e-12 * std::fabs(v8);
}

// A residual net's width rule by role: "input" (W1), "block" (every block weight, which the width rule treats alike:
// checked here) and "readout"; train.py puts the depth rule's factors (DEPTH_RULE) onto the blocks itself, so one
// table serves every depth. Read at model.depth with the depth rule left out.
std::vector<TensorValues> residual_values(ExperimentSpec s, int width, std::vector<std::string>& errors) {
  s.parametrization.depth_rule = DepthRule::standard;
  const std::vector<TensorScaling> scaling = spec_scaling(s, model_dims(s, width), {});
  const TensorScaling &input = scaling.front(), &block = scaling[1], &readout = scaling.back();
  for (size_t l = 2; l + 1 < scaling.size(); l++)
    if (scaling[l].init_std != block.init_std || scaling[l].multiplier != block.multiplier ||
        scaling[l].lr_multiplier != block.lr_multiplier) {
      errors.push_back("parametrization: the width rule differs between a residual_mlp's blocks");
      return {};
    }
  return {{"input", "normal", input.init_std, input.multiplier, input.lr_multiplier, true},
          {"block", "normal", block.init_std, block.multiplier, block.lr_multiplier, true},
          {"readout", "normal", readout.init_std, readout.multiplier, readout.lr_multiplier, true}};
}

// An MLP's tensors in layer_slices' order: W1, W2, ..., then with model.biases b1, b2, ... (zero-initialized, no
// weight decay).
std::vector<TensorValues> mlp_values(const ExperimentSpec& s, int width, PhasePoint phase) {
  const std::vector<int> dims = model_dims(s, width);
  const std::vector<TensorScaling> scaling = spec_scaling(s, dims, phase);
  std::vector<TensorValues> out;
  for (size_t l = 0; l < scaling.size(); l++)
    out.push_back({"W" + std::to_string(l + 1), "normal", scaling[l].init_std, scaling[l].multiplier,
                   scaling[l].lr_multiplier, true});
  const std::vector<TensorScaling> biases = spec_bias_scaling(s, dims);
  for (size_t l = 0; l < biases.size(); l++)
    out.push_back({"b" + std::to_string(l + 1), "constant", 0, biases[l].multiplier, biases[l].lr_multiplier, false});
  return out;
}

// A Transformer of d_model `width` built as the engine builds it (with room for one sequence): its tensors' rules.
std::vector<TensorValues> transformer_values(const ExperimentSpec& s, int width, double gamma,
                                             double& attention_scale) {
  const Transformer m(transformer_config(s.model.transformer, s.task.anchor, width),
                      transformer_init(s.model.transformer, s.parametrization, gamma), 1);
  attention_scale = m.attention_scale();
  std::vector<TensorValues> out;
  for (const TransformerTensor& t : m.tensors()) {
    const TensorInit& i = t.init;
    const char* init = i.scale == 0 ? "constant" : (i.uniform ? "uniform" : "normal");
    out.push_back({t.name, init, i.scale == 0 ? i.constant : i.scale, i.multiplier, i.lr_multiplier, t.is_matrix()});
  }
  return out;
}

// A block of rules: a member's scaling depends on its width and on its group's coordinate (γ of a Transformer,
// (γ, γ′) of the two-layer model); `key` is that coordinate as a Python tuple.
struct RuleGroup {
  std::string key;
  double gamma = 0;
  PhasePoint phase;
};

std::vector<RuleGroup> rule_groups(const ExperimentSpec& s) {
  std::vector<RuleGroup> out;
  if (is_transformer(s.model.kind)) {
    const std::vector<double> gammas = s.sweep.gamma.empty() ? std::vector<double>{s.model.transformer.gamma}
                                                             : s.sweep.gamma;
    for (double g : gammas) out.push_back({"(" + number(g) + ",)", g, {}});
  } else if (s.parametrization.preset == Preset::two_layer_gamma) {
    std::vector<PhasePoint> phases = s.sweep.phase_points;
    if (phases.empty()) phases.push_back({s.parametrization.gamma, s.parametrization.gamma_prime});
    for (const PhasePoint& p : phases)
      out.push_back({"(" + number(p.gamma) + ", " + number(p.gamma_prime) + ")", 0, p});
  } else {
    out.push_back({"()", 0, {}});
  }
  return out;
}

std::string quoted(const std::string& s) { return json::write(json::Value::make_string(s)); }

// The Python of one group: its Rule rows (and a Transformer's attention scale into `attention`).
std::string group_rules(const ExperimentSpec& s, const RuleGroup& g, std::string& attention,
                        std::vector<std::string>& errors) {
  const bool transformer = is_transformer(s.model.kind);
  // A Transformer's d_model must split into its heads at every width read.
  const int n0 = transformer ? 8 * s.model.transformer.heads : kMlpFitWidth;
  double scale[3] = {0, 0, 0};
  std::vector<TensorValues> at[3];
  const int widths[3] = {n0, 2 * n0, 8 * n0};
  for (int k = 0; k < 3; k++)
    at[k] = transformer                                   ? transformer_values(s, widths[k], g.gamma, scale[k])
            : has_residual_blocks(s.model.kind) ? residual_values(s, widths[k], errors)
                                                      : mlp_values(s, widths[k], g.phase);
  if (!errors.empty()) return "";
  std::string rows;
  for (size_t i = 0; i < at[0].size(); i++) {
    const TensorValues &a = at[0][i], &b = at[1][i], &c = at[2][i];
    PowerLaw sd, mult, lr;
    if (!fit(a.std, b.std, c.std, n0, sd) || !fit(a.multiplier, b.multiplier, c.multiplier, n0, mult) ||
        !fit(a.lr_multiplier, b.lr_multiplier, c.lr_multiplier, n0, lr)) {
      errors.push_back("parametrization: the rule of tensor " + a.tensor + " is not a power of the width");
      continue;
    }
    rows += "        Rule(" + quoted(a.tensor) + ", " + quoted(a.init) + ", " + number(sd.coef) + ", " +
            number(sd.exponent) + ", " + number(mult.coef) + ", " + number(mult.exponent) + ", " + number(lr.coef) +
            ", " + number(lr.exponent) + ", " + (a.decay ? "True" : "False") + "),\n";
  }
  if (transformer) {
    PowerLaw p;
    if (!fit(scale[0], scale[1], scale[2], n0, p)) errors.push_back("model.transformer: the attention scale");
    attention += "    " + g.key + ": (" + number(p.coef) + ", " + number(p.exponent) + "),\n";
  }
  return "    " + g.key + ": [\n" + rows + "    ],\n";
}

// The series train.py records, in the engine's order, and those whose summary keeps the maximum.
std::string series_lists(const ExperimentSpec& s) {
  std::string series, higher;
  for (const MetricDef& m : metric_table()) {
    if (records_metric(s, m)) series += (series.empty() ? "" : ", ") + quoted(m.name);
    if (m.higher_is_better) higher += (higher.empty() ? "" : ", ") + quoted(m.name);
  }
  return "SERIES = [" + series + "]\nHIGHER_IS_BETTER = {" + higher + "}\n";
}

// A residual_mlp's depth rule for train.py: (α, γ) of its spec and optimizer, or None for other models.
std::string depth_rule_line(const ExperimentSpec& s) {
  if (!has_residual_blocks(s.model.kind))
    return "DEPTH_RULE = None  # not a residual_mlp\n";
  const ParametrizationSpec& p = s.parametrization;
  const DepthExponents e = depth_exponents(p.depth_rule, update_rule(s.optimizer.kind), {p.depth_alpha, p.depth_gamma});
  return "# The residual blocks' depth rule, (α, γ) of " + std::string(depth_rule_name(p.depth_rule)) +
         " under this optimizer: with L blocks, each block's\n"
         "# last weight's multiplier × L^(−α) (the branch's output), every block weight's learning-rate multiplier\n"
         "# × L^(−γ) (residual_rules).\n"
         "DEPTH_RULE = (" + number(e.alpha) + ", " + number(e.gamma) + ")\n";
}

// The part of train.py that is this experiment.
std::string experiment_block(const ExperimentSpec& s, std::vector<std::string>& errors) {
  const bool residual = has_residual_blocks(s.model.kind);
  std::string rules, attention;
  for (const RuleGroup& g : rule_groups(s)) rules += group_rules(s, g, attention, errors);
  std::string out =
      "\n\n# ---- The experiment, as `muplay export torch` wrote it ----\n"
      "SPEC = json.loads(r\"\"\"\n" +
      json::write(spec_to_json_every_field(s), 1) +
      "\n\"\"\")\n"
      "RUN_SPEC = SPEC  # main() applies the command line's overrides (--widths, --depths, --lrs, --seeds, --steps)\n"
      "# The series each member records, in the engine's order; the summary keeps the maximum of these, else the "
      "minimum.\n" +
      series_lists(s) +
      "\n# The scaling rules, read from the engine for this spec: per tensor" +
      (residual ? " role (input, every block weight, readout)" : "") +
      ", its init std (or constant), forward\n"
      "# multiplier and learning-rate multiplier, each coef · n^(−exp) with n the member's width" +
      (is_transformer(s.model.kind) ? " (d_model)" : " (every hidden layer)") +
      ".\n"
      "# A tensor W is drawn w ~ N(0, std²) (or U(±std)), used as multiplier · w, and trained at lr · lr multiplier.\n"
      "# The blocks are keyed by " +
      (is_transformer(s.model.kind)                ? "the member's init rate γ"
       : s.parametrization.preset == Preset::two_layer_gamma ? "the member's (γ, γ′)"
                                                             : "nothing (one block)") +
      ".\n"
      "Rule = namedtuple(\"Rule\", \"tensor init std_coef std_exp mult_coef mult_exp lr_coef lr_exp decay\")\n"
      "RULES = {\n"
      "    #        tensor   init   std: coef, exp   multiplier: coef, exp   lr multiplier: coef, exp   decay\n" +
      rules + "}\n" + depth_rule_line(s);
  if (!attention.empty())
    out += "# The attention logits' factor (1/√d_head or 1/d_head), coef · n^(−exp).\nATTENTION_SCALE = {\n" +
           attention + "}\n";
  return out + "\n";
}

void check_exportable(const ExperimentSpec& s, std::vector<std::string>& errors) {
  const char* why = " (examples/README.md, \"PyTorch export\": what it covers)";
  for (const std::string& refusal : fields_not_exported(s)) errors.push_back(refusal + why);
  for (const std::string& name : s.metrics)
    if (const MetricDef* m = find_metric(name); m && !m->exported)
      errors.push_back("metrics: \"" + name + "\" is not recorded by the PyTorch export; leave it out to export" + why);
  if (is_plain_mlp(s.model.kind) && s.sweep.width.empty())
    for (int w : s.model.widths)
      if (w != s.model.widths[0])
        return errors.push_back("model.widths: train.py scales every hidden layer with one width n; give equal "
                                "widths or a sweep.width");
}

std::string readme(const ExperimentSpec& s) {
  const bool fashion = s.task.kind == TaskKind::fashion_mnist;
  // Example widths past the page's: hidden widths of an MLP, d_model of a Transformer.
  const bool transformer = is_transformer(s.model.kind);
  const std::string sweep = transformer ? "256,512,1024" : "4096,8192,16384", big = transformer ? "4096" : "65536";
  const size_t members = sweep_size(s);
  std::string text =
      "# " + s.name + " — PyTorch\n\n"
      "Written by `muplay export torch` from `spec.json`: " + std::to_string(members) + " sweep member" +
      (members == 1 ? "" : "s") + ", trained as `muplay run spec.json` trains them. `train.py` needs only `torch`.\n\n"
      "## Run\n\n"
      "```\n"
      "pip install -r requirements.txt                 # torch; nothing else (Debian: apt install python3-torch)\n"
      "python3 train.py                                # every member: on the first GPU in float32, else the CPU in "
      "the spec's precision\n"
      "python3 train.py --widths " + sweep + " --device cuda\n"
      "torchrun --standalone --nproc_per_node=8 --redirects 2 --tee 2 --log_dir logs train.py --widths " + sweep +
      "   # members split over 8 processes\n"
      "torchrun --standalone --nproc_per_node=8 --redirects 2 --tee 2 --log_dir logs train.py --widths " + big +
      " --ddp-member  # each member over 8 (DDP)\n"
      "torchrun --nnodes=2 --nproc_per_node=8 --rdzv_backend=c10d --rdzv_endpoint=HOST:29500 --redirects 2 --tee 2 "
      "--log_dir logs train.py --widths ...\n"
      "```\n\n"
      "Options: `--widths`, `--lrs`, `--seeds` (and a residual MLP's `--depths`) replace the sweep's axes; "
      "`--steps` the number of steps; `--device auto|cpu|cuda|cuda:N` (auto: CUDA when present); "
      "`--dtype auto|float64|float32|bf16` (auto: the spec's precision on the CPU, float32 on a GPU); "
      "`--threads N` (default: the cores the process may use, shared among torchrun's processes on a machine); "
      "`--out result.json`, `--csv metrics.csv`; `--init-from FILE`; `--quiet`. `python3 train.py --help` lists "
      "them. On a terminal a bar shows each member's progress. train.py sets `OMP_WAIT_POLICY=PASSIVE` unless the "
      "environment says otherwise: spinning OpenMP threads slow a shared machine down. If `python3` cannot import "
      "torch, train.py names a Python on the machine that can.\n\n"
      "torchrun's `--redirects 2 --tee 2 --log_dir logs` write each process's messages (stderr) to `logs/` as well as "
      "the terminal. torch 1.13 and 2.x take the same flags; Debian's torch 1.13 on Python 3.11 fails without them "
      "(its torchrun cannot read the default `0`). Without a GPU, the processes use gloo on the CPU.\n\n"
      "Members are split across processes round-robin; with `--ddp-member` every process holds the member and "
      "trains on its contiguous part of each global mini-batch (the same batches, in the same order, as one "
      "process), and DistributedDataParallel averages the gradients.\n\n";
  if (fashion)
    text +=
        "Fashion-MNIST: `--data-dir DIR` (or `MUPLAY_DATA_DIR`) names a folder with the original IDX files "
        "(`train-images-idx3-ubyte.gz`, `train-labels-idx1-ubyte.gz`, `t10k-images-idx3-ubyte.gz`, "
        "`t10k-labels-idx1-ubyte.gz`), e.g. torchvision's `FashionMNIST(root, download=True)` folder "
        "`root/FashionMNIST/raw`.\n\n";
  if (s.task.kind == TaskKind::table)
    text += "The data set: `" + s.task.table.file + "`" +
            (s.task.table.test_file.empty() ? "" : " and its test set `" + s.task.table.test_file + "`") +
            " beside `train.py` (or in `--data-dir`), checked against the SHA-256 in `spec.json`, and read, split and "
            "standardized as muplay reads it.\n\n";
  text +=
      "## Output\n\n"
      "`result.json` is the muplay result document (schema `muplay-result`, version 1, the series of `muplay run`) "
      "with `\"engine\": \"pytorch\"` and the device in its header; `metrics.csv` holds the same numbers, one row per "
      "member and recorded step. In the muplay page, Import… `result.json`: its members are drawn over the page's "
      "runs, marked and named by their source. A share link carries the spec only, never imported runs.\n\n"
      "## The engine's numbers, exactly\n\n"
      "```\n"
      "muplay export-init spec.json --out init.json\n"
      "python3 train.py --init-from init.json --device cpu --dtype float64\n"
      "```\n\n"
      "From the engine's initial weights, in float64 on the CPU, every series equals `muplay run spec.json`'s to "
      "1e-9 relative or better (muplay's test command checks this). Without `--init-from` the weights are torch's "
      "own draws from the same distributions: the same experiment, other random numbers.\n\n";
  if (lists_metric(s, "sharpness") || s.optimizer.kind == OptimizerKind::gd_auto)
    text +=
        "`sharpness` and gd_auto's λ_max are the engine's power iteration on Hessian-vector products (autograd's "
        "second derivative; for GELU, central differences of the gradient), with its start vector, warm start, "
        "iteration counts and tolerances. Each estimate takes up to 100 products (200 at a saddle; gd_auto: 50), "
        "each a few passes over the whole train set, so at large widths they dominate the run. At a saddle, where "
        "the eigenvalue of largest magnitude is negative, the iteration reruns on H + |λ| I from λ's eigenvector, "
        "which that matrix maps to almost 0: rounding picks the rerun's start, and there `sharpness` agrees with the "
        "engine's to about 1e-5 only. And once full-batch GD reaches the edge of stability (η λ_max > 2) it "
        "multiplies every rounding difference by |1 − η λ_max| per step: from there on the two programs' runs part, "
        "as any two summation orders would.\n\n";
  if (s.model.dropout > 0)
    text += "Dropout's masks are the engine's: the same stream of its random numbers (SplitMix64, the member's "
            "stream 4), drawn in the same order, on the training device, so every device draws the same masks.\n\n";
  text +=
      "## The scaling rules\n\n"
      "`RULES` near the top of `train.py` is the parametrization, read from the engine for this spec: for every "
      "tensor its init std, forward multiplier and learning-rate multiplier as `coef · n^(−exp)` of the member's "
      "width n. That is what makes `--widths` meaningful: the same rule at any width.\n";
  if (has_residual_blocks(s.model.kind))
    text += "\nThis residual MLP's rows are per role (input layer, every block weight, readout) with the width rule "
            "only; `DEPTH_RULE` (α, γ) puts L^(−α) on each block's last weight and L^(−γ) on every block weight's "
            "learning rate, so `--depths` takes the same rule at any depth L.\n";
  if (s.model.asi)
    text += "\nWith `model.asi` the net holds both copies as the engine does, interleaved in hidden layers of 2n "
            "units: a hidden → hidden weight is 2n × 2n, four times a plain net's at width n (half of it the zeros "
            "between the copies), and the result's `width` is 2n.\n";
  if (s.task.gradient_loss)
    text += "\n`task.gradient_loss`: ∂f/∂x is a second autograd pass through the net, and every step and record "
            "backpropagates through it, so a step costs a few times a plain one.\n";
  return text;
}

}  // namespace

std::vector<TableExportFile> table_files(const ExperimentSpec& s) {
  if (s.task.kind != TaskKind::table) return {};
  std::vector<TableExportFile> out{{s.task.table.file, s.task.table_file, s.task.table.sha256}};
  if (s.task.test_table_file) out.push_back({s.task.table.test_file, s.task.test_table_file, s.task.table.test_sha256});
  return out;
}

std::vector<ExportFile> export_torch_project(const ExperimentSpec& s, std::vector<std::string>& errors) {
  check_exportable(s, errors);
  if (!errors.empty()) return {};
  std::string train;
  for (int i = 0; i < kTorchPieceCount; i++) {
    train += kTorchPieces[i].text;
    if (std::string(kTorchPieces[i].name) == "header.py") train += experiment_block(s, errors);
    else if (i + 1 < kTorchPieceCount) train += "\n\n";
  }
  if (!errors.empty()) return {};
  std::vector<ExportFile> files{{"train.py", train}, {"README.md", readme(s)}, {"requirements.txt", "torch\n"},
                                {"spec.json", spec_file_text(s)}};
  // The data set (and its test file) go with the project, under the names the spec gives them.
  for (const auto& [name, file, sha256] : table_files(s)) {
    std::string bytes;
    if (!read_text_file(file->path, bytes) || sha256_hex(bytes) != sha256)
      return errors.push_back("task.table: " + file->path + " changed since it was checked"), std::vector<ExportFile>{};
    files.push_back({name, bytes});
  }
  return files;
}
