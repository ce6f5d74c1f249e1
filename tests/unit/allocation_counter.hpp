// Counts heap allocations by replacing the global operator new of the test binary that includes this header:
// include it in exactly one source file of a binary (each test file here is its own binary). g_allocations is the
// count so far, g_allocated_bytes their sum; the steady-state tests read them before and after the steps they check.
#pragma once
#include <atomic>
#include <cstdlib>
#include <new>

inline std::atomic<long> g_allocations{0};  // atomic: sweep members may step on worker threads
inline std::atomic<long> g_allocated_bytes{0};

void* operator new(size_t n) {
  g_allocations++;
  g_allocated_bytes += long(n);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
