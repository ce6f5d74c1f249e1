// A member's state while it trains on a GpuDevice (engine/run/member_gpu.cpp). A header of its own so that the
// member's files, which own it through a unique_ptr, see the complete type.
#pragma once
#include <algorithm>
#include <vector>

#include "engine/base/detmath.hpp"
#include "engine/base/rng.hpp"
#include "engine/gpu/gpu_device.hpp"
#include "engine/gpu/gpu_plan.hpp"
#include "engine/model/batch_order.hpp"
#include "engine/model/optimizer.hpp"

struct GpuTraining {
  GpuDevice* device = nullptr;
  int plan = -1;
  GpuTrainingPlan layout;     // the buffers the stepper uses (the model's plan, less its data buffers)
  std::vector<long> offsets;  // per trained tensor: where it starts in the host's parameter buffer
  const LrSchedule* schedule = nullptr;  // a Transformer's: the step buffer's lr factor
  std::vector<float> step_data, index, upload;
  int ticket = -1;              // a read on its way back, or -1
  int read_step = -1;           // the step whose state it carries (steps: the final read)
  bool final_read = false;
  int next_loss_step = 0;       // the first step whose batch loss has not come back yet
  std::vector<int> read_ids;  // the buffers of the read being requested (kept, so that asking allocates nothing)
  std::vector<std::vector<float>> read;
  // Where the mini-batches stood right after drawing the batch of a record step: restored with that step's state on
  // a move to the CPU. `pending` belongs to the read on its way, `committed` to the last read that arrived (step -1:
  // none yet). Copying into a kept order allocates nothing once it holds an epoch.
  struct Checkpoint {
    int step = -1;
    BatchOrder batches;
  } pending, committed;
};

// Host <-> device conversions of a member's double buffers (float32 on the device).
inline void upload_floats(GpuDevice& d, int plan, int buffer, const double* x, long n, std::vector<float>& scratch) {
  scratch.assign(x, x + n);
  d.write(plan, buffer, scratch.data(), n);
}
inline void to_double(const std::vector<float>& from, double* to) { std::copy(from.begin(), from.end(), to); }

// The step buffer's first three floats for update t: the loss-history slot and Adam's bias corrections for update
// t + 1 (computed in double, as the CPU optimizers do).
inline void set_step_data(std::vector<float>& step_data, int t, int loss_slots, const OptimizerConfig& c) {
  step_data[0] = float(t % loss_slots);
  step_data[1] = float(1 - detmath::exp(double(t + 1) * detmath::log(c.beta1)));
  step_data[2] = float(1 - detmath::exp(double(t + 1) * detmath::log(c.beta2)));
}
