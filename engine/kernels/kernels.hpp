// Dense matrix kernels on row-major double buffers.
//
// Each output element is summed in one fixed order (p = 0, 1, ..., k-1, from 0, then scaled by alpha), so results
// are bit-identical natively and in wasm (no FMA: built with -ffp-contract=off). Tiles of 4 rows × 4 columns are
// summed in registers with 2-lane vectors (SSE2 natively, wasm SIMD with -msimd128, plain doubles elsewhere), or
// natively on a processor with AVX tiles of 8 rows × 4 columns in 4-lane vectors, which keeps that order per
// element.
#pragma once

// C[m×n] = alpha · A[m×k] · B[k×n]    (backward to inputs: δ W)
void matmul_nn(double* C, const double* A, const double* B, int m, int n, int k, double alpha);
// C[m×n] = alpha · A[k×m]ᵀ · B[k×n]   (weight gradient: δᵀ X)
void matmul_tn(double* C, const double* A, const double* B, int m, int n, int k, double alpha);
// C[m×n] = alpha · A[m×k] · B[n×k]ᵀ   (forward: X Wᵀ). Transposes B into `scratch` (k·n doubles) first,
// so the product runs as matmul_nn along contiguous rows.
void matmul_nt(double* C, const double* A, const double* B, int m, int n, int k, double alpha, double* scratch);
