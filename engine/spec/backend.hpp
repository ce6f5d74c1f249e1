// Where a run trains: the spec's `backend` field. auto (the default) trains on the CPU until WebGPU's speed on a
// hardware GPU is measured (then: above the size where it wins), cpu never uses WebGPU, webgpu forces it (even onto
// a software fallback); engine/gpu/gpu_device.hpp decides, given the device.
#pragma once
#include "engine/base/enum_names.hpp"

enum class Backend { auto_, cpu, webgpu };
inline constexpr EnumName<Backend> kBackendNames[] = {
    {Backend::auto_, "auto"},
    {Backend::cpu, "cpu"},
    {Backend::webgpu, "webgpu"},
};
inline const char* backend_name(Backend b) { return enum_name(kBackendNames, b); }
