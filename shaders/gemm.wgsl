// C[m×n] = alpha · op(A) · op(B), all row-major. op(A) is m×k, op(B) is k×n. Three variants by override constants:
//   NN  C = A B      (backward to the inputs: δ W)
//   NT  C = A Bᵀ     (forward: X Wᵀ; B stored n×k)
//   TN  C = Aᵀ B     (weight gradient: δᵀ X; A stored k×m)
//
// Tiling: a workgroup of 16×16 invocations computes a 64×64 tile of C, each invocation a 4×4 block (16 outputs in
// registers). The k dimension is walked in slices of 16: the workgroup stages a 64×16 slice of op(A) and a 16×64
// slice of op(B) in workgroup memory, then every invocation reads them as vec4 (four rows of A, four columns of B)
// and does 4 vec4 multiply-adds per k. Tiles past the matrix edge are padded with zeros at load time, so any m, n, k
// works (the tests use sizes that are not multiples of the tile).
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
// As[kk * 16 + r / 4][r % 4] = op(A)[row0 + r][k0 + kk];  Bs[kk * 16 + c / 4][c % 4] = op(B)[k0 + kk][col0 + c]
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

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let row0 = wg.y * TILE;
  let col0 = wg.x * TILE;
  let t = lid.y * 16u + lid.x;
  var acc = array<vec4<f32>, 4>(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
  for (var k0 = 0u; k0 < p.k; k0 += SLICE) {
    // 1024 elements of each slice, four per invocation. Neighbouring invocations read neighbouring addresses:
    // along k for a row-major A (and a transposed B), along rows/columns otherwise.
    for (var i = 0u; i < 4u; i++) {
      let e = t + i * 256u;
      var r: u32; var kk: u32;
      if (TRANS_A) { r = e % TILE; kk = e / TILE; } else { kk = e % SLICE; r = e / SLICE; }
      As[kk * 16u + r / 4u][r % 4u] = load_a(row0 + r, k0 + kk);
      var c: u32; var kb: u32;
      if (TRANS_B) { kb = e % SLICE; c = e / SLICE; } else { c = e % TILE; kb = e / TILE; }
      Bs[kb * 16u + c / 4u][c % 4u] = load_b(k0 + kb, col0 + c);
    }
    workgroupBarrier();
    for (var kk = 0u; kk < SLICE; kk++) {
      let a = As[kk * 16u + lid.y];  // rows 4·lid.y … 4·lid.y+3 of the tile
      let b = Bs[kk * 16u + lid.x];  // columns 4·lid.x … 4·lid.x+3
      acc[0] += a.x * b;
      acc[1] += a.y * b;
      acc[2] += a.z * b;
      acc[3] += a.w * b;
    }
    workgroupBarrier();
  }
  for (var i = 0u; i < 4u; i++) {
    let r = row0 + lid.y * 4u + i;
    if (r >= p.m) { break; }
    for (var j = 0u; j < 4u; j++) {
      let c = col0 + lid.x * 4u + j;
      if (c < p.n) { C[r * p.n + c] = p.alpha * acc[i][j]; }
    }
  }
}
