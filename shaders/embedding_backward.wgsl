// The embeddings' gradients from dL/dx⁰ (N = batch·T rows of D), overwriting both:
//   dwte[v][i] = m_e Σ_{n: token_n = v} g[n][i],   dwpe[t][i] = m_p Σ_b g[b·T + t][i].
// One invocation per (row, i) of the larger table, each summing its own positions in order: no atomics (WGSL has
// none for f32) and the same result on every run.
struct Params {
  rows: u32, T: u32, D: u32, vocab: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  me: f32, mp: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> g: array<f32>;
@group(0) @binding(2) var<storage, read> tokens: array<f32>;
@group(0) @binding(3) var<storage, read_write> dwte: array<f32>;
@group(0) @binding(4) var<storage, read_write> dwpe: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let e = flat_index(gid, groups);
  let r = e / p.D;
  let i = e % p.D;
  if (r < p.vocab) {
    var s = 0.0;
    for (var n = 0u; n < p.rows; n++) {
      if (u32(tokens[n]) == r) { s += g[n * p.D + i]; }
    }
    dwte[e] = p.me * s;
  }
  if (r < p.T) {
    var s = 0.0;
    for (var n = r; n < p.rows; n += p.T) { s += g[n * p.D + i]; }
    dwpe[e] = p.mp * s;
  }
}
