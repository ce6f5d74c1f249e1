#include "engine/run/member.hpp"

#include <cmath>

#include "engine/gpu/gpu_training.hpp"  // the complete type, to destroy a Member built halfway
#include "engine/spec/metric_table.hpp"

const char* run_status_name(RunStatus s) {
  switch (s) {
    case RunStatus::running: return "running";
    case RunStatus::finished: return "finished";
    case RunStatus::diverged: return "diverged";
    case RunStatus::failed: return "failed";
  }
  return "?";
}

Member::Member(const ExperimentSpec& spec, const TaskData& data, MemberCoords coords)
    : spec_(spec), data_(data), coords_(coords) {}

void Member::add_probes(Record& record) {
  record_ = &record;
  for (const MetricDef& m : metric_table())
    if (records_metric(spec_, m) && m.needs_initial_params && initial_params_.empty()) initial_params_ = parameters();
  // One slot per recorded step, reserved now so that recording never allocates.
  const size_t records = size_t(spec_.schedule.steps / spec_.schedule.record_every + 3);
  size_t widest = 0;
  for (const MetricDef& m : metric_table()) {
    if (!records_metric(spec_, m)) continue;
    probes_.push_back(m.make_probe(spec_, record));
    for (const std::string& name : probes_.back()->series()) {
      series_.push_back({name, {}});
      series_.back().values.reserve(records);
    }
    widest = std::max(widest, probes_.back()->series().size());
  }
  probe_values_.resize(widest);
  recorded_steps_.reserve(records);
}

void Member::begin_record() { record_->begin(int(recorded_steps_.size())); }

void Member::record(int t) {
  record_->batch_loss_mean = batch_loss_sum_ / batch_losses_;
  recorded_steps_.push_back(t);
  size_t next = 0;
  for (const std::unique_ptr<Probe>& p : probes_) {
    p->measure(*record_, probe_values_.data());
    for (size_t i = 0; i < p->series().size(); i++) series_[next++].values.push_back(probe_values_[i]);
  }
}

bool Member::diverging(double loss) const { return !std::isfinite(loss) || loss > spec_.schedule.divergence_loss; }

void Member::diverge(int t) {
  status_ = RunStatus::diverged;
  diverged_at_ = t;
}

void Member::fail(const std::string& why) {
  status_ = RunStatus::failed;
  error_ = why;
}

void Member::adopt_state(int steps_done, RunStatus status, int diverged_at, bool reached_stop_loss,
                         const std::string& error) {
  step_ = steps_done;
  status_ = status;
  diverged_at_ = diverged_at;
  reached_stop_loss_ = reached_stop_loss;
  error_ = error;
}

void Member::adopt_record(int step, const double* values) {
  recorded_steps_.push_back(step);
  for (size_t i = 0; i < series_.size(); i++) series_[i].values.push_back(values[i]);
}

void Member::adopt_parameters(const double* params) {
  load_parameters(params);
  parameters_adopted_++;
}

const Series* Member::find_series(const std::string& name) const {
  for (const Series& s : series_)
    if (s.name == name) return &s;
  return nullptr;
}
