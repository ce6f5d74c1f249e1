// Whether the native product kernels may take their AVX tiles (kernels.cpp, gemm_f32.cpp). Only x86-64 builds have
// them (wasm has 128-bit vectors only); the processor is asked at run time, so a binary built here still runs on an
// SSE2-only machine. The tiles sum every element in the same order as the 128-bit ones, so the bits do not depend
// on the answer.
#pragma once

#if defined(__x86_64__) && !defined(__wasm__)
#define MUPLAY_AVX_TILES 1
#include <immintrin.h>

inline bool cpu_has_avx() {
  static const bool has = __builtin_cpu_supports("avx");
  return has;
}

inline bool cpu_has_avx512() {
  static const bool has = __builtin_cpu_supports("avx512f");
  return has;
}
#else
#define MUPLAY_AVX_TILES 0
#endif
