// dst[b][:] = src[index[b]][:]: picks a mini-batch out of the training set that stays on the device. Indices arrive
// as f32 (exact below 2^24, far above any training set here) so every buffer of a plan has one element type.
struct Params {
  rows: u32, cols: u32, u2: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  f0: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> src: array<f32>;
@group(0) @binding(2) var<storage, read> index: array<f32>;
@group(0) @binding(3) var<storage, read_write> dst: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let i = flat_index(gid, groups);
  if (i >= p.rows * p.cols) { return; }
  let b = i / p.cols;
  dst[i] = src[u32(index[b]) * p.cols + i % p.cols];
}
