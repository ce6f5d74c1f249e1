// SGD step of one tensor (engine/model/optimizer.cpp): g' = g + wd·w; with momentum m = μ m + g', g' = m; w −= lr·g'.
// lr already includes the parametrization's per-tensor multiplier.
struct Params {
  n: u32, has_momentum: u32, u2: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  lr: f32, momentum: f32, weight_decay: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> g: array<f32>;
@group(0) @binding(2) var<storage, read_write> w: array<f32>;
@group(0) @binding(3) var<storage, read_write> m: array<f32>;  // a 1-element dummy without momentum

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let i = flat_index(gid, groups);
  if (i >= p.n) { return; }
  var gi = g[i] + p.weight_decay * w[i];
  if (p.has_momentum != 0u) {
    gi = p.momentum * m[i] + gi;
    m[i] = gi;
  }
  w[i] -= p.lr * gi;
}
