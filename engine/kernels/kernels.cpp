#include "engine/kernels/kernels.hpp"

#include "engine/kernels/avx.hpp"

// One 2-lane double vector type and the four operations the tile needs. Each is exact IEEE double precision (one
// rounding per multiply, one per add), so the SSE2, wasm SIMD and scalar paths give the same bits.
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
using vd2 = v128_t;
static inline vd2 load2(const double* p) { return wasm_v128_load(p); }
static inline void store2(double* p, vd2 v) { wasm_v128_store(p, v); }
static inline vd2 splat2(double x) { return wasm_f64x2_splat(x); }
static inline vd2 add2(vd2 a, vd2 b) { return wasm_f64x2_add(a, b); }
static inline vd2 mul2(vd2 a, vd2 b) { return wasm_f64x2_mul(a, b); }
#elif defined(__SSE2__)
#include <emmintrin.h>
using vd2 = __m128d;
static inline vd2 load2(const double* p) { return _mm_loadu_pd(p); }
static inline void store2(double* p, vd2 v) { _mm_storeu_pd(p, v); }
static inline vd2 splat2(double x) { return _mm_set1_pd(x); }
static inline vd2 add2(vd2 a, vd2 b) { return _mm_add_pd(a, b); }
static inline vd2 mul2(vd2 a, vd2 b) { return _mm_mul_pd(a, b); }
#else
struct vd2 { double v[2]; };
static inline vd2 load2(const double* p) { return {{p[0], p[1]}}; }
static inline void store2(double* p, vd2 x) { p[0] = x.v[0], p[1] = x.v[1]; }
static inline vd2 splat2(double x) { return {{x, x}}; }
static inline vd2 add2(vd2 a, vd2 b) { return {{a.v[0] + b.v[0], a.v[1] + b.v[1]}}; }
static inline vd2 mul2(vd2 a, vd2 b) { return {{a.v[0] * b.v[0], a.v[1] * b.v[1]}}; }
#endif

