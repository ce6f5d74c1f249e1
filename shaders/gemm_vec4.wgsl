// gemm.wgsl with vec4 loads from global memory, for operands whose contiguous dimension is a multiple of 4 (rows
// 16-byte aligned): web/js/webgpu_backend.js picks it when NN has k, n ≡ 0 (mod 4), NT has k ≡ 0, TN has m, n ≡ 0.
// Same tiling, same C = alpha · op(A) · op(B), same results up to float32 rounding order (none: each output still
// sums its products in k order).
//
// Staging a 16-wide k slice of 64 rows (or columns) into workgroup memory, laid out as vec4 over rows (columns):
// an operand contiguous along m (Aᵀ) or n (B) is copied one vec4 per invocation; an operand contiguous along k (A, Bᵀ)
// is read by 64 invocations as 4×4 blocks (four vec4 along k from four rows) and transposed in registers.
override TRANS_A: bool = false;
override TRANS_B: bool = false;

struct Params {
  m: u32, n: u32, k: u32, u3: u32, u4: u32, u5: u32, u6: u32, u7: u32,
  alpha: f32, f1: f32, f2: f32, f3: f32, f4: f32, f5: f32, f6: f32, f7: f32,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> A: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> B: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> C: array<f32>;

const TILE = 64u;
const SLICE = 16u;
// As[kk * 16 + q] = op(A)[row0 + 4q … 4q+3][k0 + kk];  Bs[kk * 16 + q] = op(B)[k0 + kk][col0 + 4q … 4q+3]
var<workgroup> As: array<vec4<f32>, 256>;
var<workgroup> Bs: array<vec4<f32>, 256>;

// The four loads: A or B row-major along k (rows×k: row r, k = 4kv … 4kv+3), or along m / n (k×width: row kk,
// columns 4q … 4q+3); zero outside the matrix. (One function each: WGSL cannot pass storage pointers portably.)
fn a_along_k(r: u32, kv: u32) -> vec4<f32> {
  if (r >= p.m || 4u * kv >= p.k) { return vec4<f32>(0.0); }
  return A[r * (p.k / 4u) + kv];
}
fn b_along_k(c: u32, kv: u32) -> vec4<f32> {
  if (c >= p.n || 4u * kv >= p.k) { return vec4<f32>(0.0); }
  return B[c * (p.k / 4u) + kv];
}
fn a_along_m(kk: u32, q: u32) -> vec4<f32> {
  if (kk >= p.k || 4u * q >= p.m) { return vec4<f32>(0.0); }
  return A[kk * (p.m / 4u) + q];
}
fn b_along_n(kk: u32, q: u32) -> vec4<f32> {
  if (kk >= p.k || 4u * q >= p.n) { return vec4<f32>(0.0); }
  return B[kk * (p.n / 4u) + q];
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
  // Copy: slice row kk = t / 16, vec4 q = t % 16. Transpose (t < 64): block of rows 4q … 4q+3, k = 4kq … 4kq+3,
  // with neighbouring invocations on neighbouring vec4 of a row.
  let kk = t / 16u;
  let q = t % 16u;
  let tq = t / 4u;
  let tk = t % 4u;
  var acc0 = vec4<f32>(0.0);
  var acc1 = vec4<f32>(0.0);
  var acc2 = vec4<f32>(0.0);
  var acc3 = vec4<f32>(0.0);
  for (var k0 = 0u; k0 < p.k; k0 += SLICE) {
    if (TRANS_A) {
      As[kk * 16u + q] = a_along_m(k0 + kk, row0 / 4u + q);
    } else if (t < 64u) {
      let r = row0 + 4u * tq;
      let kv = k0 / 4u + tk;
      let a0 = a_along_k(r, kv);
      let a1 = a_along_k(r + 1u, kv);
      let a2 = a_along_k(r + 2u, kv);
      let a3 = a_along_k(r + 3u, kv);
      As[(4u * tk) * 16u + tq] = vec4<f32>(a0.x, a1.x, a2.x, a3.x);
      As[(4u * tk + 1u) * 16u + tq] = vec4<f32>(a0.y, a1.y, a2.y, a3.y);
      As[(4u * tk + 2u) * 16u + tq] = vec4<f32>(a0.z, a1.z, a2.z, a3.z);
      As[(4u * tk + 3u) * 16u + tq] = vec4<f32>(a0.w, a1.w, a2.w, a3.w);
    }
    if (!TRANS_B) {
      Bs[kk * 16u + q] = b_along_n(k0 + kk, col0 / 4u + q);
    } else if (t < 64u) {
      let c = col0 + 4u * tq;
      let kv = k0 / 4u + tk;
      let b0 = b_along_k(c, kv);
      let b1 = b_along_k(c + 1u, kv);
      let b2 = b_along_k(c + 2u, kv);
      let b3 = b_along_k(c + 3u, kv);
      Bs[(4u * tk) * 16u + tq] = vec4<f32>(b0.x, b1.x, b2.x, b3.x);
      Bs[(4u * tk + 1u) * 16u + tq] = vec4<f32>(b0.y, b1.y, b2.y, b3.y);
      Bs[(4u * tk + 2u) * 16u + tq] = vec4<f32>(b0.z, b1.z, b2.z, b3.z);
      Bs[(4u * tk + 3u) * 16u + tq] = vec4<f32>(b0.w, b1.w, b2.w, b3.w);
    }
    workgroupBarrier();
    for (var s = 0u; s < SLICE; s++) {
      let a = As[s * 16u + lid.y];
      let b = Bs[s * 16u + lid.x];
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
