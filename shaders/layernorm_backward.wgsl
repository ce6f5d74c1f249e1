// LayerNorm backward to the input, one workgroup of 64 per row:
//   x̂ = (x − μ) · rstd,  g = dy ⊙ γ,  dx = rstd · (g − mean(g) − x̂ · mean(g ⊙ x̂)).
// dγ and dβ (sums over rows) are layernorm_param_grad.wgsl's.
struct Params {
  rows: u32, cols: u32, u2: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  f0: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> gamma: array<f32>;
@group(0) @binding(3) var<storage, read> dy: array<f32>;
@group(0) @binding(4) var<storage, read> mean: array<f32>;
@group(0) @binding(5) var<storage, read> rstd: array<f32>;
@group(0) @binding(6) var<storage, read_write> dx: array<f32>;

var<workgroup> red: array<vec2<f32>, 64>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(local_invocation_index) t: u32) {
  let row = wg.x + wg.y * groups.x;
  let valid = row < p.rows;
  let base = row * p.cols;
  var mu = 0.0;
  var r = 0.0;
  var s = vec2<f32>(0.0);
  if (valid) {
    mu = mean[row];
    r = rstd[row];
    for (var c = t; c < p.cols; c += 64u) {
      let g = dy[base + c] * gamma[c];
      s += vec2<f32>(g, g * (x[base + c] - mu) * r);
    }
  }
  red[t] = s;
  workgroupBarrier();
  for (var stride = 32u; stride > 0u; stride /= 2u) {
    if (t < stride) { red[t] += red[t + stride]; }
    workgroupBarrier();
  }
  if (!valid) { return; }
  let means = red[0] / f32(p.cols);
  for (var c = t; c < p.cols; c += 64u) {
    let xhat = (x[base + c] - mu) * r;
    dx[base + c] = r * (dy[base + c] * gamma[c] - means.x - xhat * means.y);
  }
}
