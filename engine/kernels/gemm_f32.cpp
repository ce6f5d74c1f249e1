#include "engine/kernels/gemm_f32.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/kernels/avx.hpp"

// One 4-lane float vector type and the four operations the micro-kernel needs. Each is exact IEEE single
// precision (one rounding per multiply, one per add) on every path, so all paths give the same bits.
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
using vf4 = v128_t;
static inline vf4 load4(const float* p) { return wasm_v128_load(p); }
static inline void store4(float* p, vf4 v) { wasm_v128_store(p, v); }
static inline vf4 splat4(float x) { return wasm_f32x4_splat(x); }
static inline vf4 zero4() { return wasm_f32x4_splat(0.0f); }
static inline vf4 add4(vf4 a, vf4 b) { return wasm_f32x4_add(a, b); }
static inline vf4 mul4(vf4 a, vf4 b) { return wasm_f32x4_mul(a, b); }
static const char* const kVectorName = "wasm_simd128";
#elif defined(__SSE2__)
#include <immintrin.h>
using vf4 = __m128;
static inline vf4 load4(const float* p) { return _mm_loadu_ps(p); }
static inline void store4(float* p, vf4 v) { _mm_storeu_ps(p, v); }
static inline vf4 splat4(float x) { return _mm_set1_ps(x); }
static inline vf4 zero4() { return _mm_setzero_ps(); }
static inline vf4 add4(vf4 a, vf4 b) { return _mm_add_ps(a, b); }
static inline vf4 mul4(vf4 a, vf4 b) { return _mm_mul_ps(a, b); }
#if defined(__AVX__)
static const char* const kVectorName = "sse (vex/avx encoding)";
#else
static const char* const kVectorName = "sse";
#endif
#else
struct vf4 { float v[4]; };
static inline vf4 load4(const float* p) { return {{p[0], p[1], p[2], p[3]}}; }
static inline void store4(float* p, vf4 x) { std::copy(x.v, x.v + 4, p); }
static inline vf4 splat4(float x) { return {{x, x, x, x}}; }
static inline vf4 zero4() { return splat4(0.0f); }
static inline vf4 add4(vf4 a, vf4 b) { return {{a.v[0] + b.v[0], a.v[1] + b.v[1], a.v[2] + b.v[2], a.v[3] + b.v[3]}}; }
static inline vf4 mul4(vf4 a, vf4 b) { return {{a.v[0] * b.v[0], a.v[1] * b.v[1], a.v[2] * b.v[2], a.v[3] * b.v[3]}}; }
static const char* const kVectorName = "scalar";
#endif

// Register tile MR×NR = 4×8: 8 accumulators + 2 B vectors + 1 broadcast A. V8's optimizing compiler keeps this
// tile in xmm registers on x64 (15 usable); 5×8, 6×8 and 4×12 spill accumulators to the stack in its hot loop
// (checked with node --print-wasm-code). Blocks: a KC×NR B panel stays in L1, an MC×KC A block in L2.
constexpr int MR = 4, NR = 8;
constexpr int KC = 256, MC = 128 / MR * MR, NC = 1024 / NR * NR;  // whole panels per block

const char* gemm_f32_kernel_name() {
#if MUPLAY_AVX_TILES
  if (cpu_has_avx512()) return "avx-512 8x16";  // micro_kernel_avx512 below
  if (cpu_has_avx()) return "avx 4x8";  // micro_kernel_avx below
#endif
  static const std::string name = std::string(kVectorName) + " " + std::to_string(MR) + "x" + std::to_string(NR);
  return name.c_str();
}

struct GemmF32Access {
  static std::vector<float>& a(GemmF32Workspace& w) { return w.a_; }
  static std::vector<float>& b(GemmF32Workspace& w) { return w.b_; }
  static std::vector<float>& c(GemmF32Workspace& w) { return w.c_; }
};

