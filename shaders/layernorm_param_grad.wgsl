// LayerNorm's parameter gradients, one invocation per column: dγ[c] = Σ_r dy ⊙ x̂, dβ[c] = Σ_r dy.
struct Params {
  rows: u32, cols: u32, u2: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  f0: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> dy: array<f32>;
@group(0) @binding(3) var<storage, read> mean: array<f32>;
@group(0) @binding(4) var<storage, read> rstd: array<f32>;
@group(0) @binding(5) var<storage, read_write> dgamma: array<f32>;
@group(0) @binding(6) var<storage, read_write> dbeta: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let c = flat_index(gid, groups);
  if (c >= p.cols) { return; }
  var dg = 0.0;
  var db = 0.0;
  for (var r = 0u; r < p.rows; r++) {
    let g = dy[r * p.cols + c];
    dg += g * (x[r * p.cols + c] - mean[r]) * rstd[r];
    db += g;
  }
  dgamma[c] = dg;
  dbeta[c] = db;
}
