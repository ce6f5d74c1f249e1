#include "engine/run/runner.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <stdexcept>

#include "engine/run/mlp_member.hpp"
#include "engine/run/transformer_member.hpp"
#include "engine/spec/metric_table.hpp"
#include "engine/spec/result_files.hpp"

namespace {

TaskData make_data(const ExperimentSpec& spec, const std::string& fashion_mnist_dir) {
  TaskData data = make_task(spec.task, fashion_mnist_dir);
  if (spec.model.input_bias) {
    append_constant_input(data.train);
    append_constant_input(data.test);
  }
  return data;
}

// The member of `spec` at `coords`: an MlpMember or a TransformerMember, training on `device` where the spec's
// backend picks it (engine/gpu/gpu_device.hpp: choose_backend).
std::unique_ptr<Member> make_member(const ExperimentSpec& spec, const TaskData& data, MemberCoords coords,
                                    GpuDevice* device, const std::string& why_none) {
  if (is_transformer(spec.model.kind)) {
    auto m = std::make_unique<TransformerMember>(spec, data, coords);
    m->start_on(device, why_none);
    return m;
  }
  auto m = std::make_unique<MlpMember>(spec, data, coords);
  m->start_on(device, why_none);
  return m;
}

json::Value number_or_null(double x) { return std::isfinite(x) ? json::Value::make_number(x) : json::Value(); }

json::Value run_summary(const Member& run) {
  json::Value s = json::Value::make_object();
  for (const Series& series : run.series()) {
    if (series.values.empty() || series.name.find('/') != std::string::npos) continue;
    s.set("final_" + series.name, number_or_null(series.values.back()));
    const MetricDef* metric = find_metric(series.name);
    const bool higher_better = metric && metric->higher_is_better;
    const double best = higher_better ? *std::max_element(series.values.begin(), series.values.end())
                                      : *std::min_element(series.values.begin(), series.values.end());
    s.set((higher_better ? "max_" : "min_") + series.name, number_or_null(best));
  }
  return s;
}

}  // namespace

// One member's step; an exception ends that member as failed instead of the whole sweep (or the page). It is a
// separate function with a plain C name because the page's build can catch exceptions only in functions it names
// (web/CMakeLists.txt: EXCEPTION_CATCHING_ALLOWED; catching everywhere would slow every call in the engine).
extern "C" [[gnu::noinline]] void muplay_guarded_step(Member* run, const char* injected_fault) {
  try {
    if (injected_fault) throw std::runtime_error(injected_fault);
    run->step();
  } catch (const std::exception& e) {
    run->fail(e.what());
  } catch (...) {
    run->fail("unknown error");
  }
}

Runner::Runner(const ExperimentSpec& spec, const std::string& fashion_mnist_dir)
    : Runner(spec, fashion_mnist_dir, nullptr, "this program has no WebGPU (only the page does)") {}

Runner::Runner(const ExperimentSpec& spec, const std::string& fashion_mnist_dir, GpuDevice* device,
               const std::string& why_none)
    : spec_(spec), data_(make_data(spec_, fashion_mnist_dir)) {
  for (const MemberCoords& c : sweep_members(spec_))
    members_.push_back(make_member(spec_, data_for(c.seed), c, device, why_none));
  batch_.reserve(members_.size());
}

const TaskData& Runner::data_for(uint64_t seed) {
  if (!spec_.task.data_per_seed) return data_;
  auto found = seed_data_.find(seed);
  if (found != seed_data_.end()) return found->second;
  ExperimentSpec reseeded = spec_;
  reseeded.task.seed = seed;
  return seed_data_.emplace(seed, make_data(reseeded, "")).first->second;  // anchor tasks only: no files to read
}

void Runner::train_shard(int shard, int shards) {
  shard_ = shard;
  shard_of_ = shard_plan(shards);
}

std::vector<int> Runner::shard_plan(int shards) const {
  std::vector<int> order(members_.size());
  std::iota(order.begin(), order.end(), 0);
  const auto cost = [&](int i) { return members_[size_t(i)]->parameters().size(); };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return cost(a) > cost(b); });
  std::vector<size_t> load(size_t(std::max(shards, 1)), 0);
  std::vector<int> shard_of(members_.size());
  for (int i : order) {
    const size_t least = size_t(std::min_element(load.begin(), load.end()) - load.begin());
    shard_of[size_t(i)] = int(least);
    load[least] += cost(i);
  }
  return shard_of;
}

bool Runner::done() const {
  for (int i = 0; i < int(members_.size()); i++)
    if (trains(i)) return false;
  return true;
}

long Runner::state_revision() const {
  long revision = total_steps_;  // every term only grows (on the CPU), so the sum changes whenever one does
  for (const auto& r : members_)
    revision += r->parameters_adopted() + long(r->recorded_steps().size()) + (r->done() ? 1 : 0);
  return revision;
}

long Runner::planned_steps() const { return long(members_.size()) * spec_.schedule.steps; }

long Runner::progress_steps() const {
  long steps = 0;
  for (const auto& r : members_) steps += r->done() ? spec_.schedule.steps : r->steps_done();
  return steps;
}

