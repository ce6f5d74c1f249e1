#include "engine/spec/metric_table.hpp"

#include <algorithm>

#include "engine/kernels/spectral.hpp"
#include "engine/metrics/embedding_lattice.hpp"
#include "engine/metrics/frequency_filter.hpp"
#include "engine/metrics/probes.hpp"
#include "engine/task/task.hpp"

namespace {

bool regression(const ExperimentSpec& s) { return !task_is_classification(s.task); }
std::string fine(const ExperimentSpec&) { return ""; }
double no_cost(const ExperimentSpec&, const MemberSize&) { return 0; }

// Forward passes over `examples` examples.
double forward_flops(const MemberSize& m, double examples) { return m.forward_flops * examples; }
double train_set_flops(const ExperimentSpec& s, const MemberSize& m) { return forward_flops(m, train_rows(s.task)); }
double test_set_flops(const ExperimentSpec& s, const MemberSize& m) { return forward_flops(m, test_rows(s.task)); }
double ood_set_flops(const ExperimentSpec& s, const MemberSize& m) {
  return forward_flops(m, s.task.anchor.ood_test_size);
}

// The test-set pass that test_loss, test_accuracy, id_accuracy and plus_one_share share (Record::test): the first
// of them in the table pays it.
double test_pass_flops(const ExperimentSpec& s, const MemberSize& m, std::initializer_list<const char*> before) {
  for (const char* other : before)
    if (lists_metric(s, other)) return 0;
  return test_set_flops(s, m);
}

// The rows of each kind of check, as functions so that a row stays one line.
std::string needs_classification(const ExperimentSpec& s) {
  return regression(s) ? "test_accuracy needs a classification task" : "";
}
std::string needs_regression(const char* metric, const ExperimentSpec& s) {
  return regression(s) ? "" : std::string(metric) + " needs a regression task";
}
std::string needs_held_out_pairs(const char* metric, const ExperimentSpec& s) {
  if (anchor_task_has_ood(s.task.anchor.kind)) return "";
  return std::string(metric) + " needs held-out anchor pairs: task.anchor.kind \"composite\" or \"two_anchor\"";
}
std::string check_fp_delta(const ExperimentSpec& s) {
  if (s.task.kind == TaskKind::function_1d && s.task.target != Target::four_points) return "";
  return "fp_delta needs a function_1d task on a grid (not four_points)";
}
std::string check_fp_filter(const ExperimentSpec& s) {
  if (!regression(s)) return "fp_filter needs a regression task";
  // the filter averages one function f(x) over the train inputs; the probe reads one output per row
  if (const int outputs = task_outputs(s.task); outputs != 1)
    return "fp_filter needs a regression with one output, not " + std::to_string(outputs);
  if (s.task.train_size <= kMaxFilterPoints) return "";
  return "fp_filter holds a train_size^2 kernel: train_size " + std::to_string(s.task.train_size) + " is more than " +
         std::to_string(kMaxFilterPoints);
}
std::string check_condensation(const ExperimentSpec& s) {
  if (s.model.widths.size() == 1) return "";
  return "condensation needs exactly 1 hidden layer (neurons = input weights and output weight)";
}
std::string check_neuron_paths(const ExperimentSpec& s) {
  if (s.model.widths.size() == 1) return "";
  return "neuron_paths needs exactly 1 hidden layer (neurons = input weights and output weight)";
}

// The train loss: a full-batch MLP step's loss is the train loss; else a pass over the train set (a Transformer:
// over its first kTransformerTrainEval sequences).
double train_loss_flops(const ExperimentSpec& s, const MemberSize& m) {
  if (is_transformer(s.model.kind))
    return forward_flops(m, std::min(kTransformerTrainEval, s.task.train_size));
  const bool full_batch = s.schedule.batch_size == 0 || s.schedule.batch_size >= train_rows(s.task);
  return full_batch ? 0 : train_set_flops(s, m);
}
double probe_batch_flops(const ExperimentSpec& s, const MemberSize& m) {
  return forward_flops(m, std::min(kProbeRows, train_rows(s.task)));
}
// Power iterations at their cap, two products per iteration of 2 FLOPs per weight.
double spectral_norm_flops(const ExperimentSpec&, const MemberSize& m) {
  return 4 * m.params * PowerIteration{}.max_iters;
}
// Power iteration on Hessian-vector products: each product is counted as two gradients on the train set (3 forward
// passes' worth each; the exact product, engine/metrics/hessian_vector.hpp, costs ~8 forward passes in hidden layers,
// 3 in the first). At most 100 iterations, but from the warm start far fewer: 20 is calibrated on preset 27's
// records with scripts/bench-estimates.mjs.
constexpr int kSharpnessIterations = 20;
double sharpness_flops(const ExperimentSpec& s, const MemberSize& m) {
  return kSharpnessIterations * 2 * 3 * train_set_flops(s, m);
}

std::unique_ptr<Probe> train_loss_probe(const ExperimentSpec&, Record&) {
  return value_probe("train_loss", [](Record& r) { return r.train_loss; });
}

bool always(const ExperimentSpec&) { return true; }
bool with_gd_auto(const ExperimentSpec& s) { return s.optimizer.kind == OptimizerKind::gd_auto; }
bool with_gradient_loss(const ExperimentSpec& s) { return s.task.gradient_loss; }

using ProbeMaker = std::unique_ptr<Probe> (*)(const ExperimentSpec&, Record&);

// A row, from the common case (MetricDef's defaults, a free record that any spec can take); each setter changes
// one fact.
struct Row {
  MetricDef d;
  Row(const char* name, unsigned models, ProbeMaker probe) {
    d.name = name;
    d.models = models;
    d.check = fine;
    d.record_flops = no_cost;
    d.make_probe = probe;
  }
  Row& implied(bool (*when)(const ExperimentSpec&)) { return d.implied = when, *this; }
  Row& unlisted(bool (*when)(const ExperimentSpec&)) { return d.listable = false, implied(when); }
  Row& higher_is_better() { return d.higher_is_better = true, *this; }
  Row& cpu_only() { return d.on_device = false, *this; }
  Row& not_exported() { return d.exported = false, *this; }
  Row& initial_params() { return d.needs_initial_params = true, *this; }
  Row& whole_train_set() { return d.whole_train_set = true, *this; }
  Row& hessian() { return d.needs_hessian = true, *this; }
  Row& not_for_residual(const char* why) { return d.not_for_residual = why, *this; }
  Row& check(std::string (*why_not)(const ExperimentSpec&)) { return d.check = why_not, *this; }
  Row& cost(double (*flops)(const ExperimentSpec&, const MemberSize&)) { return d.record_flops = flops, *this; }
  operator MetricDef() const { return d; }
};

constexpr const char* kOneHiddenLayer = "it needs exactly 1 hidden layer: neurons are input weights and output weight";

}  // namespace

