// dst[b][:] = src[b·T + T − 1][:]: each sequence's last position, the only one the anchor tasks read out.
struct Params {
  batch: u32, T: u32, cols: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  f0: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> src: array<f32>;
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let e = flat_index(gid, groups);
  if (e >= p.batch * p.cols) { return; }
  let b = e / p.cols;
  dst[e] = src[((b + 1u) * p.T - 1u) * p.cols + e % p.cols];
}
