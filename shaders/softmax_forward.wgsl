// Row-wise softmax y = exp(x − max) / Σ exp(x − max): one workgroup of 64 per row, max and sum reduced in workgroup
// memory, so rows of any length work.
struct Params {
  rows: u32, cols: u32, u2: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  f0: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

var<workgroup> red: array<f32, 64>;

fn reduce_max(t: u32, v: f32) -> f32 {
  red[t] = v;
  workgroupBarrier();
  for (var stride = 32u; stride > 0u; stride /= 2u) {
    if (t < stride) { red[t] = max(red[t], red[t + stride]); }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier();
  return r;
}

fn reduce_sum(t: u32, v: f32) -> f32 {
  red[t] = v;
  workgroupBarrier();
  for (var stride = 32u; stride > 0u; stride /= 2u) {
    if (t < stride) { red[t] += red[t + stride]; }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier();
  return r;
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(local_invocation_index) t: u32) {
  let row = wg.x + wg.y * groups.x;  // uniform across the workgroup: the barriers below are reached by all
  let valid = row < p.rows;
  let base = row * p.cols;
  var m = -3.4e38;
  if (valid) { for (var c = t; c < p.cols; c += 64u) { m = max(m, x[base + c]); } }
  m = reduce_max(t, m);
  var s = 0.0;
  if (valid) { for (var c = t; c < p.cols; c += 64u) { s += exp(x[base + c] - m); } }
  s = reduce_sum(t, s);
  if (valid) { for (var c = t; c < p.cols; c += 64u) { y[base + c] = exp(x[base + c] - m) / s; } }
}
