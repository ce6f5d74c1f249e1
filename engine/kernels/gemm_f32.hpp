// Float32 compute mode for the dense products: packed panels and a 4-lane SIMD micro-kernel.
//
// The double kernels (kernels.hpp) stay the default. Here the operands are converted to float32 while they are
// packed (packing is needed anyway for speed; conversion costs O(mk + kn) against O(mnk) multiply-adds), the
// product runs in float32 on 128-bit vectors (wasm_simd128.h in wasm, SSE natively; 256-bit AVX natively where the
// processor has it), and the result is written back scaled by alpha in double.
//
// Determinism: every output element is one float32 sum in the fixed order p = 0, 1, ..., k-1, starting from 0,
// with a separate multiply and add (no FMA; -ffp-contract=off). The k-blocking reloads the partial sums from memory
// rather than restarting them, so the blocking constants do not change a single bit: the result equals the plain
// scalar loop `s = 0; for p: s = s + f(a_ip) * f(b_pj); C_ij = alpha * double(s)`, natively and in wasm, where
// f(x) = float(x), or 0 when |float(x)| < 2^-63.
//
// Why f flushes: a product of two operands of at least 2^-63 is at least 2^-126, float32's smallest normal, so no
// multiply yields a subnormal. A subnormal result takes x86 a microcode assist, many times a multiply's cost, and
// wasm has no flush-to-zero mode to avoid it; a sharp attention softmax or a saturated activation fills whole rows
// of a backward pass with such products. A flushed operand changes a sum by less than 2^-63 times its partner,
// far below what Adam (whose epsilon dominates gradients that small) or SGD would act on.
#pragma once
#include <array>
#include <vector>

#include "engine/base/enum_names.hpp"

// Operands smaller than this in magnitude, once rounded to float32, enter the products as zeros (see above).
inline constexpr float kGemmF32FlushBelow = 0x1p-63f;

// How the dense products of a model are computed. float64 (the default) is the reference; float32 is faster.
enum class Precision { float64, float32 };
inline constexpr EnumName<Precision> kPrecisionNames[] = {
    {Precision::float64, "float64"},
    {Precision::float32, "float32"},
};
inline const char* precision_name(Precision p) { return enum_name(kPrecisionNames, p); }

// Packing buffers and the float32 accumulator, grown on demand. Reserve the largest shapes up front to keep a
// training step free of allocation.
class GemmF32Workspace {
 public:
  void reserve(int m, int n, int k);

 private:
  friend struct GemmF32Access;
  std::vector<float> a_, b_, c_;
};

// Bytes a workspace holds once reserve(m, n, k) was called for each {m, n, k} of `shapes` (the memory budget).
double gemm_f32_workspace_bytes(const std::vector<std::array<int, 3>>& shapes);

// Same contracts as matmul_nn / matmul_tn / matmul_nt in kernels.hpp, computed in float32.
void matmul_nn_f32(double* C, const double* A, const double* B, int m, int n, int k, double alpha,
                   GemmF32Workspace& ws);
void matmul_tn_f32(double* C, const double* A, const double* B, int m, int n, int k, double alpha,
                   GemmF32Workspace& ws);
void matmul_nt_f32(double* C, const double* A, const double* B, int m, int n, int k, double alpha,
                   GemmF32Workspace& ws);

// C[m×n] = A[m×k] · B[k×n] on float buffers (row-major), the same kernel: for benchmarks against float libraries.
void sgemm(float* C, const float* A, const float* B, int m, int n, int k, GemmF32Workspace& ws);

// The micro-kernel in use, e.g. "wasm_simd128 4x8" (benchmark reports say which code ran).
const char* gemm_f32_kernel_name();
