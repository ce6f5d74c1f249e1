// An MlpMember on a device: the same training step as MlpMember::step, run as a kernel plan
// (engine/gpu/mlp_gpu_plan.hpp) on a GpuDevice, in float32.
//
// Per step the host draws the mini-batch exactly as the CPU path does (same RNG, same order) and writes only the
// batch indices and the step buffer; the training set and all parameters stay on the device. On a record step t
// the device copies back θ_t, ∂L/∂θ_t, the optimizer state and the batch losses since the last read, between the
// forward/backward and the update phases: the point where MlpMember::step records on the CPU. The metrics are then
// measured on the CPU from θ_t, so every metric the CPU path records exists here too, and the checkpoint that
// came back is where the member continues on the CPU if the device is lost (finish step t's update from ∂L/∂θ_t
// and go on from t + 1, with the batch order rewound to match).
#include <cmath>

#include "engine/gpu/gpu_training.hpp"
#include "engine/run/mlp_member.hpp"

void MlpMember::start_on(GpuDevice* device, const std::string& why_none) {
  const BackendChoice choice = choose_backend(spec_.backend, device, why_none);
  backend_note_ = choice.note;
  if (!choice.gpu) return;
  const std::string cpu_only = mlp_cpu_only(spec_);
  if (!cpu_only.empty()) {
    backend_note_ = "Training on the CPU: " + cpu_only + " runs there only.";
    return;
  }
  auto g = std::make_unique<GpuTraining>();
  g->device = device;
  gpu_name_ = device->name();
  const Dataset& train = data_.train;
  OptimizerConfig opt = spec_.optimizer;
  opt.lr = coords_.lr;
  g->layout = build_mlp_gpu_plan(mlp_, opt, layer_slices(mlp_), batch_size_, train.size, data_.classification,
                                 spec_.schedule.record_every);
  g->plan = device->create_plan(g->layout.plan);
  const MlpGpuPlan& p = g->layout;
  upload_floats(*device, g->plan, p.train_x, train.x.data(), long(train.x.size()), g->upload);
  if (data_.classification) {
    g->upload.assign(train.labels.begin(), train.labels.end());
    device->write(g->plan, p.train_targets, g->upload.data(), long(g->upload.size()));
  } else {
    upload_floats(*device, g->plan, p.train_targets, train.y.data(), long(train.y.size()), g->upload);
  }
  for (int l = 0; l < mlp_.layers(); l++)
    upload_floats(*device, g->plan, p.weights[size_t(l)], mlp_.weights(l), mlp_.layer_size(l), g->upload);
  g->index.resize(size_t(batch_size_));
  g->committed.rng = batch_rng_;
  g->committed.order = order_;
  g->committed.order_pos = order_pos_;
  gpu_ = std::move(g);
}

void MlpMember::gpu_issue_step() {
  GpuTraining& g = *gpu_;
  const MlpGpuPlan& p = g.layout;
  const int t = step_;
  if (p.batch_index >= 0) {
    const int* rows = next_batch_rows();
    for (int b = 0; b < batch_size_; b++) g.index[size_t(b)] = float(rows[b]);
    g.device->write(g.plan, p.batch_index, g.index.data(), batch_size_);
  }
  // Adam's bias corrections for update t + 1 (as Optimizer::step computes them, in double).
  set_step_data(g.step_data, t, p.loss_slots, spec_.optimizer);
  g.device->write(g.plan, p.step, g.step_data.data(), 3);
  g.device->run(g.plan, MlpGpuPlan::forward_backward);
  if (t % spec_.schedule.record_every == 0) {
    g.pending.save(t, batch_rng_, order_, order_pos_);
    g.read_step = t;
    gpu_request_read(false);
  }
  g.device->run(g.plan, MlpGpuPlan::update);
  step_ = t + 1;
  if (step_ == spec_.schedule.steps && g.ticket < 0) gpu_request_read(true);
}

// A record read carries weights, gradients, moments and the loss history; the final read weights and losses.
void MlpMember::gpu_request_read(bool final_read) {
  GpuTraining& g = *gpu_;
  const MlpGpuPlan& p = g.layout;
  std::vector<int>& ids = g.read_ids;
  ids.assign(1, p.loss_history);
  for (int l = 0; l < mlp_.layers(); l++) {
    ids.push_back(p.weights[size_t(l)]);
    if (final_read) continue;
    ids.push_back(p.grads[size_t(l)]);
    if (p.first_moment[size_t(l)] >= 0) ids.push_back(p.first_moment[size_t(l)]);
    if (p.second_moment[size_t(l)] >= 0) ids.push_back(p.second_moment[size_t(l)]);
  }
  g.final_read = final_read;
  if (final_read) g.read_step = spec_.schedule.steps;
  g.ticket = g.device->request_read(g.plan, ids, {});
}

void MlpMember::gpu_absorb_read() {
  GpuTraining& g = *gpu_;
  const MlpGpuPlan& p = g.layout;
  double loss = NAN;
  if (!absorb_batch_losses(p.loss_slots, &loss)) return;
  size_t next = 1;
  std::vector<double>& m = optimizer_.first_moment();
  std::vector<double>& v = optimizer_.second_moment();
  for (int l = 0; l < mlp_.layers(); l++) {
    to_double(g.read[next++], mlp_.weights(l));
    if (g.final_read) continue;
    const long offset = mlp_.weights(l) - mlp_.params().data();
    to_double(g.read[next++], mlp_.grads().data() + offset);
    if (p.first_moment[size_t(l)] >= 0) to_double(g.read[next++], m.data() + offset);
    if (p.second_moment[size_t(l)] >= 0) to_double(g.read[next++], v.data() + offset);
  }
  if (!g.final_read) {
    g.committed = g.pending;
    record_step(g.read_step, batch_size_ == data_.train.size ? loss : NAN);
    if (step_ == spec_.schedule.steps) gpu_request_read(true);
    return;
  }
  // As MlpMember::step ends a run: the final train loss of the trained parameters, measured on the CPU.
  release_gpu();
  finish();
}

// Continues on the CPU from the last state that came back: after record step r's forward/backward, so the CPU
// applies update r and goes on from r + 1 (or starts over from step 0 if nothing came back yet).
void MlpMember::gpu_fall_back(const std::string& why) {
  const GpuTraining::Checkpoint& c = gpu_->committed;
  const int lost_at = step_;
  batch_rng_ = c.rng;
  order_ = c.order;
  order_pos_ = c.order_pos;
  if (c.step >= 0) {
    optimizer_.set_steps_taken(c.step);
    optimizer_.step(mlp_.params().data(), mlp_.grads().data());
  }
  step_ = c.step + 1;
  note_moved_to_cpu(why, lost_at);
}
