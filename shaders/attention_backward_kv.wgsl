// Causal attention backward, per (b, h, key j): dK_j = scale Σ_i≥j dS_ij q_i, dV_j = Σ_i≥j P_ij dO_i
// (dS from attention_backward_q.wgsl; layout as attention_forward.wgsl).
struct Params {
  batch: u32, T: u32, heads: u32, D: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  scale: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> q: array<f32>;
@group(0) @binding(2) var<storage, read> P: array<f32>;
@group(0) @binding(3) var<storage, read> dS: array<f32>;
@group(0) @binding(4) var<storage, read> dO: array<f32>;
@group(0) @binding(5) var<storage, read_write> dK: array<f32>;
@group(0) @binding(6) var<storage, read_write> dV: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let id = gid.x + gid.y * groups.x * 64u;
  if (id >= p.batch * p.heads * p.T) { return; }
  let j = id % p.T;
  let bh = id / p.T;  // b · heads + h
  let h = bh % p.heads;
  let b = bh / p.heads;
  let C = p.heads * p.D;
  let kj = (b * p.T + j) * C + h * p.D;
  for (var d = 0u; d < p.D; d++) {
    var dk = 0.0;
    var dv = 0.0;
    for (var i = j; i < p.T; i++) {
      let pij = (bh * p.T + i) * p.T + j;
      let row = (b * p.T + i) * C + h * p.D + d;
      dk += dS[pij] * q[row];
      dv += P[pij] * dO[row];
    }
    dK[kj + d] = p.scale * dk;
    dV[kj + d] = dv;
  }
}
