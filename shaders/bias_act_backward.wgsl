// Fused bias + activation, backward through phi: dh = dx ⊙ phi'(h). The bias gradient is the column sum of dh
// (reduce_rows.wgsl). Needs activation.wgsl.
struct Params {
  rows: u32, cols: u32, act: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  f0: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> dx: array<f32>;
@group(0) @binding(2) var<storage, read> h: array<f32>;
@group(0) @binding(3) var<storage, read> x: array<f32>;
@group(0) @binding(4) var<storage, read_write> dh: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let i = flat_index(gid, groups);
  if (i >= p.rows * p.cols) { return; }
  dh[i] = act_backward(p.act, dx[i], h[i], x[i]);
}
