// Token plus position embedding of a Transformer's input: x[n][i] = m_e · wte[token_n][i] + m_p · wpe[n mod T][i],
// for the N = batch·T positions of a mini-batch (engine/model/transformer.cpp: forward). Token ids arrive as f32, like
// every index of a plan.
struct Params {
  rows: u32, T: u32, D: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  me: f32, mp: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> tokens: array<f32>;
@group(0) @binding(2) var<storage, read> wte: array<f32>;
@group(0) @binding(3) var<storage, read> wpe: array<f32>;
@group(0) @binding(4) var<storage, read_write> x: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let e = flat_index(gid, groups);
  if (e >= p.rows * p.D) { return; }
  let n = e / p.D;
  let i = e % p.D;
  x[e] = p.me * wte[u32(tokens[n]) * p.D + i] + p.mp * wpe[(n % p.T) * p.D + i];
}
