// Mean squared error L = 1/(2B) Σ (f − y)² (engine/model/loss.cpp): dout = (f − y)/B and the per-element terms
// (f − y)²/(2B), which reduce_sum adds up into the loss.
struct Params {
  rows: u32, cols: u32, u2: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  f0: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> f: array<f32>;
@group(0) @binding(2) var<storage, read> y: array<f32>;
@group(0) @binding(3) var<storage, read_write> dout: array<f32>;
@group(0) @binding(4) var<storage, read_write> terms: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let i = flat_index(gid, groups);
  if (i >= p.rows * p.cols) { return; }
  let r = f[i] - y[i];
  let batch = f32(p.rows);
  dout[i] = r / batch;
  terms[i] = r * r / (2.0 * batch);
}
