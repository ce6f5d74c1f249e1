// Seeded random numbers that are the same on every platform.
//
// std::mt19937 is portable but std::normal_distribution is not (each standard library draws differently),
// so we use SplitMix64 for bits and Box-Muller on our deterministic log/sin/cos for normals.
#pragma once
#include <cmath>
#include <cstdint>

#include "engine/base/detmath.hpp"

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  // Derive an independent stream for a named purpose (init, data, batches) from one seed.
  static Rng stream(uint64_t seed, uint64_t purpose) { return Rng(mix(seed ^ mix(purpose + 0x51ED27u))); }

  uint64_t next_u64() { return mix(state_ += 0x9E3779B97F4A7C15ull); }

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return double(next_u64() >> 11) * (1.0 / 9007199254740992.0); }

  // Uniform integer in [0, n).
  uint64_t below(uint64_t n) { return uint64_t(uniform() * double(n)); }

  double normal() {
    if (has_spare_) { has_spare_ = false; return spare_; }
    double u1 = 1.0 - uniform();  // (0, 1]: log is finite
    double u2 = uniform();
    double radius = std::sqrt(-2.0 * detmath::log(u1));
    double angle = 2.0 * detmath::kPi * u2;
    spare_ = radius * detmath::sin(angle);
    has_spare_ = true;
    return radius * detmath::cos(angle);
  }

 private:
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t state_;
  double spare_ = 0;
  bool has_spare_ = false;
};
