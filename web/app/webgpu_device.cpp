#include "web/app/webgpu_device.hpp"

#include <emscripten.h>

#include "engine/base/json.hpp"

// Each call checks that the device still exists: after a loss the engine moves its runs to the CPU, and a call
// still on its way must not throw into the frame loop.
EM_JS(int, js_gpu_lost, (), { return !window.muplayGpu || muplayGpu.lost ? 1 : 0; });
EM_JS(void, js_gpu_lost_reason, (char* out, int size), {
  stringToUTF8(window.muplayGpu ? muplayGpu.lostReason : "WebGPU is gone", out, size);
});
EM_JS(int, js_gpu_create_plan, (const char* json), {
  try { return muplayGpu.createPlan(JSON.parse(UTF8ToString(json))); } catch (e) {
    if (!muplayGpu.lostReason) muplayGpu.lostReason = "creating the plan failed: " + e.message;
    return -1;
  }
});
EM_JS(void, js_gpu_release_plan, (int plan), { if (window.muplayGpu) muplayGpu.releasePlan(plan); });
EM_JS(void, js_gpu_write, (int plan, int buffer, const float* data, int count), {
  if (!muplayGpu.lost) muplayGpu.write(plan, buffer, HEAPF32.subarray(data >> 2, (data >> 2) + count));
});
EM_JS(void, js_gpu_run, (int plan, int phase), { if (!muplayGpu.lost) muplayGpu.run(plan, phase); });
EM_JS(int, js_gpu_request_read, (int plan, const char* ids), {
  return muplayGpu.requestRead(plan, JSON.parse(UTF8ToString(ids)));
});
EM_JS(int, js_gpu_read_state, (int ticket), { return window.muplayGpu ? muplayGpu.readState(ticket) : -1; });
EM_JS(int, js_gpu_read_count, (int ticket), { return muplayGpu.readData(ticket).length; });
EM_JS(int, js_gpu_read_length, (int ticket, int i), { return muplayGpu.readData(ticket)[i].length; });
EM_JS(void, js_gpu_read_take, (int ticket, int i, float* out), {
  HEAPF32.set(muplayGpu.readData(ticket)[i], out >> 2);
});
EM_JS(void, js_gpu_read_forget, (int ticket), { if (window.muplayGpu) muplayGpu.forgetRead(ticket); });

bool WebGpuDevice::lost() const { return js_gpu_lost() != 0; }

std::string WebGpuDevice::lost_reason() const {
  char buf[256] = {};
  js_gpu_lost_reason(buf, sizeof buf);
  return buf;
}

int WebGpuDevice::create_plan(const GpuPlan& plan) { return js_gpu_create_plan(json::write(plan_to_json(plan)).c_str()); }

void WebGpuDevice::release_plan(int plan) { js_gpu_release_plan(plan); }

void WebGpuDevice::write(int plan, int buffer, const float* data, long count) {
  if (!lost()) js_gpu_write(plan, buffer, data, int(count));
}

void WebGpuDevice::run(int plan, int phase) {
  if (!lost()) js_gpu_run(plan, phase);
}

int WebGpuDevice::request_read(int plan, const std::vector<int>& buffers, const std::vector<long>&) {
  if (lost()) return -1;
  json::Value ids = json::Value::make_array();
  for (int b : buffers) ids.push(json::Value::make_number(b));
  return js_gpu_request_read(plan, json::write(ids).c_str());
}

GpuDevice::ReadState WebGpuDevice::poll_read(int ticket, std::vector<std::vector<float>>& out) {
  const int state = ticket < 0 ? -1 : js_gpu_read_state(ticket);
  if (state == 0) return ReadState::pending;
  if (state < 0) {
    js_gpu_read_forget(ticket);
    return ReadState::failed;
  }
  out.resize(size_t(js_gpu_read_count(ticket)));
  for (size_t i = 0; i < out.size(); i++) {
    out[i].resize(size_t(js_gpu_read_length(ticket, int(i))));
    js_gpu_read_take(ticket, int(i), out[i].data());
  }
  js_gpu_read_forget(ticket);
  return ReadState::ready;
}