namespace {

// B's rows are n doubles apart; a k×4 column panel read straight from B would hit one cache set over and over when
// n·8 bytes is a multiple of 4 KiB (widths 512, 1024, ...). So each panel is copied, KC rows at a time, into a
// contiguous buffer on the stack first.
constexpr int KC = 256;

// C[i0..i0+ROWS)[j0..j0+4) += Σ_p coef(i, p0 + p) · panel[p], p = 0, 1, ..., kc-1, starting from 0 when `first`.
// The tile's 2·ROWS accumulators stay in registers for the whole sum: per p, two loads of the panel and ROWS
// broadcasts feed 4·ROWS multiply-adds. `coef(i, p)` reads A[i][p] (nn) or A[p][i] (tn).
template <int ROWS, class Coef>
void tile(double* C, const double* panel, int i0, int j0, int n, int p0, int kc, bool first, Coef coef) {
  vd2 acc[ROWS][2];
  for (int r = 0; r < ROWS; r++) {
    double* c = C + long(i0 + r) * n + j0;
    acc[r][0] = first ? splat2(0.0) : load2(c);
    acc[r][1] = first ? splat2(0.0) : load2(c + 2);
  }
  for (int p = 0; p < kc; p++) {
    const vd2 b0 = load2(panel + 4 * p), b1 = load2(panel + 4 * p + 2);
    for (int r = 0; r < ROWS; r++) {
      const vd2 a = splat2(coef(i0 + r, p0 + p));
      acc[r][0] = add2(acc[r][0], mul2(a, b0));
      acc[r][1] = add2(acc[r][1], mul2(a, b1));
    }
  }
  for (int r = 0; r < ROWS; r++) {
    store2(C + long(i0 + r) * n + j0, acc[r][0]);
    store2(C + long(i0 + r) * n + j0 + 2, acc[r][1]);
  }
}

#if MUPLAY_AVX_TILES
// Native x86-64 processors with AVX (nearly all since 2011) take the tile on 4-lane vectors: one register holds a
// row's four columns, so eight rows fit in registers and each panel load feeds 8 multiply-adds instead of 4. Every
// lane is still one output element summed in the order above, so the bits are those of the 2-lane tile (and of
// wasm).

template <int ROWS, class Coef>
__attribute__((target("avx"))) void tile_avx(double* C, const double* panel, int i0, int j0, int n, int p0, int kc,
                                             bool first, Coef coef) {
  __m256d acc[ROWS];
  for (int r = 0; r < ROWS; r++) acc[r] = first ? _mm256_setzero_pd() : _mm256_loadu_pd(C + long(i0 + r) * n + j0);
  for (int p = 0; p < kc; p++) {
    const __m256d b = _mm256_loadu_pd(panel + 4 * p);
    for (int r = 0; r < ROWS; r++) {
      const __m256d a = _mm256_set1_pd(coef(i0 + r, p0 + p));
      acc[r] = _mm256_add_pd(acc[r], _mm256_mul_pd(a, b));
    }
  }
  for (int r = 0; r < ROWS; r++) _mm256_storeu_pd(C + long(i0 + r) * n + j0, acc[r]);
}

// Rows [0, m) of one packed panel: eight at a time, then one at a time.
template <class Coef>
__attribute__((target("avx"))) void panel_rows_avx(double* C, const double* panel, int m, int j0, int n, int p0,
                                                   int kc, Coef coef) {
  const int m8 = m / 8 * 8;
  for (int i0 = 0; i0 < m8; i0 += 8) tile_avx<8>(C, panel, i0, j0, n, p0, kc, p0 == 0, coef);
  for (int i = m8; i < m; i++) tile_avx<1>(C, panel, i, j0, n, p0, kc, p0 == 0, coef);
}

// Processors with AVX-512 take panels of 8·VECS columns on 8-lane vectors: VECS registers hold a row's columns, so
// each broadcast feeds VECS multiply-adds. Panels of sixteen columns (VECS = 2) keep sixteen independent sums in
// flight in a tile of eight rows (more work per load, more sums for the vector units to interleave); eight-column
// panels take what is left. Every lane is still one output element summed in the order above: the same bits again.
template <int ROWS, int VECS, class Coef>
__attribute__((target("avx512f"))) void tile_avx512(double* C, const double* panel, int i0, int j0, int n, int p0,
                                                    int kc, bool first, Coef coef) {
  __m512d acc[ROWS][VECS];
  for (int r = 0; r < ROWS; r++)
    for (int v = 0; v < VECS; v++)
      acc[r][v] = first ? _mm512_setzero_pd() : _mm512_loadu_pd(C + long(i0 + r) * n + j0 + 8 * v);
  for (int p = 0; p < kc; p++) {
    __m512d b[VECS];
    for (int v = 0; v < VECS; v++) b[v] = _mm512_loadu_pd(panel + 8 * VECS * p + 8 * v);
    for (int r = 0; r < ROWS; r++) {
      const __m512d a = _mm512_set1_pd(coef(i0 + r, p0 + p));
      for (int v = 0; v < VECS; v++) acc[r][v] = _mm512_add_pd(acc[r][v], _mm512_mul_pd(a, b[v]));
    }
  }
  for (int r = 0; r < ROWS; r++)
    for (int v = 0; v < VECS; v++) _mm512_storeu_pd(C + long(i0 + r) * n + j0 + 8 * v, acc[r][v]);
}

// Rows [0, m) of one packed panel of 8·VECS columns: eight at a time, then one at a time.
template <int VECS, class Coef>
__attribute__((target("avx512f"))) void panel_rows_avx512(double* C, const double* panel, int m, int j0, int n,
                                                          int p0, int kc, Coef coef) {
  const int m8 = m / 8 * 8;
  for (int i0 = 0; i0 < m8; i0 += 8) tile_avx512<8, VECS>(C, panel, i0, j0, n, p0, kc, p0 == 0, coef);
  for (int i = m8; i < m; i++) tile_avx512<1, VECS>(C, panel, i, j0, n, p0, kc, p0 == 0, coef);
}
#endif

// Rows [0, m) of one packed panel: on the AVX tile where the processor has it, else on the 2-lane tile four at a
// time, then one at a time.
template <class Coef>
void panel_rows(double* C, const double* panel, int m, int j0, int n, int p0, int kc, Coef coef) {
#if MUPLAY_AVX_TILES
  if (cpu_has_avx()) return panel_rows_avx(C, panel, m, j0, n, p0, kc, coef);
#endif
  const int m4 = m / 4 * 4;
  for (int i0 = 0; i0 < m4; i0 += 4) tile<4>(C, panel, i0, j0, n, p0, kc, p0 == 0, coef);
  for (int i = m4; i < m; i++) tile<1>(C, panel, i, j0, n, p0, kc, p0 == 0, coef);
}

// The same sum for one element (the last n mod 4 columns).
template <class Coef>
void element(double* C, const double* B, int i, int j, int n, int k, Coef coef) {
  double s = 0;
  for (int p = 0; p < k; p++) s += coef(i, p) * B[long(p) * n + j];
  C[long(i) * n + j] = s;
}

// Columns [j_begin, j_end) of C, W at a time (j_end − j_begin a multiple of W): each W-column panel of B is packed,
// KC rows at a time, and serves every row of C.
template <int W, class Coef>
void panels(double* C, const double* B, int m, int n, int k, int j_begin, int j_end, Coef coef) {
  double panel[KC * W];
  for (int j0 = j_begin; j0 < j_end; j0 += W)
    for (int p0 = 0; p0 < k || p0 == 0; p0 += KC) {  // k = 0 still writes the zeros
      const int kc = k - p0 < KC ? k - p0 : KC;
      for (int p = 0; p < kc; p++)
        for (int j = 0; j < W; j++) panel[W * p + j] = B[long(p0 + p) * n + j0 + j];
      if constexpr (W % 8 == 0) {
#if MUPLAY_AVX_TILES
        panel_rows_avx512<W / 8>(C, panel, m, j0, n, p0, kc, coef);
#endif
      } else {
        panel_rows(C, panel, m, j0, n, p0, kc, coef);
      }
    }
}

template <class Coef>
void product(double* C, const double* B, int m, int n, int k, double alpha, Coef coef) {
  // Column panels outside, row tiles inside: 16 columns a panel where the processor has AVX-512, then 8, then 4,
  // then the last n mod 4 columns one element at a time.
  int j = 0;
#if MUPLAY_AVX_TILES
  if (cpu_has_avx512()) {
    panels<16>(C, B, m, n, k, 0, n / 16 * 16, coef);
    panels<8>(C, B, m, n, k, n / 16 * 16, n / 8 * 8, coef);
    j = n / 8 * 8;
  }
#endif
  const int n4 = n / 4 * 4;
  panels<4>(C, B, m, n, k, j, n4, coef);
  for (int i = 0; i < m; i++)
    for (int jj = n4; jj < n; jj++) element(C, B, i, jj, n, k, coef);
  if (alpha != 1.0)
    for (long i = 0; i < long(m) * n; i++) C[i] *= alpha;
}

}  // namespace

void matmul_nn(double* C, const double* A, const double* B, int m, int n, int k, double alpha) {
  product(C, B, m, n, k, alpha, [&](int i, int p) { return A[long(i) * k + p]; });
}

void matmul_tn(double* C, const double* A, const double* B, int m, int n, int k, double alpha) {
  product(C, B, m, n, k, alpha, [&](int i, int p) { return A[long(p) * m + i]; });
}

void matmul_nt(double* C, const double* A, const double* B, int m, int n, int k, double alpha, double* scratch) {
  for (int j = 0; j < n; j++)
    for (int p = 0; p < k; p++) scratch[long(p) * n + j] = B[long(j) * k + p];
  matmul_nn(C, A, scratch, m, n, k, alpha);
}
