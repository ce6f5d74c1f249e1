// An MlpMember on a device: the same training step as MlpMember::step, run as a kernel plan
// (engine/gpu/mlp_gpu_plan.hpp) on a GpuDevice, in float32, by the members' stepper (engine/run/member_gpu.cpp).
// Here: the plan, its data and weights, and what the stepper asks of an MLP.
#include <cmath>

#include "engine/gpu/gpu_training.hpp"
#include "engine/gpu/mlp_gpu_plan.hpp"
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
  const Dataset& train = data_.train;
  OptimizerConfig opt = spec_.optimizer;
  opt.lr = coords_.lr;
  const MlpGpuPlan p = build_mlp_gpu_plan(mlp_, opt, layer_slices(mlp_), batch_size_, train.size,
                                          data_.classification, spec_.schedule.record_every);
  auto g = std::make_unique<GpuTraining>();
  g->plan = device->create_plan(p.plan);
  g->layout = p;
  upload_floats(*device, g->plan, p.train_x, train.x.data(), long(train.x.size()), g->upload);
  if (data_.classification) {
    g->upload.assign(train.labels.begin(), train.labels.end());
    device->write(g->plan, p.train_targets, g->upload.data(), long(g->upload.size()));
  } else {
    upload_floats(*device, g->plan, p.train_targets, train.y.data(), long(train.y.size()), g->upload);
  }
  if (p.ones >= 0) {
    g->upload.assign(size_t(p.plan.buffers[size_t(p.ones)]), 1.0f);
    device->write(g->plan, p.ones, g->upload.data(), long(g->upload.size()));
  }
  const std::vector<TensorSlice> tensors = layer_slices(mlp_);
  for (size_t i = 0; i < tensors.size(); i++) {
    upload_floats(*device, g->plan, p.weights[i], mlp_.params().data() + tensors[i].offset, tensors[i].size, g->upload);
    g->offsets.push_back(tensors[i].offset);
  }
  g->index.resize(size_t(batch_size_));
  g->step_data.resize(3);
  start_gpu(std::move(g), device);
}

Member::HostState MlpMember::host_state() {
  return {mlp_.params().data(), mlp_.grads().data(), optimizer_.first_moment().data(),
          optimizer_.second_moment().data()};
}

void MlpMember::record_read(int t, double last_batch_loss) {
  record_step(t, batch_size_ == data_.train.size ? last_batch_loss : NAN);
}

void MlpMember::finish_update(int t) {
  optimizer_.set_steps_taken(t);
  optimizer_.step(mlp_.params().data(), mlp_.grads().data());
}
