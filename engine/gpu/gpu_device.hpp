// The engine's view of a compute device that runs kernel plans (engine/gpu/gpu_plan.hpp), and the backend choice.
//
// The engine never talks to WebGPU: the page implements GpuDevice over web/js/webgpu_backend.js (web/app/webgpu_device.cpp),
// and ReferenceGpuDevice runs plans on the CPU with the kernels' C++ references (tests; the definition of the
// kernels). Reads are asynchronous, as WebGPU's are: request_read starts a copy, poll_read says when it arrived, so
// the page's frame loop never blocks on the GPU.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "engine/gpu/gpu_plan.hpp"
#include "engine/spec/backend.hpp"

class GpuDevice {
 public:
  virtual ~GpuDevice() = default;
  virtual std::string name() const = 0;   // the adapter, for people
  virtual bool is_fallback() const = 0;   // a software adapter (SwiftShader): correct but slower than the CPU path
  virtual bool lost() const = 0;          // the device is gone (driver reset, tab in the background, destroy())
  virtual std::string lost_reason() const = 0;

  virtual int create_plan(const GpuPlan& plan) = 0;  // buffers start zeroed
  virtual void release_plan(int plan) = 0;
  virtual void write(int plan, int buffer, const float* data, long count) = 0;
  virtual void run(int plan, int phase) = 0;  // queued after everything run or read before
  // Starts copying `buffers` back (their first counts[i] elements), after the work queued so far. Returns a ticket.
  virtual int request_read(int plan, const std::vector<int>& buffers, const std::vector<long>& counts) = 0;
  enum class ReadState { pending, ready, failed };
  // When ready, fills out[i] with buffer i's data (reusing out's vectors) and forgets the ticket.
  virtual ReadState poll_read(int ticket, std::vector<std::vector<float>>& out) = 0;
};

// Runs plans at once on the CPU in float32 (run_reference). lose() simulates a lost device for tests.
class ReferenceGpuDevice : public GpuDevice {
 public:
  std::string name() const override { return "CPU reference executor"; }
  bool is_fallback() const override { return fallback_; }
  bool lost() const override { return lost_; }
  std::string lost_reason() const override { return lost_ ? "lost (simulated)" : ""; }
  int create_plan(const GpuPlan& plan) override;
  void release_plan(int plan) override;
  void write(int plan, int buffer, const float* data, long count) override;
  void run(int plan, int phase) override;
  int request_read(int plan, const std::vector<int>& buffers, const std::vector<long>& counts) override;
  ReadState poll_read(int ticket, std::vector<std::vector<float>>& out) override;

  void set_fallback(bool f) { fallback_ = f; }
  void lose() { lost_ = true; }

 private:
  struct Plan { GpuPlan plan; std::vector<std::vector<float>> data; };
  // A read's copy from request_read to poll_read. The ticket is the slot's index; a slot whose read was taken is
  // reused, buffers and all, so that reads of the same sizes allocate nothing.
  struct Read {
    bool taken = true;
    std::vector<std::vector<float>> data;
  };
  std::vector<std::unique_ptr<Plan>> plans_;
  std::vector<Read> reads_;
  bool fallback_ = false, lost_ = false;
};

struct BackendChoice {
  bool gpu = false;
  std::string note;  // why the run is not where one might expect ("" when nothing needs saying)
};
// `device` is null when there is none; `why_none` then says why (no WebGPU, no adapter, ...).
BackendChoice choose_backend(Backend requested, const GpuDevice* device, const std::string& why_none);
// Where a spec asking for `requested` trains beside `device` (null: none): cpu or webgpu, never auto. A share link
// records this, so that it opens on the same backend everywhere.
Backend resolved_backend(Backend requested, const GpuDevice* device);
