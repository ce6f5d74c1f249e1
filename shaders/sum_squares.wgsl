// out[0] = Σ v² (accumulate 0) or out[0] + Σ v² (accumulate 1): the squared global gradient norm, one dispatch per
// tensor in a fixed order, for clip_scale.wgsl. One workgroup strides over v, then a tree in workgroup memory.
struct Params {
  n: u32, accumulate: u32, u2: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  f0: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> v: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

var<workgroup> partial: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) t: u32) {
  var s = 0.0;
  for (var i = t; i < p.n; i += 256u) { s += v[i] * v[i]; }
  partial[t] = s;
  workgroupBarrier();
  for (var stride = 128u; stride > 0u; stride /= 2u) {
    if (t < stride) { partial[t] += partial[t + stride]; }
    workgroupBarrier();
  }
  if (t == 0u) { out[0] = select(0.0, out[0], p.accumulate != 0u) + partial[0]; }
}
