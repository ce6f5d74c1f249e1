// The metrics a spec can ask for, one row each: everything the engine knows about a metric is in its row. The spec
// reader validates names and options against it, the time budget adds its cost, the members build their probes
// from it (in the table's order, which is the order of the series in result files), the backend choice asks
// whether it can be recorded for a member trained on a device, and the result summary takes its best value.
//
// Adding a metric: its probe (engine/metrics/probes.hpp, or a one-line value of the record for a number the record
// already has) and one row in engine/spec/metric_table.cpp.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "engine/metrics/probe.hpp"
#include "engine/spec/experiment_spec.hpp"

// The model kinds a metric applies to.
enum MetricModels : unsigned { kForMlp = 1, kForTransformer = 2, kForBoth = 3 };

// A member's size, for the cost of a record: its trained parameters and the FLOPs of one example's forward pass
// (an MLP's products and activations; engine/spec/time_budget.cpp).
struct MemberSize {
  double params = 0;
  double forward_flops = 0;
};

// One metric's row. Rows are written in engine/spec/metric_table.cpp with named setters over the common case (listed
// by name, for MLPs, lower is better, recorded on a device and in the PyTorch export, possible for any spec, free),
// so a row names only what sets its metric apart.
struct MetricDef {
  const char* name = "";
  unsigned models = kForMlp;  // MetricModels
  bool listable = true;       // a spec may name it in its metrics
  // When a member records it unlisted (train_loss: always; gd_lr: with the optimizer gd_auto); null: only listed.
  bool (*implied)(const ExperimentSpec& s) = nullptr;
  bool higher_is_better = false;      // the result summary keeps max_<name> (else min_<name>)
  bool on_device = true;              // recorded for a member that trains on a device, from the state read back
  bool exported = true;               // the PyTorch program of `muplay export torch` records it (engine/export/)
  bool needs_initial_params = false;  // the member keeps θ at init (Record::initial_params)
  bool whole_train_set = false;       // its probe passes the whole train set through the model at once
  bool needs_hessian = false;         // its probe reads Hessian-vector products (Record::hessian)
  // Why a residual_mlp cannot record it, or null when it can.
  const char* not_for_residual = nullptr;
  // Why `s` cannot record it ("" when it can): the task, the layers, the sizes.
  std::string (*check)(const ExperimentSpec& s) = nullptr;
  // Floating-point operations of one record of one member (the time budget, engine/spec/time_budget.hpp).
  double (*record_flops)(const ExperimentSpec& s, const MemberSize& m) = nullptr;
  // The probe, built when the member starts (after its init).
  std::unique_ptr<Probe> (*make_probe)(const ExperimentSpec& s, Record& r) = nullptr;
};

// Every metric, in the order its series appear in a member.
const std::vector<MetricDef>& metric_table();
const MetricDef* find_metric(const std::string& name);
// The names a spec may list (the rows that are not implied), in table order.
std::vector<std::string> listable_metrics();
// Whether a member of `s` records this metric: listed in s.metrics, or implied, for the spec's model kind.
bool records_metric(const ExperimentSpec& s, const MetricDef& m);
// Whether s.metrics names `name`.
bool lists_metric(const ExperimentSpec& s, const char* name);
// Whether a member of `s` records some metric whose row has `fact` (e.g. &MetricDef::whole_train_set).
bool records_any(const ExperimentSpec& s, bool MetricDef::*fact);
// Appends an error for every listed metric that is unknown, not for this model kind or not possible for this spec.
void check_metrics(const ExperimentSpec& s, std::vector<std::string>& errors);
