// A matrix of standard normal entries from the engine's own generator, for the product kernels' tests.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/base/rng.hpp"

inline std::vector<double> random_matrix(long count, uint64_t seed) {
  Rng rng = Rng::stream(seed, 0);
  std::vector<double> x(static_cast<size_t>(count));
  for (double& v : x) v = rng.normal();
  return x;
}
