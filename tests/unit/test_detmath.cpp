// The deterministic functions must agree with the C library to about 1 ulp (they only differ in being
// the same bits on every platform).
#include <gtest/gtest.h>

#include <cmath>

#include "engine/base/detmath.hpp"
#include "engine/base/rng.hpp"

namespace {
double rel_err(double got, double want) { return std::fabs(got - want) / std::max(std::fabs(want), 1e-300); }
}  // namespace

TEST(Detmath, MatchesTheCLibrary) {
  Rng rng(7);
  double worst_exp = 0, worst_log = 0, worst_sin = 0, worst_cos = 0, worst_tanh = 0, worst_expm1 = 0;
  for (int i = 0; i < 200000; i++) {
    const double x = (rng.uniform() - 0.5) * 100;
    worst_exp = std::max(worst_exp, rel_err(detmath::exp(x), std::exp(x)));
    worst_expm1 = std::max(worst_expm1, rel_err(detmath::expm1(x / 50), std::expm1(x / 50)));
    const double pos = std::exp(x / 3);
    worst_log = std::max(worst_log, std::fabs(detmath::log(pos) - std::log(pos)));
    worst_sin = std::max(worst_sin, std::fabs(detmath::sin(x) - std::sin(x)));
    worst_cos = std::max(worst_cos, std::fabs(detmath::cos(x) - std::cos(x)));
    worst_tanh = std::max(worst_tanh, rel_err(detmath::tanh(x / 10), std::tanh(x / 10)));
  }
  EXPECT_LT(worst_exp, 4e-16);
  EXPECT_LT(worst_expm1, 1e-15);
  EXPECT_LT(worst_log, 1e-15);
  EXPECT_LT(worst_sin, 1e-15);
  EXPECT_LT(worst_cos, 1e-15);
  EXPECT_LT(worst_tanh, 1e-15);
}

TEST(Detmath, Atan2MatchesTheCLibraryInEveryQuadrant) {
  Rng rng(11);
  double worst = 0;
  for (int i = 0; i < 200000; i++) {
    const double y = (rng.uniform() - 0.5) * std::exp((rng.uniform() - 0.5) * 20);
    const double x = (rng.uniform() - 0.5) * std::exp((rng.uniform() - 0.5) * 20);
    worst = std::max(worst, std::fabs(detmath::atan2(y, x) - std::atan2(y, x)));
  }
  EXPECT_LT(worst, 1e-15);
  for (double y : {0.0, -0.0, 1.0, -1.0})
    for (double x : {0.0, -0.0, 1.0, -1.0}) EXPECT_EQ(detmath::atan2(y, x), std::atan2(y, x)) << y << ", " << x;
}

TEST(Detmath, EdgeCases) {
  EXPECT_EQ(detmath::exp(0), 1.0);
  EXPECT_TRUE(std::isinf(detmath::exp(800)));
  EXPECT_EQ(detmath::exp(-800), 0.0);
  EXPECT_TRUE(std::isinf(detmath::log(0)));
  EXPECT_TRUE(std::isnan(detmath::log(-1)));
  EXPECT_EQ(detmath::tanh(50), 1.0);
  EXPECT_EQ(detmath::log(1), 0.0);
}

TEST(Rng, NormalHasUnitMomentsAndIsReproducible) {
  Rng a(42), b(42);
  double sum = 0, sum2 = 0;
  const int n = 200000;
  for (int i = 0; i < n; i++) {
    const double x = a.normal();
    EXPECT_EQ(x, b.normal());
    sum += x;
    sum2 += x * x;
  }
  EXPECT_NEAR(sum / n, 0, 0.01);
  EXPECT_NEAR(sum2 / n, 1, 0.01);
  EXPECT_NE(Rng::stream(1, 2).next_u64(), Rng::stream(1, 3).next_u64());
}
