// Deterministic elementary functions.
//
// Why: the C libraries differ (glibc natively, musl in emscripten), and their exp/log/sin/tanh may differ
// in the last bit. We promise bit-identical training natively and in wasm, so every transcendental the
// engine uses comes from here: plain double arithmetic in a fixed order (built with -ffp-contract=off).
// Accuracy is about 1 ulp, far below anything training can see. Only sqrt (exactly rounded by IEEE 754)
// and ldexp/frexp (exact) come from the standard library.
#pragma once
#include <cmath>
#include <limits>

namespace detmath {

constexpr double kLn2Hi = 6.93147180369123816490e-01;  // ln 2 split so k*kLn2Hi is exact
constexpr double kLn2Lo = 1.90821492927058770002e-10;
constexpr double kInvLn2 = 1.44269504088896338700e+00;
constexpr double kPi = 3.14159265358979311600e+00;

// Round half away from zero, the same everywhere (no dependence on the FPU rounding mode).
inline double round_int(double x) { return x >= 0 ? std::floor(x + 0.5) : -std::floor(-x + 0.5); }

inline double exp(double x) {
  if (x != x) return x;
  if (x > 709.78) return std::numeric_limits<double>::infinity();
  if (x < -745.2) return 0.0;
  double k = round_int(x * kInvLn2);
  double r = (x - k * kLn2Hi) - k * kLn2Lo;  // |r| <= 0.35
  // Taylor series to degree 14: truncation error < 1e-18 on |r| <= 0.35.
  double p = 1.0 / 87178291200.0;
  const double inv_fact[] = {1.0 / 6227020800.0, 1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0,
                             1.0 / 362880.0,     1.0 / 40320.0,     1.0 / 5040.0,       1.0 / 720.0,
                             1.0 / 120.0,        1.0 / 24.0,        1.0 / 6.0,          0.5,
                             1.0,                1.0};
  for (double c : inv_fact) p = p * r + c;
  return std::ldexp(p, int(k));
}

// exp(x) - 1 without cancellation near 0.
inline double expm1(double x) {
  if (x > -0.35 && x < 0.35) {
    double p = 1.0 / 87178291200.0;
    const double inv_fact[] = {1.0 / 6227020800.0, 1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0,
                               1.0 / 362880.0,     1.0 / 40320.0,     1.0 / 5040.0,       1.0 / 720.0,
                               1.0 / 120.0,        1.0 / 24.0,        1.0 / 6.0,          0.5,
                               1.0};
    for (double c : inv_fact) p = p * x + c;
    return p * x;
  }
  return exp(x) - 1.0;
}

inline double log(double x) {
  if (x != x || x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return -std::numeric_limits<double>::infinity();
  if (x == std::numeric_limits<double>::infinity()) return x;
  int e;
  double m = std::frexp(x, &e);  // x = m * 2^e, m in [0.5, 1)
  if (m < 0.70710678118654752440) { m *= 2; e -= 1; }
  // log m = 2 atanh(s), s = (m-1)/(m+1), |s| <= 0.172: series to s^23 is below 1e-19.
  double s = (m - 1.0) / (m + 1.0), s2 = s * s;
  double p = 1.0 / 23;
  for (int k = 21; k >= 1; k -= 2) p = p * s2 + 1.0 / k;
  double log_m = 2.0 * s * p;
  return double(e) * kLn2Hi + (log_m + double(e) * kLn2Lo);
}

namespace detail {
// sin and cos on |r| <= pi/4 by Taylor series to degree 19/18 (error < 1e-19).
inline double sin_kernel(double r) {
  double r2 = r * r, p = -1.0 / 121645100408832000.0;
  const double c[] = {1.0 / 355687428096000.0, -1.0 / 1307674368000.0, 1.0 / 6227020800.0,
                      -1.0 / 39916800.0,       1.0 / 362880.0,         -1.0 / 5040.0,
                      1.0 / 120.0,             -1.0 / 6.0,             1.0};
  for (double k : c) p = p * r2 + k;
  return p * r;
}
inline double cos_kernel(double r) {
  double r2 = r * r, p = -1.0 / 6402373705728000.0;
  const double c[] = {1.0 / 20922789888000.0, -1.0 / 87178291200.0, 1.0 / 479001600.0,
                      -1.0 / 3628800.0,       1.0 / 40320.0,        -1.0 / 720.0,
                      1.0 / 24.0,             -0.5,                 1.0};
  for (double k : c) p = p * r2 + k;
  return p;
}
// x = k*pi/2 + r with a three-part Cody-Waite reduction (exact products for |k| < 2^20).
inline double reduce_half_pi(double x, long& k) {
  const double kTwoOverPi = 6.36619772367581382433e-01;
  const double p1 = 1.57079632673412561417e+00, p2 = 6.07710050630396597660e-11,
               p3 = 2.02226624871116645580e-21;
  double q = round_int(x * kTwoOverPi);
  k = long(q);
  return ((x - q * p1) - q * p2) - q * p3;
}
}  // namespace detail

inline double sin(double x) {
  if (!std::isfinite(x)) return std::numeric_limits<double>::quiet_NaN();
  long k;
  double r = detail::reduce_half_pi(x, k);
  switch (k & 3) {
    case 0: return detail::sin_kernel(r);
    case 1: return detail::cos_kernel(r);
    case 2: return -detail::sin_kernel(r);
    default: return -detail::cos_kernel(r);
  }
}

inline double cos(double x) {
  if (!std::isfinite(x)) return std::numeric_limits<double>::quiet_NaN();
  long k;
  double r = detail::reduce_half_pi(x, k);
  switch (k & 3) {
    case 0: return detail::cos_kernel(r);
    case 1: return -detail::sin_kernel(r);
    case 2: return -detail::cos_kernel(r);
    default: return detail::sin_kernel(r);
  }
}

inline double tanh(double x) {
  if (x != x) return x;
  if (x > 20) return 1.0;
  if (x < -20) return -1.0;
  double e = expm1(2 * x);
  return e / (e + 2.0);
}

inline double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

namespace detail {
// atan t for 0 ≤ t ≤ 1: atan t = π/4 + atan((t−1)/(t+1)) brings t below tan(π/8), the half-angle step
// atan u = 2 atan(u / (1 + √(1 + u²))) below 0.2, where 14 terms of u − u³/3 + u⁵/5 − … are below 1e-20.
inline double atan_unit(double t) {
  constexpr double kTanPiOver8 = 0.41421356237309503;
  double base = 0, u = t;
  if (t > kTanPiOver8) base = kPi / 4, u = (t - 1) / (t + 1);
  u = u / (1 + std::sqrt(1 + u * u));
  const double u2 = u * u;
  double sum = 0;
  for (int k = 13; k >= 0; k--) sum = 1.0 / (2 * k + 1) - u2 * sum;
  return base + 2 * u * sum;
}
}  // namespace detail

// The angle of (x, y) in (−π, π], as std::atan2 (atan2(0, 0) = 0).
inline double atan2(double y, double x) {
  if (y != y || x != x) return std::numeric_limits<double>::quiet_NaN();
  const double ay = std::fabs(y), ax = std::fabs(x);
  if (ay == 0 && ax == 0) return std::signbit(x) ? (std::signbit(y) ? -kPi : kPi) : y;
  double a = ay <= ax ? detail::atan_unit(ay / ax) : kPi / 2 - detail::atan_unit(ax / ay);
  if (std::signbit(x)) a = kPi - a;
  return std::signbit(y) ? -a : a;
}

}  // namespace detmath