namespace {

int round_up(int x, int to) { return (x + to - 1) / to * to; }

// A strided view of a row-major buffer: element (i, j) is at data[i·rs + j·cs]. Transposes are free.
template <class T>
struct View {
  const T* data;
  long rs, cs;
  float at(int i, int j) const { return float(data[i * rs + j * cs]); }
};

// Packed operands below kGemmF32FlushBelow in magnitude become zeros (gemm_f32.hpp says why). A pass of its own over
// the packed panel, which is contiguous, so that it vectorizes: inside the packers' strided loops it cost more.
void flush_small(float* panel, long count) {
  for (long i = 0; i < count; i++) panel[i] = std::fabs(panel[i]) < kGemmF32FlushBelow ? 0.0f : panel[i];
}

// A[i0.., p0..] (mc×kc) into MR-row panels, each stored p-major (MR floats per p), rows past m zero.
template <class T>
void pack_a(float* dst, View<T> A, int i0, int mc, int p0, int kc) {
  for (int ir = 0; ir < mc; ir += MR, dst += long(MR) * kc) {
    const int rows = std::min(MR, mc - ir);
    for (int p = 0; p < kc; p++) {
      for (int r = 0; r < rows; r++) dst[p * MR + r] = A.at(i0 + ir + r, p0 + p);
      for (int r = rows; r < MR; r++) dst[p * MR + r] = 0.0f;
    }
  }
}

// B[p0.., j0..] (kc×nc) into NR-column panels, each stored p-major (NR floats per p), columns past n zero.
template <class T>
void pack_b(float* dst, View<T> B, int p0, int kc, int j0, int nc) {
  for (int jr = 0; jr < nc; jr += NR, dst += long(NR) * kc) {
    const int cols = std::min(NR, nc - jr);
    for (int p = 0; p < kc; p++) {
      for (int c = 0; c < cols; c++) dst[p * NR + c] = B.at(p0 + p, j0 + jr + c);
      for (int c = cols; c < NR; c++) dst[p * NR + c] = 0.0f;
    }
  }
}

// c[MR×NR] (row stride ldc) = (first ? 0 : c) + Σ_p a_p ⊗ b_p, one separate multiply and add per term, in p order.
void micro_kernel(int kc, const float* a, const float* b, float* c, long ldc, bool first) {
  vf4 acc[MR][NR / 4];
  for (int r = 0; r < MR; r++)
    for (int v = 0; v < NR / 4; v++) acc[r][v] = first ? zero4() : load4(c + r * ldc + 4 * v);
  for (int p = 0; p < kc; p++, a += MR, b += NR) {
    vf4 bv[NR / 4];
    for (int v = 0; v < NR / 4; v++) bv[v] = load4(b + 4 * v);
    for (int r = 0; r < MR; r++) {
      const vf4 ar = splat4(a[r]);
      for (int v = 0; v < NR / 4; v++) acc[r][v] = add4(acc[r][v], mul4(ar, bv[v]));
    }
  }
  for (int r = 0; r < MR; r++)
    for (int v = 0; v < NR / 4; v++) store4(c + r * ldc + 4 * v, acc[r][v]);
}

#if MUPLAY_AVX_TILES
// Natively on x86-64 with AVX, the same tile on 8-lane vectors: a row's 8 columns in one register, one load of b per
// p instead of two. Each lane is the same float32 sum in the same order, so the bits are those of the 4-lane kernel
// (and of wasm).
__attribute__((target("avx"))) void micro_kernel_avx(int kc, const float* a, const float* b, float* c, long ldc,
                                                     bool first) {
  static_assert(NR == 8, "one 8-lane register per row of the tile");
  __m256 acc[MR];
  for (int r = 0; r < MR; r++) acc[r] = first ? _mm256_setzero_ps() : _mm256_loadu_ps(c + r * ldc);
  for (int p = 0; p < kc; p++, a += MR, b += NR) {
    const __m256 bv = _mm256_loadu_ps(b);
    for (int r = 0; r < MR; r++) acc[r] = _mm256_add_ps(acc[r], _mm256_mul_ps(_mm256_set1_ps(a[r]), bv));
  }
  for (int r = 0; r < MR; r++) _mm256_storeu_ps(c + r * ldc, acc[r]);
}

// With AVX-512, two MR-row panels of A and two NR-column panels of B at once: an 8×16 tile, a row's 16 columns in
// one 16-lane register, so each broadcast feeds twice the lanes. The same sum per lane again: the same bits.
__attribute__((target("avx512f"))) void micro_kernel_avx512(int kc, const float* a, const float* b, float* c,
                                                           long ldc, bool first) {
  static_assert(NR == 8, "two panels of B fill one 16-lane register");
  const float* a2 = a + long(MR) * kc;  // the next MR rows' panel
  const float* b2 = b + long(NR) * kc;  // the next NR columns' panel
  __m512 acc[2 * MR];
  for (int r = 0; r < 2 * MR; r++) acc[r] = first ? _mm512_setzero_ps() : _mm512_loadu_ps(c + r * ldc);
  for (int p = 0; p < kc; p++, a += MR, a2 += MR, b += NR, b2 += NR) {
    // Lanes 0-7 from b, lanes 8-15 from b2 (masked loads: b2 − 8 + 8 = b2).
    const __m512 bv = _mm512_mask_loadu_ps(_mm512_maskz_loadu_ps(0x00ff, b), 0xff00, b2 - NR);
    for (int r = 0; r < MR; r++) acc[r] = _mm512_add_ps(acc[r], _mm512_mul_ps(_mm512_set1_ps(a[r]), bv));
    for (int r = 0; r < MR; r++) acc[MR + r] = _mm512_add_ps(acc[MR + r], _mm512_mul_ps(_mm512_set1_ps(a2[r]), bv));
  }
  for (int r = 0; r < 2 * MR; r++) _mm512_storeu_ps(c + r * ldc, acc[r]);
}
#endif

void micro_kernel_best(int kc, const float* a, const float* b, float* c, long ldc, bool first) {
#if MUPLAY_AVX_TILES
  if (cpu_has_avx()) return micro_kernel_avx(kc, a, b, c, ldc, first);
#endif
  micro_kernel(kc, a, b, c, ldc, first);
}

// The packed block pa (mc rows) × pb (nc columns) into Cf: 8×16 tiles where the processor has AVX-512 and both next
// panels exist, MR×NR tiles for the rest.
void block_product(int kc, int mc, int nc, const float* pa, const float* pb, float* c, long ldc, bool first) {
  int jr = 0;
#if MUPLAY_AVX_TILES
  if (cpu_has_avx512())
    for (; jr + NR < nc; jr += 2 * NR) {
      int ir = 0;
      for (; ir + MR < mc; ir += 2 * MR)
        micro_kernel_avx512(kc, pa + long(ir) * kc, pb + long(jr) * kc, c + ir * ldc + jr, ldc, first);
      for (; ir < mc; ir += MR)
        for (int j = jr; j < jr + 2 * NR; j += NR)
          micro_kernel_best(kc, pa + long(ir) * kc, pb + long(j) * kc, c + ir * ldc + j, ldc, first);
    }
#endif
  for (; jr < nc; jr += NR)
    for (int ir = 0; ir < mc; ir += MR)
      micro_kernel_best(kc, pa + long(ir) * kc, pb + long(jr) * kc, c + ir * ldc + jr, ldc, first);
}

// Cf (padded to MR rows × ldc columns) = A·B in float32, blocked GotoBLAS-style.
template <class T>
void gemm_into(float* Cf, long ldc, View<T> A, View<T> B, int m, int n, int k, GemmF32Workspace& ws) {
  ws.reserve(m, n, k);
  float* pa = GemmF32Access::a(ws).data();
  float* pb = GemmF32Access::b(ws).data();
  for (int p0 = 0; p0 < k; p0 += KC) {
    const int kc = std::min(KC, k - p0);
    for (int j0 = 0; j0 < n; j0 += NC) {
      const int nc = std::min(NC, n - j0);
      pack_b(pb, B, p0, kc, j0, nc);
      flush_small(pb, long(round_up(nc, NR)) * kc);
      for (int i0 = 0; i0 < m; i0 += MC) {
        const int mc = std::min(MC, m - i0);
        pack_a(pa, A, i0, mc, p0, kc);
        flush_small(pa, long(round_up(mc, MR)) * kc);
        block_product(kc, mc, nc, pa, pb, Cf + i0 * ldc + j0, ldc, p0 == 0);
      }
    }
  }
  if (k == 0)
    for (long i = 0; i < long(round_up(m, MR)) * ldc; i++) Cf[i] = 0.0f;
}

template <class T>
void gemm(T* C, View<T> A, View<T> B, int m, int n, int k, double alpha, GemmF32Workspace& ws) {
  const long ldc = round_up(n, NR);
  ws.reserve(m, n, k);
  float* Cf = GemmF32Access::c(ws).data();
  gemm_into(Cf, ldc, A, B, m, n, k, ws);
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) C[long(i) * n + j] = T(alpha * double(Cf[i * ldc + j]));
}

}  // namespace

