// Global gradient-norm clipping as torch.nn.utils.clip_grad_norm_ (engine/model/optimizer.cpp: clip_grad_norm):
// with ‖g‖² from sum_squares.wgsl, g *= max_norm / (‖g‖ + 1e-6) when that factor is below 1. One dispatch per tensor.
struct Params {
  n: u32, u1: u32, u2: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  max_norm: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> norm2: array<f32>;
@group(0) @binding(2) var<storage, read_write> g: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let i = flat_index(gid, groups);
  if (i >= p.n) { return; }
  let coef = p.max_norm / (sqrt(norm2[0]) + 1e-6);
  if (coef < 1.0) { g[i] *= coef; }
}
