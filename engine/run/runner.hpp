// Runs every member of a sweep (width × lr × seed) side by side, one step at a time, round robin,
// so a caller can advance it in small time slices (the page does, each frame) and all curves grow together.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/json.hpp"
#include "engine/base/worker_pool.hpp"
#include "engine/run/member.hpp"
#include "engine/spec/spec.hpp"

class Runner {
 public:
  // spec must be valid (parse_spec); fashion_mnist_dir: where a fashion_mnist task's files are (SpecLimits).
  explicit Runner(const ExperimentSpec& spec, const std::string& fashion_mnist_dir = "");
  // Members train on `device` where the spec's backend picks it (make_member); null: none, `why_none` says why.
  Runner(const ExperimentSpec& spec, const std::string& fashion_mnist_dir, GpuDevice* device,
         const std::string& why_none);

  // Trains only the members that shard_plan(shards) gives to `shard`; the others stay where they are and count as
  // done. Several runners of one spec, each with its shard, train a sweep side by side (the page's training workers):
  // each member computes what it computes alone, so together they give the whole runner's results, bit for bit.
  void train_shard(int shard, int shards);
  bool in_shard(int member) const { return shard_of_.empty() || shard_of_[size_t(member)] == shard_; }
  // Each member's shard, so that the shards' work is about equal: a member costs its parameter count per step (a
  // step's products scale with it), and the costliest goes first to the least loaded shard (ties: the lowest index).
  // A sweep of equal members alternates 0, 1, 0, 1, ...; one of widths 64 … 1024 × 3 seeds does not give two of its
  // three widest to one shard. The same for every runner of the spec (the page's replica sends Step by it).
  std::vector<int> shard_plan(int shards) const;

  // Advances the next unfinished member by one step. Returns false when every member is done.
  // An exception in a member's step ends that member as failed (Member::error() says why); the others go on.
  bool step();
  bool done() const;
  // Advances the next `members` unfinished members (round robin, as step() takes them) by up to `steps` steps each,
  // spread over `pool`'s threads. Each member computes exactly what step() makes it compute (members share nothing
  // they write), so the results are the same, bit for bit. Members on a device talk to it from this thread only:
  // while any is, this takes one step() instead. Returns false when every member is done.
  bool step_parallel(WorkerPool& pool, int steps, int members);
  long total_steps() const { return total_steps_; }  // steps taken, all members together
  // Changes whenever a member's parameters, records or status may have (a step, a final record, a replica's adopted
  // message): views that cache what they compute from the members key on it.
  long state_revision() const;
  long planned_steps() const;                        // steps when every member finishes
  long progress_steps() const;  // toward planned_steps(): a run that ended early (diverged) counts as complete

  const ExperimentSpec& spec() const { return spec_; }
  // Train and test sets (with the folded-in bias column) of task.seed. With task.data_per_seed each member trains on
  // its own seed's data instead (a transformer member's AnchorTrainer::data()).
  const TaskData& data() const { return data_; }
  const std::vector<std::unique_ptr<Member>>& members() const { return members_; }
  int active_run() const { return next_; }
  // Every unfinished member waits for its device to hand back a record step: stepping again now gains nothing.
  bool waiting() const;
  int members_on_gpu() const;  // members training on a device now
  std::string gpu_name() const;  // the adapter the members started on ("" if none did)
  std::string backend_note() const;  // the first member's note about its backend ("" when none)
  bool moved_to_cpu() const;  // a member lost its device and went on on the CPU

  // A replica's side of training elsewhere (engine/run/runner_progress.hpp): the step count and round-robin place the
  // runners it follows reached.
  void adopt_progress(long total_steps, int active_run) {
    total_steps_ = total_steps;
    next_ = active_run;
  }

  // Result document: schema "muplay-result" version 1 (examples/README.md, "The result document").
  json::Value results() const;

  // For tests of the fault handling: member `member` throws std::runtime_error(message) when it starts step `step`.
  void inject_fault(int member, int step, const std::string& message);

 private:
  ExperimentSpec spec_;
  TaskData data_;
  std::map<uint64_t, TaskData> seed_data_;  // task.data_per_seed: each sweep seed's data
  std::vector<std::unique_ptr<Member>> members_;
  int next_ = 0;
  long total_steps_ = 0;
  int shard_ = 0;               // train_shard
  std::vector<int> shard_of_;   // shard_plan's, or empty: every member
  bool trains(int member) const { return in_shard(member) && !members_[size_t(member)]->done(); }
  struct Fault { int member = -1, step = -1; std::string message; } fault_;
  std::vector<int> batch_;  // the members of a step_parallel batch (capacity: every member, reserved once)
  struct ParallelSlice { Runner* runner; int steps; };
  static void step_member(void* slice, int index);  // a WorkerPool job: one member's part of step_parallel
  const TaskData& data_for(uint64_t seed);  // the data a member of this sweep seed trains on
};

