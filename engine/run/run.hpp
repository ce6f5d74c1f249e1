// One sweep member: a model, its optimizer and its recorded metrics, advanced one step at a time.
//
// At every recorded step t the metrics describe the parameters θ_t (before update t), measured on fixed sets:
// train loss on the whole train set, test loss/accuracy on the test set, and the RMS of every layer's
// preactivation h_l (and of its change since init) on a fixed probe batch (the first train examples),
// and how far each weight matrix moved, ‖W_l − W_l⁰‖_* / ‖W_l⁰‖_* (spectral norms, experiment E4).
// batch_loss_mean is the running mean of the mini-batch losses of steps 0…t (at the final record: of the whole
// run): over one epoch, the "mean training loss over the epoch" of experiment E2, free of extra forward passes.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/metrics/frequency.hpp"
#include "engine/metrics/frequency_filter.hpp"
#include "engine/metrics/hessian.hpp"
#include "engine/metrics/neurons.hpp"
#include "engine/model/anchor_trainer.hpp"
#include "engine/model/gradient_loss.hpp"
#include "engine/model/mlp.hpp"
#include "engine/model/optimizer.hpp"
#include "engine/spec/spec.hpp"
#include "engine/task/task.hpp"

class GpuDevice;
struct GpuTraining;

struct MemberCoords {
  int width = 0;  // 0: model.widths as written
  double lr = 0;
  uint64_t seed = 0;
  double gamma = 0;         // transformer: initialization rate (γ-init)
  double weight_decay = 0;  // transformer: the optimizer's weight decay λ
  PhasePoint phase;  // (γ, γ′) of a two_layer_gamma member
};

// What of the phenomena additions (spec/phenomena.md) the device kernel plan does not do: the step rule gd_auto,
// stop_loss_ratio, the new activations and the sharpness metric (Hessian-vector products on the CPU model), as a
// phrase for the backend note; "" when a spec can train on a device.
std::string phenomena_cpu_only(const ExperimentSpec& s);

enum class RunStatus { running, finished, diverged, failed };  // failed: an exception (Runner::step caught it)
const char* run_status_name(RunStatus s);

struct Series {
  std::string name;  // "train_loss", "act_rms/h1", ..., "act_rms/f"
  std::vector<double> values;  // one per recorded step
};

class Run {
 public:
  // `data` is shared by all members and must outlive the run. The spec must be valid.
  Run(const ExperimentSpec& spec, const TaskData& data, MemberCoords coords);
  // Trains on `device` when the spec's backend picks it (engine/gpu/gpu_device.hpp: choose_backend); `device` may be
  // null, `why_none` then says why there is none. Defined in run_gpu.cpp, with the GPU half of step().
  Run(const ExperimentSpec& spec, const TaskData& data, MemberCoords coords, GpuDevice* device,
      const std::string& why_none);
  ~Run();

  void step();  // one optimizer step; records metrics on schedule; no allocation
  bool done() const { return status_ != RunStatus::running; }

  const MemberCoords& coords() const { return coords_; }
  RunStatus status() const { return status_; }
  int steps_done() const { return step_; }
  int diverged_at() const { return diverged_at_; }  // -1 unless diverged
  bool reached_stop_loss() const { return reached_stop_loss_; }  // finished early at schedule.stop_loss_ratio
  // Ends the run as failed with `why` (Runner::step calls it when a step throws); error() is "" unless failed.
  void fail(const std::string& why);
  const std::string& error() const { return error_; }
  const std::vector<int>& recorded_steps() const { return recorded_steps_; }
  const std::vector<Series>& series() const { return series_; }
  const Series* find_series(const std::string& name) const;
  // For a transformer member, model() is a 1 → d_model → 1 stand-in that carries only its width; the network
  // itself is transformer()->model().
  const Mlp& model() const { return mlp_; }
  const AnchorTrainer* transformer() const { return transformer_.get(); }
  AnchorTrainer* transformer() { return transformer_.get(); }
  // The parameters at init, kept when a metric needs them (weight_delta_spectral, weight_rd, condensation); else empty.
  const std::vector<double>& initial_params() const { return params_init_; }
  std::string label() const;  // "n=256 lr=0.1 seed=0"
  bool on_gpu() const { return gpu_ != nullptr; }
  const std::string& gpu_name() const { return gpu_name_; }  // the adapter it started on ("" for the CPU)
  bool moved_to_cpu() const { return moved_to_cpu_; }  // it lost its device and went on on the CPU
  // Waiting for the device to hand back a record step's state (the page's frame loop moves on meanwhile).
  bool waiting() const;
  const std::string& backend_note() const { return backend_note_; }  // why not where expected; a lost device