const std::vector<MetricDef>& metric_table() {
  using S = const ExperimentSpec&;
  using M = const MemberSize&;
  static const std::vector<MetricDef> rows{
      Row("train_loss", kForBoth, train_loss_probe).implied(always).cost(train_loss_flops),
      Row("test_loss", kForBoth,
          [](S, Record&) { return value_probe("test_loss", [](Record& r) { return r.test().loss; }); })
          .cost(test_set_flops),
      Row("test_accuracy", kForMlp,
          [](S, Record&) { return value_probe("test_accuracy", [](Record& r) { return r.test().accuracy; }); })
          .higher_is_better().check(needs_classification)
          .cost([](S s, M m) { return test_pass_flops(s, m, {"test_loss"}); }),
      Row("batch_loss_mean", kForBoth,
          [](S, Record&) { return value_probe("batch_loss_mean", [](Record& r) { return r.batch_loss_mean; }); }),
      Row("act_rms", kForMlp, [](S, Record& r) { return activation_probe(r, false); }).cost(probe_batch_flops),
      Row("act_delta_rms", kForMlp, [](S, Record& r) { return activation_probe(r, true); }).cost(probe_batch_flops),
      Row("weight_delta_spectral", kForMlp, [](S, Record& r) { return weight_change_probe(r); })
          .initial_params().cost(spectral_norm_flops),
      Row("fp_delta", kForMlp, [](S, Record& r) { return frequency_probe(r); })
          .whole_train_set().check(check_fp_delta).cost(train_set_flops),
      Row("fp_filter", kForMlp, [](S s, Record& r) { return filter_probe(r, s.task.filter_width); })
          .check(check_fp_filter)
          .cost([](S s, M m) {  // the n × n filter, and the train pass unless fp_delta made it
            const double train_pass = lists_metric(s, "fp_delta") ? 0 : train_set_flops(s, m);
            return 2.0 * s.task.train_size * s.task.train_size + train_pass;
          }),
      Row("sign_accuracy", kForMlp, [](S, Record& r) { return sign_accuracy_probe(r); })
          .higher_is_better().check([](S s) { return needs_regression("sign_accuracy", s); })
          .cost([](S s, M m) { return train_set_flops(s, m) + test_set_flops(s, m); }),
      Row("weight_rd", kForMlp, [](S, Record&) { return value_probe("weight_rd", first_layer_relative_distance); })
          .initial_params(),
      Row("sharpness", kForMlp, [](S, Record& r) { return sharpness_probe(r); })
          .cpu_only().whole_train_set().hessian()
          .not_for_residual("its Hessian-vector product has no skips")
          .check([](S s) { return needs_regression("sharpness", s); }).cost(sharpness_flops),
      Row("gd_lr", kForMlp, [](S, Record&) { return value_probe("gd_lr", [](Record& r) { return r.gd_lr; }); })
          .unlisted(with_gd_auto).cpu_only(),
      Row("condensation", kForMlp, [](S, Record& r) { return condensation_probe(r); })
          .initial_params().not_for_residual(kOneHiddenLayer).check(check_condensation),
      Row("neuron_paths", kForMlp, [](S, Record& r) { return neuron_paths_probe(r); })
          .not_for_residual(kOneHiddenLayer).check(check_neuron_paths),
      Row("slope_loss", kForMlp,
          [](S, Record&) { return value_probe("slope_loss", [](Record& r) { return r.slope_loss; }); })
          .unlisted(with_gradient_loss).cpu_only().cost(train_set_flops),
      Row("train_accuracy", kForTransformer,
          [](S, Record&) { return value_probe("train_accuracy", [](Record& r) { return r.train().accuracy; }); })
          .higher_is_better(),
      Row("id_accuracy", kForTransformer,
          [](S, Record&) { return value_probe("id_accuracy", [](Record& r) { return r.test().accuracy; }); })
          .higher_is_better().cost([](S s, M m) { return test_pass_flops(s, m, {"test_loss"}); }),
      Row("ood_accuracy", kForTransformer,
          [](S, Record&) {
            return value_probe("ood_accuracy", [](Record& r) {
              return r.trainer()->evaluate(r.data().anchor.ood, 0).accuracy;
            });
          })
          .higher_is_better().check([](S s) { return needs_held_out_pairs("ood_accuracy", s); }).cost(ood_set_flops),
      Row("commutativity", kForTransformer,
          [](S, Record&) {
            return value_probe("commutativity", [](Record& r) { return r.trainer()->commutativity(); });
          })
          .higher_is_better().check([](S s) { return needs_held_out_pairs("commutativity", s); })
          .cost([](S s, M m) { return 2 * ood_set_flops(s, m); }),
      Row("wq_cosine", kForTransformer,
          [](S, Record&) {
            return value_probe("wq_cosine", [](Record& r) { return r.trainer()->query_row_cosine(0); });
          })
          .higher_is_better(),
      Row("embedding_order", kForTransformer,
          [](S, Record&) {
            return value_probe("embedding_order", [](Record& r) { return embedding_order(r.trainer()->model()); });
          })
          .higher_is_better(),
      Row("transformer_coords", kForTransformer, [](S, Record& r) { return transformer_coord_probe(r); })
          .cost(probe_batch_flops),
      Row("plus_one_share", kForTransformer,
          [](S, Record&) { return value_probe("plus_one_share", [](Record& r) { return r.test().plus_one_share; }); })
          .cost([](S s, M m) { return test_pass_flops(s, m, {"test_loss", "id_accuracy"}); }),
  };
  return rows;
}

