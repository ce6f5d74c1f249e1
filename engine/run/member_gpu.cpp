// The device's half of every member: one stepper, driven by the model's training plan (engine/gpu/gpu_plan.hpp:
// GpuTrainingPlan). Per step the host draws the mini-batch exactly as the CPU path does (same RNG, same order) and
// writes only its row indices and the step buffer; the training set and all parameters stay on the device. On a
// record step t the device copies back θ_t, ∂L/∂θ_t, the optimizer state and the batch losses since the last read,
// between the forward/backward and the update phases: the point where the CPU step records. The metrics are then
// measured on the CPU from θ_t, so every metric the CPU path records exists here too, and the state that came back
// is where the member continues on the CPU if the device is lost (finish update t from ∂L/∂θ_t and go on from
// t + 1, with the batch order rewound to match).
#include <cmath>

#include "engine/gpu/gpu_training.hpp"
#include "engine/run/member.hpp"

Member::~Member() = default;

bool Member::waiting() const { return gpu_ && gpu_->ticket >= 0; }

void Member::start_gpu(std::unique_ptr<GpuTraining> g, GpuDevice* device) {
  g->device = device;
  g->committed.batches = batch_order();
  gpu_name_ = device->name();
  gpu_ = std::move(g);
}

namespace {

// A record read carries the loss history, then per tensor its weights, gradient and moments; the final read the
// loss history and the weights.
void request_read(GpuTraining& g, bool final_read, int steps) {
  const GpuTrainingPlan& p = g.layout;
  std::vector<int>& ids = g.read_ids;
  ids.assign(1, p.loss_history);
  for (size_t i = 0; i < p.weights.size(); i++) {
    ids.push_back(p.weights[i]);
    if (final_read) continue;
    ids.push_back(p.grads[i]);
    if (p.first_moment[i] >= 0) ids.push_back(p.first_moment[i]);
    if (p.second_moment[i] >= 0) ids.push_back(p.second_moment[i]);
  }
  g.final_read = final_read;
  if (final_read) g.read_step = steps;
  g.ticket = g.device->request_read(g.plan, ids, {});
}

}  // namespace

void Member::gpu_step() {
  GpuTraining& g = *gpu_;
  if (g.device->lost()) return gpu_fall_back("The WebGPU device was lost (" + g.device->lost_reason() + ")");
  if (g.ticket >= 0) {
    const GpuDevice::ReadState s = g.device->poll_read(g.ticket, g.read);
    if (s == GpuDevice::ReadState::pending) return;
    if (s == GpuDevice::ReadState::failed) return gpu_fall_back("Reading back from the WebGPU device failed");
    g.ticket = -1;
    return gpu_absorb_read();
  }
  if (step_ < spec_.schedule.steps) gpu_issue_step();
}

void Member::gpu_issue_step() {
  GpuTraining& g = *gpu_;
  const GpuTrainingPlan& p = g.layout;
  const int t = step_;
  if (p.batch_index >= 0) {
    const int* rows = batch_order().next(int(g.index.size()));
    for (size_t b = 0; b < g.index.size(); b++) g.index[b] = float(rows[b]);
    g.device->write(g.plan, p.batch_index, g.index.data(), long(g.index.size()));
  }
  // Adam's bias corrections for update t + 1 (as Optimizer::step computes them, in double), and the schedule's
  // factor at t.
  set_step_data(g.step_data, t, p.loss_slots, spec_.optimizer);
  if (g.schedule) g.step_data[3] = float(lr_schedule_factor(*g.schedule, t));
  g.device->write(g.plan, p.step, g.step_data.data(), long(g.step_data.size()));
  g.device->run(g.plan, GpuTrainingPlan::forward_backward);
  if (t % spec_.schedule.record_every == 0) {
    g.pending.step = t;
    g.pending.batches = batch_order();
    g.read_step = t;
    request_read(g, false, spec_.schedule.steps);
  }
  g.device->run(g.plan, GpuTrainingPlan::update);
  step_ = t + 1;
  if (step_ == spec_.schedule.steps && g.ticket < 0) request_read(g, true, spec_.schedule.steps);
}

void Member::gpu_absorb_read() {
  GpuTraining& g = *gpu_;
  const GpuTrainingPlan& p = g.layout;
  // The batch losses since the last read: the running mean, and divergence (reported at the step it happened).
  const int last_step = g.final_read ? g.read_step - 1 : g.read_step;
  double loss = NAN;
  for (int s = g.next_loss_step; s <= last_step; s++) {
    loss = g.read[0][size_t(s % p.loss_slots)];
    if (diverging(loss)) {
      release_gpu();
      return diverge(s);
    }
    batch_loss_sum_ += loss;
    batch_losses_++;
  }
  g.next_loss_step = last_step + 1;
  const HostState host = host_state();
  size_t next = 1;
  for (size_t i = 0; i < p.weights.size(); i++) {
    const long offset = g.offsets[i];
    to_double(g.read[next++], host.params + offset);
    if (g.final_read) continue;
    to_double(g.read[next++], host.grads + offset);
    if (p.first_moment[i] >= 0) to_double(g.read[next++], host.first_moment + offset);
    if (p.second_moment[i] >= 0) to_double(g.read[next++], host.second_moment + offset);
  }
  if (g.final_read) {
    release_gpu();
    return finish();
  }
  g.committed.step = g.pending.step;
  g.committed.batches = g.pending.batches;
  record_read(g.read_step, loss);
  if (step_ == spec_.schedule.steps) request_read(g, true, spec_.schedule.steps);
}

// Continues on the CPU from the last state that came back: after record step r's forward/backward, so the CPU
// applies update r and goes on from r + 1 (or starts over from step 0 if nothing came back yet).
void Member::gpu_fall_back(const std::string& why) {
  const GpuTraining::Checkpoint& c = gpu_->committed;
  const int lost_at = step_;
  batch_order() = c.batches;
  if (c.step >= 0) finish_update(c.step);
  step_ = c.step + 1;
  gpu_.reset();  // the device is gone: nothing to release
  moved_to_cpu_ = true;
  backend_note_ = why + " at step " + std::to_string(lost_at) + ": continued on the CPU from step " +
                  std::to_string(step_) + ", the last step whose state had come back.";
}

void Member::release_gpu() {
  gpu_->device->release_plan(gpu_->plan);
  gpu_.reset();
}