 private:
  struct Batch { const double* x; const double* y; const int* labels; int size; };
  Batch next_batch();
  const int* next_batch_rows();  // the train indices of the next mini-batch (shuffled epochs)
  // run_gpu.cpp: the step on the device, reading its state back on record steps, and the move to the CPU.
  void gpu_start(GpuDevice* device, const std::string& why_none);
  void gpu_step();
  void gpu_issue_step();
  void gpu_request_read(bool final_read);
  void gpu_absorb_read();
  void gpu_fall_back(const std::string& why);
  // run_gpu_transformer.cpp: the same for a transformer member (gpu_step runs both).
  void transformer_gpu_start(GpuDevice* device);
  void transformer_gpu_issue_step();
  void transformer_gpu_request_read(bool final_read);
  void transformer_gpu_absorb_read();
  void transformer_gpu_fall_back(const std::string& why);
  // Loss of the current parameters on a dataset, in chunks the model's buffers can hold.
  double dataset_loss(const Dataset& d, int* correct);
  double batch_loss(const Batch& b, double* dout, int* correct);
  double mse_or_cross_entropy(const double* f, const Batch& b, double* dout, int* correct) const;
  void record(int t, double train_loss);
  void measure_probe(int index);  // act_rms / act_delta_rms into series at record `index`
  void measure_weight_change();   // weight_delta_spectral into series
  void diverge(int t);
  // model.kind "transformer": the same step / record cycle around an AnchorTrainer.
  void init_transformer();
  void transformer_step();
  void record_transformer(int t);
  // Phenomena metrics (spec/phenomena.md): Δ_F at the target's peaks, sign accuracy, RD of W₁, sharpness,
  // condensation of the hidden neurons.
  void setup_phenomena_metrics();
  int add_series(const std::string& name);
  void record_phenomena();
  // gd_auto: one GD step at η = lr / λ_max; a step that raises the loss by more than 1% is undone and retried
  // at half the step. Returns false if no step could be taken.
  bool auto_step(int t, double loss);
  void estimate_step_size();
  double weight_rd() const;
  // task.gradient_loss: the target's derivative at the train points, and the loss that fits it too
  void setup_gradient_loss();

  const ExperimentSpec& spec_;
  const TaskData& data_;
  MemberCoords coords_;
  Mlp mlp_;
  Optimizer optimizer_;
  Rng batch_rng_;
  int step_ = 0;
  RunStatus status_ = RunStatus::running;
  int diverged_at_ = -1;
  std::string error_;
  int batch_size_;
  int probe_size_;
  bool want_test_, want_accuracy_, want_act_, want_delta_, want_weight_delta_, want_batch_mean_;
  double batch_loss_sum_ = 0;  // Σ of the mini-batch losses of the steps taken (or being taken)
  int batch_losses_ = 0;

  std::vector<int> order_;  // a shuffled epoch of train indices (mini-batch SGD)
  int order_pos_ = 0;
  std::vector<double> batch_x_, batch_y_;
  std::vector<int> batch_labels_;
  std::vector<double> dout_;
  std::vector<double> probe_init_;  // preactivations of the probe set at init, all layers concatenated
  std::vector<double> params_init_;  // the weights at init (weight_delta_spectral only)
  std::vector<double> init_norm_;    // ‖W_l⁰‖_* per layer
  std::vector<double> power_u_, power_v_;  // power-iteration scratch, as long as the widest layer

  bool want_fp_ = false, want_sign_ = false, want_rd_ = false, want_sharpness_ = false, want_condensation_ = false;
  bool gd_auto_ = false;
  bool reached_stop_loss_ = false;
  double zero_loss_ = 0;  // train loss of the zero predictor (stop_loss_ratio)
  FrequencyProbe frequency_;
  std::vector<double> fp_outputs_, fp_delta_;  // the outputs on the train set (fp_delta, fp_filter)
  std::unique_ptr<FilterProbe> filter_;        // fp_filter
  int filter_series_ = -1;
  std::unique_ptr<HessianProbe> hessian_;  // on the train set (sharpness, gd_auto)
  double eta_ = 0;                         // gd_auto: the step in use
  std::vector<double> params_before_, grads_before_;
  std::unique_ptr<CondensationProbe> condensation_probe_;  // buffers for the condensation metric
  std::unique_ptr<GradientLoss> gradient_loss_;
  std::vector<double> target_slope_;
  int slope_loss_ = -1;  // series: the derivative term of the gradient-augmented loss
  Rng dropout_rng_{0};   // model.dropout: the masks of the training steps
  std::unique_ptr<GpuTraining> gpu_;  // set while training on a device
  std::string backend_note_;
  std::string gpu_name_;
  bool moved_to_cpu_ = false;

  std::vector<int> recorded_steps_;
  std::vector<Series> series_;
  std::unique_ptr<AnchorTrainer> transformer_;
  struct TransformerSeries {
    int train_accuracy = -1, id_accuracy = -1, ood_accuracy = -1, commutativity = -1, wq_cosine = -1,
        plus_one_share = -1;
  } transformer_series_;
  int train_loss_, test_loss_ = -1, test_accuracy_ = -1, act_rms_ = -1, act_delta_ = -1,
      weight_delta_ = -1, batch_mean_ = -1;  // series indices
  int fp_ = -1, sign_ = -1, rd_ = -1, sharpness_ = -1, condensation_ = -1, gd_lr_ = -1;
};
