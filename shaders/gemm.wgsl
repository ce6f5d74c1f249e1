// C[m×n] = alpha · op(A) · op(B), all row-major. op(A) is m×k, op(B) is k×n. Three variants by override constants:
//   NN  C = A B      (backward to the inputs: δ W)
//   NT  C = A Bᵀ     (forward: X Wᵀ; B stored n×k)
//   TN  C = Aᵀ B     (weight gradient: δᵀ X; A stored k×m)
//
// Tiling: a workgroup of 16×16 invocations computes a 64×64 tile of C, each invocation a 4×4 block (16 outputs in
// registers). The k dimension is walked in slices of 16: every invocation stages four consecutive rows of op(A)
// at one k, and four consecutive columns of op(B) at one k, into workgroup memory as one vec4 each; then every
// invocation reads the slices back as vec4 (four rows of A, four columns of B) and does 4 vec4 multiply-adds per k.
// Tiles past the matrix edge are padded with zeros at load time, so any m, n, k works (the tests use sizes that are
// not multiples of the tile). Global loads stay scalar: with such sizes rows are not 16-byte aligned.
override TRANS_A: bool = false;
override TRANS_B: bool = false;

struct Params {
  m: u32, n: u32, k: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  alpha: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> A: array<f32>;
@group(0) @binding(2) var<storage, read> B: array<f32>;
@group(0) @binding(3) var<storage, read_write> C: array<f32>;

const TILE = 64u;
const SLICE = 16u;
// As[kk * 16 + q] = op(A)[row0 + 4q … 4q+3][k0 + kk];  Bs[kk * 16 + q] = op(B)[k0 + kk][col0 + 4q … 4q+3]
var<workgroup> As: array<vec4<f32>, 256>;
var<workgroup> Bs: array<vec4<f32>, 256>;

fn load_a(r: u32, kk: u32) -> f32 {  // op(A)[r][kk], zero outside the matrix
  if (r >= p.m || kk >= p.k) { return 0.0; }
  if (TRANS_A) { return A[kk * p.m + r]; }
  return A[r * p.k + kk];
}

fn load_b(kk: u32, c: u32) -> f32 {  // op(B)[kk][c], zero outside the matrix
  if (kk >= p.k || c >= p.n) { return 0.0; }
  if (TRANS_B) { return B[c * p.k + kk]; }
  return B[kk * p.n + c];
}

fn store_row(r: u32, c: u32, v: vec4<f32>) {
  if (r >= p.m) { return; }
  let base = r * p.n + c;
  if (c < p.n) { C[base] = p.alpha * v.x; }
  if (c + 1u < p.n) { C[base + 1u] = p.alpha * v.y; }
  if (c + 2u < p.n) { C[base + 2u] = p.alpha * v.z; }
  if (c + 3u < p.n) { C[base + 3u] = p.alpha * v.w; }
}

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let row0 = wg.y * TILE;
  let col0 = wg.x * TILE;
  let t = lid.y * 16u + lid.x;
  // Which four rows (columns) and which k this invocation stages. Neighbouring invocations read neighbouring
  // addresses: along k for a row-major A and a transposed B, along rows / columns otherwise.
  var qa = t / 16u;
  var ka = t % 16u;
  if (TRANS_A) { qa = t % 16u; ka = t / 16u; }
  var qb = t % 16u;
  var kb = t / 16u;
  if (TRANS_B) { qb = t / 16u; kb = t % 16u; }
  var acc0 = vec4<f32>(0.0);
  var acc1 = vec4<f32>(0.0);
  var acc2 = vec4<f32>(0.0);
  var acc3 = vec4<f32>(0.0);
  for (var k0 = 0u; k0 < p.k; k0 += SLICE) {
    let ra = row0 + 4u * qa;
    As[ka * 16u + qa] = vec4<f32>(load_a(ra, k0 + ka), load_a(ra + 1u, k0 + ka), load_a(ra + 2u, k0 + ka),
                                  load_a(ra + 3u, k0 + ka));
    let cb = col0 + 4u * qb;
    Bs[kb * 16u + qb] = vec4<f32>(load_b(k0 + kb, cb), load_b(k0 + kb, cb + 1u), load_b(k0 + kb, cb + 2u),
                                  load_b(k0 + kb, cb + 3u));
    workgroupBarrier();
    for (var kk = 0u; kk < SLICE; kk++) {
      let a = As[kk * 16u + lid.y];  // rows 4·lid.y … 4·lid.y+3 of the tile
      let b = Bs[kk * 16u + lid.x];  // columns 4·lid.x … 4·lid.x+3
      acc0 += a.x * b;
      acc1 += a.y * b;
      acc2 += a.z * b;
      acc3 += a.w * b;
    }
    workgroupBarrier();
  }
  let r = row0 + lid.y * 4u;
  let c = col0 + lid.x * 4u;
  store_row(r, c, acc0);
  store_row(r + 1u, c, acc1);
  store_row(r + 2u, c, acc2);
  store_row(r + 3u, c, acc3);
}
