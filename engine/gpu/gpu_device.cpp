#include "engine/gpu/gpu_device.hpp"

#include <algorithm>

int ReferenceGpuDevice::create_plan(const GpuPlan& plan) {
  auto p = std::make_unique<Plan>();
  p->plan = plan;
  for (long size : plan.buffers) p->data.emplace_back(size_t(size), 0.0f);
  plans_.push_back(std::move(p));
  return int(plans_.size()) - 1;
}

void ReferenceGpuDevice::release_plan(int plan) { plans_[size_t(plan)].reset(); }

void ReferenceGpuDevice::write(int plan, int buffer, const float* data, long count) {
  std::copy_n(data, count, plans_[size_t(plan)]->data[size_t(buffer)].begin());
}

void ReferenceGpuDevice::run(int plan, int phase) {
  if (lost_) return;
  Plan& p = *plans_[size_t(plan)];
  run_reference(p.plan, phase, p.data);
}

int ReferenceGpuDevice::request_read(int plan, const std::vector<int>& buffers, const std::vector<long>& counts) {
  size_t ticket = 0;
  while (ticket < reads_.size() && !reads_[ticket].taken) ticket++;
  if (ticket == reads_.size()) reads_.emplace_back();
  Read& read = reads_[ticket];
  read.taken = false;
  read.data.resize(buffers.size());
  for (size_t i = 0; i < buffers.size(); i++) {
    const std::vector<float>& b = plans_[size_t(plan)]->data[size_t(buffers[i])];
    read.data[i].assign(b.begin(), b.begin() + (i < counts.size() ? counts[i] : long(b.size())));
  }
  return int(ticket);
}

GpuDevice::ReadState ReferenceGpuDevice::poll_read(int ticket, std::vector<std::vector<float>>& out) {
  Read& read = reads_[size_t(ticket)];
  read.taken = true;
  if (lost_) return ReadState::failed;
  out.resize(read.data.size());
  for (size_t i = 0; i < out.size(); i++) out[i].assign(read.data[i].begin(), read.data[i].end());
  return ReadState::ready;
}

Backend resolved_backend(Backend requested, const GpuDevice* device) {
  if (requested != Backend::auto_) return requested;
  return choose_backend(requested, device, "").gpu ? Backend::webgpu : Backend::cpu;
}

BackendChoice choose_backend(Backend requested, const GpuDevice* device, const std::string& why_none) {
  if (requested == Backend::cpu) return {};
  const bool usable = device && !device->lost();
  const std::string why = device ? "the WebGPU device was lost (" + device->lost_reason() + ")" : why_none;
  if (requested == Backend::webgpu) {
    if (!usable)
      return {false, "WebGPU was asked for but " + why + ": training on the CPU instead, in float32 as WebGPU would "
                     "(the numbers differ from a WebGPU run's by about 1e-4)."};
    if (device->is_fallback())
      return {true, "WebGPU forced onto a software adapter (" + device->name() + "): correct, but slower than the CPU."};
    return {true, ""};
  }
  // WebGPU's speed on a hardware GPU has not been measured against the CPU kernels yet (scripts/gpu-bench.mjs is the
  // measurement to make), so auto has no size above which the device is known to be faster: it trains on the CPU.
  if (usable && !device->is_fallback())
    return {false, "auto: WebGPU (" + device->name() + ") is not yet measured to be faster than the CPU for any "
                   "size, so training runs on the CPU (set backend to webgpu to use it)."};
  if (usable) return {false, "auto: the WebGPU adapter (" + device->name() + ") is a software fallback, so training runs "
                             "on the CPU (set backend to webgpu to force it)."};
  return {};  // auto without WebGPU: the CPU, as expected; nothing to say
}
