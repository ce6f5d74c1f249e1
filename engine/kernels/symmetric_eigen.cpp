#include "engine/kernels/symmetric_eigen.hpp"

#include <algorithm>
#include <cmath>

void jacobi_diagonalize(std::vector<double>& a, int n, std::vector<double>* vectors) {
  auto at = [n](std::vector<double>& m, int r, int c) -> double& { return m[size_t(r) * size_t(n) + size_t(c)]; };
  if (vectors) {
    vectors->assign(size_t(n) * size_t(n), 0.0);
    for (int i = 0; i < n; i++) at(*vectors, i, i) = 1;
  }
  for (int sweep = 0; sweep < 100; sweep++) {
    double off = 0, total = 0;
    for (int r = 0; r < n; r++)
      for (int c = 0; c < n; c++) (r == c ? total : off) += at(a, r, c) * at(a, r, c);
    if (off == 0 || off <= 1e-22 * (total + off)) return;
    for (int p = 0; p < n - 1; p++)
      for (int q = p + 1; q < n; q++) {
        const double apq = at(a, p, q);
        if (apq == 0) continue;
        const double theta = (at(a, q, q) - at(a, p, p)) / (2 * apq);
        const double t = (theta >= 0 ? 1 : -1) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < n; k++) {  // a ← a J (columns p, q)
          const double akp = at(a, k, p), akq = at(a, k, q);
          at(a, k, p) = c * akp - s * akq;
          at(a, k, q) = s * akp + c * akq;
        }
        for (int k = 0; k < n; k++) {  // a ← Jᵀ a (rows p, q)
          const double apk = at(a, p, k), aqk = at(a, q, k);
          at(a, p, k) = c * apk - s * aqk;
          at(a, q, k) = s * apk + c * aqk;
        }
        if (!vectors) continue;
        for (int k = 0; k < n; k++) {  // V ← V J
          const double vkp = at(*vectors, k, p), vkq = at(*vectors, k, q);
          at(*vectors, k, p) = c * vkp - s * vkq;
          at(*vectors, k, q) = s * vkp + c * vkq;
        }
      }
  }
}

std::vector<double> symmetric_eigenvalues(std::vector<double> a, int n) {
  jacobi_diagonalize(a, n, nullptr);
  std::vector<double> out(static_cast<size_t>(n));
  for (int i = 0; i < n; i++) out[size_t(i)] = a[size_t(i) * size_t(n) + size_t(i)];
  std::sort(out.begin(), out.end());
  return out;
}
