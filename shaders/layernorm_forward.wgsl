// LayerNorm over each row of x (rows×cols): y = (x − μ) · rstd · γ + β, rstd = 1/sqrt(var + eps) (biased variance,
// as PyTorch). Keeps μ and rstd per row for the backward pass. One workgroup of 64 per row; the variance is taken
// around the mean (two passes) rather than as E[x²] − μ², which loses digits in float32.
struct Params {
  rows: u32, cols: u32, u2: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  eps: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> gamma: array<f32>;
@group(0) @binding(3) var<storage, read> beta: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<f32>;
@group(0) @binding(5) var<storage, read_write> mean: array<f32>;
@group(0) @binding(6) var<storage, read_write> rstd: array<f32>;

var<workgroup> red: array<f32, 64>;

fn row_sum(t: u32, v: f32) -> f32 {
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
  let row = wg.x + wg.y * groups.x;
  let valid = row < p.rows;
  let base = row * p.cols;
  let n = f32(p.cols);
  var s = 0.0;
  if (valid) { for (var c = t; c < p.cols; c += 64u) { s += x[base + c]; } }
  let mu = row_sum(t, s) / n;
  var q = 0.0;
  if (valid) { for (var c = t; c < p.cols; c += 64u) { let d = x[base + c] - mu; q += d * d; } }
  let r = 1.0 / sqrt(row_sum(t, q) / n + p.eps);
  if (!valid) { return; }
  for (var c = t; c < p.cols; c += 64u) { y[base + c] = (x[base + c] - mu) * r * gamma[c] + beta[c]; }
  if (t == 0u) {
    mean[row] = mu;
    rstd[row] = r;
  }
}
