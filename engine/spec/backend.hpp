// Where a run trains: the spec's `backend` field. auto (the default) uses WebGPU only on a hardware adapter, cpu
// never does, webgpu forces it (even onto a software fallback); engine/gpu/gpu_device.hpp decides, given the device.
#pragma once

enum class Backend { auto_, cpu, webgpu };

inline const char* backend_name(Backend b) {
  switch (b) {
    case Backend::auto_: return "auto";
    case Backend::cpu: return "cpu";
    case Backend::webgpu: return "webgpu";
  }
  return "?";
}
