// out[slot] = scale · Σ_i v[i], slot = u32(step_data[0]) + offset: one workgroup strides over v, then a tree in workgroup
// memory. The training step uses it for the batch loss, written at the step's slot of a loss history that the host
// reads back only on record steps (step_data[0] is the step's slot, written by the host each step).
struct Params {
  n: u32, offset: u32, u2: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  scale: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> v: array<f32>;
@group(0) @binding(2) var<storage, read> step_data: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

var<workgroup> partial: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) t: u32) {
  var s = 0.0;
  for (var i = t; i < p.n; i += 256u) { s += v[i]; }
  partial[t] = s;
  workgroupBarrier();
  for (var stride = 128u; stride > 0u; stride /= 2u) {
    if (t < stride) { partial[t] += partial[t + stride]; }
    workgroupBarrier();
  }
  if (t == 0u) { out[u32(step_data[0]) + p.offset] = p.scale * partial[0]; }
}
