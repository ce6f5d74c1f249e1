// What the page checks a spec against (SpecLimits, engine/spec/spec.hpp): its time budget and its data folder.
#pragma once
#include "engine/spec/spec.hpp"
#include "engine/spec/time_budget.hpp"

// An hour, at the wasm engine's throughput (a few GFLOP/s of CPU time: scripts/bench) times the part of each frame
// that training gets (10 ms of 16.7 on a desktop, about a third where drawing is slow): 1 GFLOP/s.
constexpr TimeBudget kBrowserTimeBudget{1.0e9, 3600.0, "in the browser", 2.0, 1.3};

// Where web/js/data_loader.js puts the Fashion-MNIST files it fetches, in the module's file system.
constexpr const char* kPageFashionMnistDir = "/data/fashion-mnist";
// Where web/js/tables.js puts the data sets a user brings (task.kind "table"), by their file names.
constexpr const char* kPageTableDir = "/data/tables";

// The page's limits. The Fashion-MNIST subset is fetched only when a spec needs it (web/js/data_loader.js); its sizes are
// known from the build, so specs validate before it arrives (web/CMakeLists.txt defines them when the build has the
// data to serve).
inline SpecLimits page_spec_limits() {
  SpecLimits limits;
  limits.budget = kBrowserTimeBudget;
  limits.fashion_mnist_dir = kPageFashionMnistDir;
  limits.table_dir = kPageTableDir;
#ifdef MUPLAY_FASHION_MNIST_TRAIN
  limits.fashion_mnist_train = MUPLAY_FASHION_MNIST_TRAIN;
  limits.fashion_mnist_test = MUPLAY_FASHION_MNIST_TEST;
#endif
  return limits;
}
