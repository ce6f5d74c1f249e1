// Dense matrix kernels on row-major double buffers, written as plain loops.
//
// Why plain loops: each output element is summed in one fixed order (p = 0, 1, ..., k-1, then scaled by
// alpha), so results are bit-identical natively and in wasm (no FMA: built with -ffp-contract=off).
// The inner loops run along contiguous rows so compilers vectorize them (SSE natively, wasm SIMD with
// -msimd128) without changing that order; four output rows are updated together to reuse each loaded row.
#pragma once

// C[m×n] = alpha · A[m×k] · B[k×n]    (backward to inputs: δ W)
void matmul_nn(double* C, const double* A, const double* B, int m, int n, int k, double alpha);
// C[m×n] = alpha · A[k×m]ᵀ · B[k×n]   (weight gradient: δᵀ X)
void matmul_tn(double* C, const double* A, const double* B, int m, int n, int k, double alpha);
// C[m×n] = alpha · A[m×k] · B[n×k]ᵀ   (forward: X Wᵀ). Transposes B into `scratch` (k·n doubles) first,
// so the product runs as matmul_nn along contiguous rows.
void matmul_nt(double* C, const double* A, const double* B, int m, int n, int k, double alpha, double* scratch);
