#include "engine/task/task.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine/base/detmath.hpp"
#include "engine/base/rng.hpp"
#include "engine/task/fashion_mnist.hpp"
#include "engine/task/phenomena_tasks.hpp"
#include "engine/task/table_task.hpp"

namespace {

void random_unit_vector(Rng& rng, double* v, int d) {
  double norm2 = 0;
  for (int i = 0; i < d; i++) {
    v[i] = rng.normal();
    norm2 += v[i] * v[i];
  }
  const double norm = std::sqrt(norm2);
  for (int i = 0; i < d; i++) v[i] /= norm;
}

Dataset sin_regression(const TaskConfig& c, const std::vector<double>& v, Rng& rng, int size) {
  Dataset d{size, c.input_dim, 1, std::vector<double>(size_t(size) * size_t(c.input_dim)),
            std::vector<double>(size_t(size)), {}};
  for (int i = 0; i < size; i++) {
    double* x = &d.x[size_t(i) * size_t(c.input_dim)];
    random_unit_vector(rng, x, c.input_dim);
    double dot = 0;
    for (int k = 0; k < c.input_dim; k++) dot += x[k] * v[size_t(k)];
    d.y[size_t(i)] = detmath::sin(c.frequency * dot);
  }
  return d;
}

Dataset sectors(const TaskConfig& c, Rng& rng, int size) {
  Dataset d{size, 2, 1, std::vector<double>(size_t(size) * 2), {}, std::vector<int>(size_t(size))};
  for (int i = 0; i < size; i++) {
    const double radius = 0.1 + 0.9 * std::sqrt(rng.uniform());  // uniform in area
    const double angle = 2 * detmath::kPi * rng.uniform();
    d.x[size_t(2 * i)] = radius * detmath::cos(angle);
    d.x[size_t(2 * i + 1)] = radius * detmath::sin(angle);
    const double turned = angle + c.twist * radius;
    const double sector = std::floor(turned / (2 * detmath::kPi) * c.classes);
    d.labels[size_t(i)] = int(((long(sector) % c.classes) + c.classes) % c.classes);
  }
  return d;
}

Dataset skipgram(const TaskConfig& c, Rng& rng, int pairs) {
  const int words = c.input_dim, half = words / 2;
  Dataset d{words, words, words, std::vector<double>(size_t(words) * size_t(words), 0.0),
            std::vector<double>(size_t(words) * size_t(words), 0.0), {}};
  std::vector<int> count(static_cast<size_t>(words), 0);
  auto uniform_index = [&](int n) { return std::min(n - 1, int(rng.uniform() * n)); };
  for (int i = 0; i < pairs; i++) {
    const int word = uniform_index(words);
    const bool same = rng.uniform() < kSkipgramSameCluster;
    const int cluster = skipgram_cluster(word, words) == 0 ? (same ? 0 : 1) : (same ? 1 : 0);
    d.y[size_t(word) * size_t(words) + size_t(cluster * half + uniform_index(half))] += 1;
    count[size_t(word)]++;
  }
  for (int w = 0; w < words; w++) {
    d.x[size_t(w) * size_t(words) + size_t(w)] = 1;
    for (int k = 0; k < words; k++)
      if (count[size_t(w)] > 0) d.y[size_t(w) * size_t(words) + size_t(k)] /= count[size_t(w)];
  }
  return d;
}

}  // namespace

int train_rows(const TaskConfig& c) { return c.kind == TaskKind::skipgram ? c.input_dim : c.train_size; }
int test_rows(const TaskConfig& c) { return c.kind == TaskKind::skipgram ? c.input_dim : c.test_size; }

bool task_is_classification(const TaskConfig& c) {
  return c.kind == TaskKind::sectors || c.kind == TaskKind::fashion_mnist ||
         (c.kind == TaskKind::table && c.table.type == TableType::classification);
}

int task_outputs(const TaskConfig& c) {
  switch (c.kind) {
    case TaskKind::sin_regression: return 1;
    case TaskKind::sectors: return c.classes;
    case TaskKind::fashion_mnist: return kFashionMnistClasses;
    case TaskKind::skipgram: return c.input_dim;
    case TaskKind::anchor: return c.anchor.vocab;
    case TaskKind::table: return table_outputs(c);
    default: return 1;
  }
}

AnchorTaskConfig anchor_task_config(const TaskConfig& c) {
  AnchorTaskConfig a = c.anchor;
  a.train_size = c.train_size;
  a.test_size = c.test_size;
  a.seed = c.seed;
  return a;
}

TaskData make_task(const TaskConfig& c, const std::string& fashion_mnist_dir) {
  Rng rng = Rng::stream(c.seed, /*purpose=*/1);
  TaskData t;
  if (c.kind == TaskKind::anchor) {
    t.classification = true;
    t.outputs = c.anchor.vocab;
    t.anchor = make_anchor_task(anchor_task_config(c));
  } else if (c.kind == TaskKind::fashion_mnist) {
    t.classification = true;
    t.outputs = kFashionMnistClasses;
    std::string error;
    if (!load_fashion_mnist(fashion_mnist_dir, c.train_size, c.test_size, t.train, t.test, error))
      throw std::runtime_error(error);
  } else if (c.kind == TaskKind::table) {
    t.classification = task_is_classification(c);
    t.outputs = table_outputs(c);
    table_sets(c, t.train, t.test);
  } else if (c.kind == TaskKind::function_1d) {
    t.train = function_1d_train(c, rng);
    t.test = function_1d_test(c);
  } else if (c.kind == TaskKind::boolean_cube) {
    boolean_cube(c, rng, t.train, t.test);
  } else if (c.kind == TaskKind::image_2d) {
    image_2d(c, t.train, t.test);
  } else if (c.kind == TaskKind::sum_sin) {
    t.train = sum_sin(c, rng, c.train_size);
    t.test = sum_sin(c, rng, c.test_size);
  } else if (c.kind == TaskKind::sin_regression) {
    std::vector<double> v(size_t(c.input_dim));
    random_unit_vector(rng, v.data(), c.input_dim);
    t.train = sin_regression(c, v, rng, c.train_size);
    t.test = sin_regression(c, v, rng, c.test_size);
  } else if (c.kind == TaskKind::skipgram) {
    t.outputs = c.input_dim;
    t.train = skipgram(c, rng, c.train_size);
    t.test = skipgram(c, rng, c.test_size);
  } else {
    t.classification = true;
    t.outputs = c.classes;
    t.train = sectors(c, rng, c.train_size);
    t.test = sectors(c, rng, c.test_size);
  }
  if (c.center_target && !t.classification) center_targets(t.train, t.test);
  return t;
}

void append_constant_input(Dataset& d) {
  std::vector<double> x(size_t(d.size) * size_t(d.input_dim + 1));
  for (int i = 0; i < d.size; i++) {
    for (int k = 0; k < d.input_dim; k++) x[size_t(i * (d.input_dim + 1) + k)] = d.x[size_t(i * d.input_dim + k)];
    x[size_t(i * (d.input_dim + 1) + d.input_dim)] = 1.0;
  }
  d.x = std::move(x);
  d.input_dim += 1;
}
