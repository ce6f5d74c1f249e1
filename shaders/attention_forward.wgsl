// Causal multi-head self-attention, forward. q, k, v, o are (batch·T) × C row-major with C = heads · D; head h uses
// columns h·D … h·D+D−1. One invocation per (b, h, query i): the sequences of the anchor-function tasks are short,
// so a row of scores fits a loop. P[b][h][i][j] = softmax_j≤i(scale · q_i·k_j) (0 for j > i) is kept for backward.
struct Params {
  batch: u32, T: u32, heads: u32, D: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  scale: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> q: array<f32>;
@group(0) @binding(2) var<storage, read> k: array<f32>;
@group(0) @binding(3) var<storage, read> v: array<f32>;
@group(0) @binding(4) var<storage, read_write> P: array<f32>;
@group(0) @binding(5) var<storage, read_write> o: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let id = gid.x + gid.y * groups.x * 64u;
  if (id >= p.batch * p.heads * p.T) { return; }
  let i = id % p.T;
  let h = (id / p.T) % p.heads;
  let b = id / (p.T * p.heads);
  let C = p.heads * p.D;
  let qi = (b * p.T + i) * C + h * p.D;
  let prow = id * p.T;  // P[b][h][i][·]
  var m = -3.4e38;
  for (var j = 0u; j <= i; j++) {
    let kj = (b * p.T + j) * C + h * p.D;
    var s = 0.0;
    for (var d = 0u; d < p.D; d++) { s += q[qi + d] * k[kj + d]; }
    s *= p.scale;
    P[prow + j] = s;
    m = max(m, s);
  }
  var z = 0.0;
  for (var j = 0u; j <= i; j++) {
    let e = exp(P[prow + j] - m);
    P[prow + j] = e;
    z += e;
  }
  for (var j = 0u; j < p.T; j++) { P[prow + j] = select(0.0, P[prow + j] / z, j <= i); }
  for (var d = 0u; d < p.D; d++) {
    var acc = 0.0;
    for (var j = 0u; j <= i; j++) { acc += P[prow + j] * v[(b * p.T + j) * C + h * p.D + d]; }
    o[qi + d] = acc;
  }
}