bool Runner::step() {
  const int count = int(members_.size());
  for (int k = 0; k < count; k++) {
    Member& run = *members_[size_t((next_ + k) % count)];
    if (!trains((next_ + k) % count)) continue;
    const bool fault = fault_.member == (next_ + k) % count && fault_.step == run.steps_done();
    const int before = run.steps_done();
    muplay_guarded_step(&run, fault ? fault_.message.c_str() : nullptr);
    total_steps_ += run.steps_done() - before;  // 0 while a device read is pending; negative if a lost device rewinds
    if (run.waiting()) continue;
    next_ = (next_ + k + 1) % count;
    return true;
  }
  return !done();
}

void Runner::step_member(void* context, int index) {
  const ParallelSlice& slice = *static_cast<const ParallelSlice*>(context);
  Runner& self = *slice.runner;
  const int member = self.batch_[size_t(index)];
  Member& run = *self.members_[size_t(member)];
  for (int k = 0; k < slice.steps && !run.done(); k++) {
    const bool fault = self.fault_.member == member && self.fault_.step == run.steps_done();
    muplay_guarded_step(&run, fault ? self.fault_.message.c_str() : nullptr);
  }
}

bool Runner::step_parallel(WorkerPool& pool, int steps, int members) {
  if (members_on_gpu() > 0) return step();
  const int count = int(members_.size());
  batch_.clear();
  for (int k = 0; k < count && int(batch_.size()) < members; k++)
    if (trains((next_ + k) % count)) batch_.push_back((next_ + k) % count);
  if (batch_.empty()) return false;
  next_ = (batch_.back() + 1) % count;
  // Widths are usually listed in ascending order: hand out the biggest members first, so no thread is left with a
  // big member at the end while the others wait.
  std::sort(batch_.begin(), batch_.end(), std::greater<int>());
  long before = 0, after = 0;
  for (const auto& r : members_) before += r->steps_done();
  ParallelSlice slice{this, steps};
  pool.run(int(batch_.size()), step_member, &slice);
  for (const auto& r : members_) after += r->steps_done();
  total_steps_ += after - before;
  return !done();
}

bool Runner::waiting() const {
  for (int i = 0; i < int(members_.size()); i++)
    if (trains(i) && !members_[size_t(i)]->waiting()) return false;
  return !done();
}

int Runner::members_on_gpu() const {
  int n = 0;
  for (const auto& r : members_) n += r->on_gpu();
  return n;
}

std::string Runner::gpu_name() const {
  for (const auto& r : members_)
    if (!r->gpu_name().empty()) return r->gpu_name();
  return "";
}

bool Runner::moved_to_cpu() const {
  for (const auto& r : members_)
    if (r->moved_to_cpu()) return true;
  return false;
}

void Runner::inject_fault(int member, int step, const std::string& message) { fault_ = Fault{member, step, message}; }

std::string Runner::backend_note() const {
  for (const auto& r : members_)
    if (!r->backend_note().empty()) return r->backend_note();
  return "";
}

json::Value Runner::results() const {
  using json::Value;
  Value root = Value::make_object();
  root.set("schema", Value::make_string("muplay-result"));
  root.set("version", Value::make_number(kResultVersion));
  root.set("spec", spec_to_json(spec_));
  Value runs = Value::make_array();
  for (const auto& r : members_) {
    Value run = Value::make_object();
    run.set("width", Value::make_number(r->width()));
    if (has_residual_blocks(spec_.model.kind))
      run.set("depth", Value::make_number(member_depth(spec_, r->coords())));
    run.set("lr", Value::make_number(r->coords().lr));
    run.set("seed", Value::make_number(double(r->coords().seed)));
    if (r->transformer()) {
      run.set("gamma", Value::make_number(r->coords().gamma));
      run.set("weight_decay", Value::make_number(r->coords().weight_decay));
    }
    if (spec_.parametrization.preset == Preset::two_layer_gamma) {
      run.set("gamma", Value::make_number(r->coords().phase.gamma));
      run.set("gamma_prime", Value::make_number(r->coords().phase.gamma_prime));
    }
    // Where its numbers were computed: "webgpu" for a run that started on a device (float32), with moved_to_cpu
    // when it lost the device and went on on the CPU; "cpu" with the precision of the CPU kernels otherwise.
    const bool started_on_gpu = !r->gpu_name().empty();
    run.set("backend", Value::make_string(started_on_gpu ? "webgpu" : "cpu"));
    if (r->moved_to_cpu()) run.set("moved_to_cpu", Value::make_bool(true));
    run.set("precision", Value::make_string(precision_name(arithmetic_precision(spec_))));
    run.set("status", Value::make_string(run_status_name(r->status())));
    run.set("diverged_at", r->diverged_at() >= 0 ? Value::make_number(r->diverged_at()) : Value());
    run.set("steps_done", Value::make_number(r->steps_done()));
    if (r->status() == RunStatus::failed) run.set("error", Value::make_string(r->error()));
    Value steps = Value::make_array();
    for (int t : r->recorded_steps()) steps.push(Value::make_number(t));
    run.set("recorded_steps", steps);
    Value series = Value::make_object();
    for (const Series& s : r->series()) {
      Value values = Value::make_array();
      for (double x : s.values) values.push(number_or_null(x));
      series.set(s.name, values);
    }
    run.set("series", series);
    run.set("summary", run_summary(*r));
    runs.push(run);
  }
  root.set("runs", runs);
  return root;
}
