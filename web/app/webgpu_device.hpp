// GpuDevice (engine/gpu/gpu_device.hpp) over the page's WebGPU: web/js/webgpu_backend.js, reached through EM_JS as
// window.muplayGpu, which web/js/page.js sets once an adapter and a device exist.
#pragma once
#include <string>

#include "engine/gpu/gpu_device.hpp"

class WebGpuDevice : public GpuDevice {
 public:
  WebGpuDevice(std::string name, bool fallback) : name_(std::move(name)), fallback_(fallback) {}
  std::string name() const override { return name_; }
  bool is_fallback() const override { return fallback_; }
  bool lost() const override;
  std::string lost_reason() const override;
  int create_plan(const GpuPlan& plan) override;
  void release_plan(int plan) override;
  void write(int plan, int buffer, const float* data, long count) override;
  void run(int plan, int phase) override;
  int request_read(int plan, const std::vector<int>& buffers, const std::vector<long>& counts) override;
  ReadState poll_read(int ticket, std::vector<std::vector<float>>& out) override;

 private:
  std::string name_;
  bool fallback_;
};
