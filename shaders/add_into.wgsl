// y += x, elementwise: residual connections and gradients that meet from two paths. x and y are distinct buffers
// (WebGPU does not let one dispatch bind a buffer twice when one binding writes it).
struct Params {
  n: u32, u1: u32, u2: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  f0: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let i = flat_index(gid, groups);
  if (i >= p.n) { return; }
  y[i] += x[i];
}
