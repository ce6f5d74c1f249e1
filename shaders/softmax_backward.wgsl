// Backward of the row-wise softmax: dx = y ⊙ (dy − Σ_c dy_c y_c), one workgroup of 64 per row.
struct Params {
  rows: u32, cols: u32, u2: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  f0: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> y: array<f32>;
@group(0) @binding(2) var<storage, read> dy: array<f32>;
@group(0) @binding(3) var<storage, read_write> dx: array<f32>;

var<workgroup> red: array<f32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(local_invocation_index) t: u32) {
  let row = wg.x + wg.y * groups.x;
  let valid = row < p.rows;
  let base = row * p.cols;
  var s = 0.0;
  if (valid) { for (var c = t; c < p.cols; c += 64u) { s += dy[base + c] * y[base + c]; } }
  red[t] = s;
  workgroupBarrier();
  for (var stride = 32u; stride > 0u; stride /= 2u) {
    if (t < stride) { red[t] += red[t + stride]; }
    workgroupBarrier();
  }
  let dsum = red[0];
  if (valid) { for (var c = t; c < p.cols; c += 64u) { dx[base + c] = y[base + c] * (dy[base + c] - dsum); } }
}
