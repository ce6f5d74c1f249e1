// The device's half of every member: the cycle that issues steps to a GpuDevice, waits for the record reads and
// absorbs them, and moves the member to the CPU when the device is lost. What the steps and reads carry is the
// model's: engine/run/mlp_member_gpu.cpp, engine/run/transformer_member_gpu.cpp.
#include <cmath>

#include "engine/gpu/gpu_training.hpp"
#include "engine/run/member.hpp"

Member::~Member() = default;

bool Member::waiting() const { return gpu_ && gpu_->ticket >= 0; }

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

bool Member::absorb_batch_losses(int loss_slots, double* last_loss) {
  GpuTraining& g = *gpu_;
  // The batch losses since the last read: the running mean, and divergence (reported at the step it happened).
  const int last_step = g.final_read ? g.read_step - 1 : g.read_step;
  const std::vector<float>& losses = g.read[0];
  for (int s = g.next_loss_step; s <= last_step; s++) {
    const double loss = losses[size_t(s % loss_slots)];
    if (diverging(loss)) {
      release_gpu();
      diverge(s);
      return false;
    }
    batch_loss_sum_ += loss;
    batch_losses_++;
    *last_loss = loss;
  }
  g.next_loss_step = last_step + 1;
  return true;
}

void Member::release_gpu() {
  gpu_->device->release_plan(gpu_->plan);
  gpu_.reset();
}

void Member::note_moved_to_cpu(const std::string& why, int lost_at) {
  gpu_.reset();  // the device is gone: nothing to release
  moved_to_cpu_ = true;
  backend_note_ = why + " at step " + std::to_string(lost_at) + ": continued on the CPU from step " +
                  std::to_string(step_) + ", the last step whose state had come back.";
}
