#include "engine/task/phenomena_tasks.hpp"

#include <algorithm>
#include <cmath>

#include "engine/base/detmath.hpp"
#include "engine/base/rng.hpp"

namespace {

constexpr double kFourX[kFourPoints] = {-0.8, -0.3, 0.2, 0.7};
constexpr double kFourY[kFourPoints] = {0.6, 0.2, 0.5, -0.2};

double relu(double x) { return x > 0 ? x : 0; }

// The linear interpolation of the four points, constant beyond the outer two.
double four_points_interpolant(double x) {
  if (x <= kFourX[0]) return kFourY[0];
  for (int i = 1; i < kFourPoints; i++)
    if (x <= kFourX[i]) {
      const double s = (x - kFourX[i - 1]) / (kFourX[i] - kFourX[i - 1]);
      return kFourY[i - 1] + s * (kFourY[i] - kFourY[i - 1]);
    }
  return kFourY[kFourPoints - 1];
}

double clean_target(Target t, double x) {
  switch (t) {
    case Target::sin135: return detmath::sin(x) + detmath::sin(3 * x) + detmath::sin(5 * x);
    case Target::sin15: return detmath::sin(x) + detmath::sin(5 * x);
    case Target::step: return x >= 0 ? 1.0 : -1.0;
    case Target::noisy_sin: return detmath::sin(x);
    case Target::piecewise_relu:
      return -relu(x) + relu(2 * (x + 0.3)) - relu(1.5 * (x - 0.4)) + relu(0.5 * (x - 0.8));
    case Target::four_points: return four_points_interpolant(x);
    default: return 0;
  }
}

Dataset grid(const TaskConfig& c, int size, double offset) {
  double lo = 0, hi = 0;
  function_1d_interval(c.target, lo, hi);
  Dataset d{size, 1, 1, std::vector<double>(size_t(size)), std::vector<double>(size_t(size)), {}};
  for (int i = 0; i < size; i++) {
    d.x[size_t(i)] = lo + (hi - lo) * (i + offset) / size;
    d.y[size_t(i)] = clean_target(c.target, d.x[size_t(i)]);
  }
  return d;
}

}  // namespace

double function_1d_slope(Target t, double x) {
  switch (t) {
    case Target::sin135: return detmath::cos(x) + 3 * detmath::cos(3 * x) + 5 * detmath::cos(5 * x);
    case Target::sin15: return detmath::cos(x) + 5 * detmath::cos(5 * x);
    default: return NAN;  // check_spec allows the gradient loss on the two above only
  }
}

void function_1d_interval(Target t, double& lo, double& hi) {
  const bool unit = t == Target::piecewise_relu || t == Target::four_points;
  lo = unit ? -1.0 : -detmath::kPi;
  hi = unit ? 1.0 : detmath::kPi;
}

Dataset function_1d_train(const TaskConfig& c, Rng& rng) {
  if (c.target == Target::four_points) {
    return Dataset{kFourPoints, 1, 1, std::vector<double>(kFourX, kFourX + kFourPoints),
                   std::vector<double>(kFourY, kFourY + kFourPoints), {}};
  }
  Dataset d = grid(c, c.train_size, 0.0);
  if (c.target == Target::noisy_sin)
    for (double& y : d.y) y += c.noise * rng.normal();
  return d;
}

Dataset function_1d_test(const TaskConfig& c) {
  // four_points: the whole interval [−1, 1] including its ends, to draw the fit
  if (c.target == Target::four_points) {
    Dataset d = grid(c, c.test_size, 0.0);
    for (int i = 0; i < d.size; i++) {
      d.x[size_t(i)] = c.test_size > 1 ? -1.0 + 2.0 * i / (c.test_size - 1) : 0.0;
      d.y[size_t(i)] = four_points_interpolant(d.x[size_t(i)]);
    }
    return d;
  }
  return grid(c, c.test_size, 0.5);
}

void boolean_cube(const TaskConfig& c, Rng& rng, Dataset& train, Dataset& test) {
  const int d = c.input_dim, corners = 1 << d;
  std::vector<int> order(static_cast<size_t>(corners));
  for (int i = 0; i < corners; i++) order[size_t(i)] = i;
  for (int i = corners - 1; i > 0; i--) std::swap(order[size_t(i)], order[rng.below(uint64_t(i) + 1)]);
  auto fill = [&](Dataset& out, int first, int size) {
    out = Dataset{size, d, 1, std::vector<double>(size_t(size) * size_t(d)), std::vector<double>(size_t(size)), {}};
    for (int i = 0; i < size; i++) {
      const int corner = order[size_t(first + i)];
      double* x = &out.x[size_t(i) * size_t(d)];
      double product = 1;
      for (int k = 0; k < d; k++) {
        x[k] = (corner >> k) & 1 ? 1.0 : -1.0;
        product *= x[k];
      }
      out.y[size_t(i)] = c.target == Target::x1x2 ? x[0] * x[1] : product;
    }
  };
  fill(train, 0, c.train_size);
  fill(test, c.train_size, c.test_size);
}

Dataset sum_sin(const TaskConfig& c, Rng& rng, int size) {
  const int d = c.input_dim;
  Dataset out{size, d, 1, std::vector<double>(size_t(size) * size_t(d)), std::vector<double>(size_t(size)), {}};
  for (int i = 0; i < size; i++) {
    double y = 0;
    for (int k = 0; k < d; k++) {
      const double x = -4 + 6 * rng.uniform();
      out.x[size_t(i) * size_t(d) + size_t(k)] = x;
      y += 3.5 * detmath::sin(5 * x + 1);
    }
    out.y[size_t(i)] = y;
  }
  return out;
}

int image_2d_side(const TaskConfig& c) {
  const int side = int(std::lround(std::sqrt(2.0 * c.train_size)));
  return side >= 2 && side % 2 == 0 && side * side == 2 * c.train_size ? side : 0;
}

double image_2d_pixel(double u, double v) {
  double p = 0.3 * u;                                                           // ramp: the lowest frequencies
  if ((u + 0.4) * (u + 0.4) + (v - 0.35) * (v - 0.35) < 0.35 * 0.35) p = 1.0;  // disk
  if (u > 0.15 && u < 0.75 && v > 0.1 && v < 0.7) p = -0.6;                     // square
  if (v < -0.35) p += 0.5 * detmath::sin(14 * u);                               // stripes: the detail
  return p;
}

void image_2d(const TaskConfig& c, Dataset& train, Dataset& test) {
  const int side = image_2d_side(c), half = side / 2;
  for (Dataset* d : {&train, &test}) *d = Dataset{side * half, 2, 1, std::vector<double>(size_t(side * side)),
                                                  std::vector<double>(size_t(side * half)), {}};
  for (int r = 0; r < side; r++)
    for (int col = 0; col < side; col++) {
      Dataset& d = col % 2 == 1 ? train : test;
      const int i = r * half + col / 2;
      const double u = -1 + 2.0 * col / (side - 1), v = 1 - 2.0 * r / (side - 1);  // row 0 at the top
      d.x[size_t(2 * i)] = u;
      d.x[size_t(2 * i + 1)] = v;
      d.y[size_t(i)] = image_2d_pixel(u, v);
    }
}

void center_targets(Dataset& train, Dataset& test) {
  double mean = 0;
  for (double y : train.y) mean += y;
  mean /= double(std::max<size_t>(train.y.size(), 1));
  for (double& y : train.y) y -= mean;
  for (double& y : test.y) y -= mean;
}
