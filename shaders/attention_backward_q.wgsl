// Causal attention backward, per (b, h, query i) (layout as attention_forward.wgsl):
//   dP_ij = dO_i · v_j,  dS_ij = P_ij (dP_ij − Σ_j' dP_ij' P_ij'),  dQ_i = scale Σ_j dS_ij k_j.
// dS is stored for attention_backward_kv.wgsl, which sums over queries for dK and dV.
struct Params {
  batch: u32, T: u32, heads: u32, D: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  scale: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> k: array<f32>;
@group(0) @binding(2) var<storage, read> v: array<f32>;
@group(0) @binding(3) var<storage, read> P: array<f32>;
@group(0) @binding(4) var<storage, read> dO: array<f32>;
@group(0) @binding(5) var<storage, read_write> dS: array<f32>;
@group(0) @binding(6) var<storage, read_write> dQ: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let id = gid.x + gid.y * groups.x * 64u;
  if (id >= p.batch * p.heads * p.T) { return; }
  let i = id % p.T;
  let h = (id / p.T) % p.heads;
  let b = id / (p.T * p.heads);
  let C = p.heads * p.D;
  let oi = (b * p.T + i) * C + h * p.D;
  let prow = id * p.T;
  var dsum = 0.0;
  for (var j = 0u; j <= i; j++) {
    let vj = (b * p.T + j) * C + h * p.D;
    var dp = 0.0;
    for (var d = 0u; d < p.D; d++) { dp += dO[oi + d] * v[vj + d]; }
    dS[prow + j] = dp;  // dP for now
    dsum += dp * P[prow + j];
  }
  for (var j = 0u; j < p.T; j++) { dS[prow + j] = select(0.0, P[prow + j] * (dS[prow + j] - dsum), j <= i); }
  for (var d = 0u; d < p.D; d++) {
    var acc = 0.0;
    for (var j = 0u; j <= i; j++) { acc += dS[prow + j] * k[(b * p.T + j) * C + h * p.D + d]; }
    dQ[oi + d] = p.scale * acc;
  }
}