void GemmF32Workspace::reserve(int m, int n, int k) {
  const int kc = std::min(KC, std::max(k, 1));
  const size_t a = size_t(round_up(std::min(MC, m), MR)) * size_t(kc);
  const size_t b = size_t(round_up(std::min(NC, n), NR)) * size_t(kc);
  const size_t c = size_t(round_up(m, MR)) * size_t(round_up(n, NR));
  if (a_.size() < a) a_.resize(a);
  if (b_.size() < b) b_.resize(b);
  if (c_.size() < c) c_.resize(c);
}

double gemm_f32_workspace_bytes(const std::vector<std::array<int, 3>>& shapes) {
  size_t a = 0, b = 0, c = 0;  // as reserve() grows each buffer
  for (const auto& [m, n, k] : shapes) {
    const int kc = std::min(KC, std::max(k, 1));
    a = std::max(a, size_t(round_up(std::min(MC, m), MR)) * size_t(kc));
    b = std::max(b, size_t(round_up(std::min(NC, n), NR)) * size_t(kc));
    c = std::max(c, size_t(round_up(m, MR)) * size_t(round_up(n, NR)));
  }
  return double(sizeof(float)) * double(a + b + c);
}

void matmul_nn_f32(double* C, const double* A, const double* B, int m, int n, int k, double alpha,
                   GemmF32Workspace& ws) {
  gemm(C, View<double>{A, k, 1}, View<double>{B, n, 1}, m, n, k, alpha, ws);
}

void matmul_tn_f32(double* C, const double* A, const double* B, int m, int n, int k, double alpha,
                   GemmF32Workspace& ws) {
  gemm(C, View<double>{A, 1, m}, View<double>{B, n, 1}, m, n, k, alpha, ws);
}

void matmul_nt_f32(double* C, const double* A, const double* B, int m, int n, int k, double alpha,
                   GemmF32Workspace& ws) {
  gemm(C, View<double>{A, k, 1}, View<double>{B, 1, k}, m, n, k, alpha, ws);
}

void sgemm(float* C, const float* A, const float* B, int m, int n, int k, GemmF32Workspace& ws) {
  gemm(C, View<float>{A, k, 1}, View<float>{B, n, 1}, m, n, k, 1.0, ws);
}
