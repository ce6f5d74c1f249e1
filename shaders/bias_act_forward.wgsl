// Fused bias + activation, forward: h[r][c] += scale · bias[c] (when has_bias; scale = f0, the bias's forward
// multiplier), x = phi(h). h keeps the preactivation for the backward pass. Needs activation.wgsl.
struct Params {
  rows: u32, cols: u32, act: u32, has_bias: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  f0: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> bias: array<f32>;  // cols (a 1-element dummy without bias)
@group(0) @binding(2) var<storage, read_write> h: array<f32>;
@group(0) @binding(3) var<storage, read_write> x: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let i = flat_index(gid, groups);
  if (i >= p.rows * p.cols) { return; }
  var v = h[i];
  if (p.has_bias != 0u) {
    v += p.f0 * bias[i % p.cols];
    h[i] = v;
  }
  x[i] = act_forward(p.act, v);
}
