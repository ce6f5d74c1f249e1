// Prepended to every kernel (web/js/webgpu_backend.js does the concatenation: WGSL has no #include).
//
// Every kernel takes one uniform block laid out the same way: eight u32 (sizes, flags) then eight f32 (scalars),
// so the plan (engine/gpu/gpu_plan.hpp) can describe any dispatch as "kernel, buffers, ints, floats". Each kernel names
// the slots it uses in its own Params struct.

// 1-D kernels run 256 invocations per workgroup; the grid is split over x and y when it has more than 65 535
// workgroups (WebGPU's per-dimension limit), so the flat index is rebuilt from both.
fn flat_index(gid: vec3<u32>, groups: vec3<u32>) -> u32 {
  return gid.x + gid.y * groups.x * 256u;
}
