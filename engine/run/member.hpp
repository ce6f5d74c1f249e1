// One sweep member: a model of one kind at one point of the sweep (width, lr, seed, …), trained one step at a time,
// with the series its metrics record. The Runner, the analyses and the page's views see members only through this
// interface; MlpMember (engine/run/mlp_member.hpp) and TransformerMember (engine/run/transformer_member.hpp) hold
// the model, its training step on the CPU and on a device, and fill the Record their probes measure.
//
// At every recorded step t the series describe the parameters θ_t (before update t). The metrics, their series
// and their order come from the metric table (engine/spec/metric_table.hpp).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/metrics/probe.hpp"
#include "engine/model/batch_order.hpp"
#include "engine/spec/experiment_spec.hpp"
#include "engine/task/task.hpp"

class GpuDevice;
struct GpuTraining;

enum class RunStatus { running, finished, diverged, failed };  // failed: an exception (Runner::step caught it)
const char* run_status_name(RunStatus s);

struct Series {
  std::string name;  // "train_loss", "act_rms/h1", ..., "act_rms/f"
  std::vector<double> values;  // one per recorded step
};

class Member {
 public:
  virtual ~Member();

  virtual void step() = 0;  // one optimizer step; records metrics on schedule; no allocation
  bool done() const { return status_ != RunStatus::running; }

  virtual int width() const = 0;  // the hidden width n of an MLP, d_model of a Transformer
  virtual std::string label() const = 0;  // "n=256 lr=0.1 seed=0"
  virtual const std::vector<double>& parameters() const = 0;  // θ, every tensor in one buffer
  virtual const Mlp* mlp() const { return nullptr; }  // an MLP member's network (views draw its neurons)
  virtual const AnchorTrainer* transformer() const { return nullptr; }  // a Transformer member's trainer
  virtual AnchorTrainer* transformer() { return nullptr; }
  // The parameters at init, kept when a metric needs them (the table's needs_initial_params); else empty.
  const std::vector<double>& initial_params() const { return initial_params_; }

  const MemberCoords& coords() const { return coords_; }
  RunStatus status() const { return status_; }
  int steps_done() const { return step_; }
  int diverged_at() const { return diverged_at_; }  // -1 unless diverged
  bool reached_stop_loss() const { return reached_stop_loss_; }  // finished early at schedule.stop_loss_ratio
  // Ends the member as failed with `why` (Runner::step calls it when a step throws); error() is "" unless failed.
  void fail(const std::string& why);
  const std::string& error() const { return error_; }
  const std::vector<int>& recorded_steps() const { return recorded_steps_; }
  const std::vector<Series>& series() const { return series_; }
  const Series* find_series(const std::string& name) const;

  // A replica's side of training elsewhere (engine/run/runner_progress.hpp): the page draws a member that never steps
  // while a Web Worker trains its twin, built from the same spec; these take on the state the twin reached.
  void adopt_state(int steps_done, RunStatus status, int diverged_at, bool reached_stop_loss, const std::string& error);
  void adopt_record(int step, const double* values);  // one value per series, in series() order
  void adopt_parameters(const double* params);  // parameters().size() of them
  // How many times the parameters were adopted: with steps_done(), it says when a view must redraw a model.
  int parameters_adopted() const { return parameters_adopted_; }

  bool on_gpu() const { return gpu_ != nullptr; }
  const std::string& gpu_name() const { return gpu_name_; }  // the adapter it started on ("" for the CPU)
  bool moved_to_cpu() const { return moved_to_cpu_; }  // it lost its device and went on on the CPU
  // Waiting for the device to hand back a record step's state (the page's frame loop moves on meanwhile).
  bool waiting() const;
  const std::string& backend_note() const { return backend_note_; }  // why not where expected; a lost device

 protected:
  Member(const ExperimentSpec& spec, const TaskData& data, MemberCoords coords);
  // Builds the probes of the spec's metrics on `record`, in the table's order, with a series each; called by the
  // member's constructor once its model is initialized.
  void add_probes(Record& record);
  // A record step: begin_record() starts it (the record forgets the last one's evaluations), the member sets the
  // record's own numbers (train_loss, …), then record(t) has every probe measure.
  void begin_record();
  void record(int t);
  void diverge(int t);
  bool diverging(double loss) const;  // NaN, inf or above schedule.divergence_loss
  // The device's half of step(): one stepper for every model kind (engine/run/member_gpu.cpp), driven by the
  // model's training plan. start_gpu takes over a plan the member has built and filled (its data and weights
  // uploaded); each gpu_step then issues a step, or waits for a record step's read and absorbs it, or moves the
  // member to the CPU when the device is lost.
  void start_gpu(std::unique_ptr<GpuTraining> g, GpuDevice* device);
  void gpu_step();
  // What the stepper asks of the model.
  struct HostState {
    double* params;
    double* grads;
    double* first_moment;   // the optimizer's moments, as long as params (unused where the plan has none)
    double* second_moment;
  };
  virtual HostState host_state() = 0;
  virtual void load_parameters(const double* params) = 0;  // copies parameters().size() of them into the model
  virtual BatchOrder& batch_order() = 0;
  virtual void record_read(int t, double last_batch_loss) = 0;  // a record step's state came back
  virtual void finish() = 0;  // after the last step (on a device: its state came back): the final record
  virtual void finish_update(int t) = 0;  // on the CPU: update t from the gradient that came back (a lost device)


  const ExperimentSpec& spec_;
  const TaskData& data_;
  MemberCoords coords_;
  int step_ = 0;
  RunStatus status_ = RunStatus::running;
  int diverged_at_ = -1;
  std::string error_;
  bool reached_stop_loss_ = false;
  double batch_loss_sum_ = 0;  // Σ of the mini-batch losses of the steps taken (or being taken)
  int batch_losses_ = 0;
  std::vector<double> initial_params_;
  std::unique_ptr<GpuTraining> gpu_;  // set while training on a device
  std::string backend_note_;
  std::string gpu_name_;
  bool moved_to_cpu_ = false;
  int parameters_adopted_ = 0;

 private:
  void gpu_issue_step();
  void gpu_absorb_read();
  void gpu_fall_back(const std::string& why);
  void release_gpu();

  Record* record_ = nullptr;
  std::vector<std::unique_ptr<Probe>> probes_;
  std::vector<double> probe_values_;
  std::vector<int> recorded_steps_;
  std::vector<Series> series_;
};