const MetricDef* find_metric(const std::string& name) {
  for (const MetricDef& m : metric_table())
    if (name == m.name) return &m;
  return nullptr;
}

std::vector<std::string> listable_metrics() {
  std::vector<std::string> out;
  for (const MetricDef& m : metric_table())
    if (m.listable) out.push_back(m.name);
  return out;
}

bool records_metric(const ExperimentSpec& s, const MetricDef& m) {
  const unsigned kind = is_transformer(s.model.kind) ? kForTransformer : kForMlp;
  if (!(m.models & kind)) return false;
  if (m.implied && m.implied(s)) return true;
  return lists_metric(s, m.name);
}

bool lists_metric(const ExperimentSpec& s, const char* name) {
  return std::find(s.metrics.begin(), s.metrics.end(), name) != s.metrics.end();
}

bool records_any(const ExperimentSpec& s, bool MetricDef::*fact) {
  for (const MetricDef& m : metric_table())
    if (m.*fact && records_metric(s, m)) return true;
  return false;
}

namespace {

std::string names_for(unsigned kind) {
  std::string out;
  for (const MetricDef& m : metric_table())
    if (m.listable && (m.models & kind)) out += (out.empty() ? "" : ", ") + std::string(m.name);
  return out;
}

// "" when `name` fits the spec; else what is wrong.
std::string metric_problem(const ExperimentSpec& s, const std::string& name) {
  const MetricDef* m = find_metric(name);
  if (!m || !m->listable) return "\"" + name + "\" is not one of " + names_for(kForBoth);
  const bool transformer = is_transformer(s.model.kind);
  if (transformer && !(m->models & kForTransformer))
    return "\"" + name + "\" is an MLP measurement; a transformer records " + names_for(kForTransformer);
  if (!transformer && !(m->models & kForMlp)) return "\"" + name + "\" needs model.kind \"transformer\"";
  if (has_residual_blocks(s.model.kind) && m->not_for_residual)
    return "\"" + name + "\" is not for a residual_mlp (" + m->not_for_residual + ")";
  return m->check(s);
}

}  // namespace

void check_metrics(const ExperimentSpec& s, std::vector<std::string>& errors) {
  for (size_t i = 0; i < s.metrics.size(); i++) {
    const std::string problem = metric_problem(s, s.metrics[i]);
    if (!problem.empty()) errors.push_back("metrics[" + std::to_string(i) + "]: " + problem);
  }
}
