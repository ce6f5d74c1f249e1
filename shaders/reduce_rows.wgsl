// Scaled column sums of a rows×cols matrix: out[c] = scale · Σ_r v[r][c] with scale = f0 (the gradient of a bias
// shared by every row, scale its forward multiplier).
// One invocation per column; neighbouring invocations read neighbouring addresses.
struct Params {
  rows: u32, cols: u32, u2: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  f0: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> v: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let c = flat_index(gid, groups);
  if (c >= p.cols) { return; }
  var s = 0.0;
  for (var r = 0u; r < p.rows; r++) { s += v[r * p.cols + c]; }
  out[c] = p.f0 * s;
}
