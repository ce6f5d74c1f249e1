// Fashion-MNIST (Xiao, Rasul & Vollgraf 2017; MIT licence): 28×28 grey images of clothing, 10 classes.
//
// The engine never downloads or decompresses: the build cuts a subset of Debian's dataset-fashion-mnist into
// four truncated IDX files (data/CMakeLists.txt) and the front end passes the folder that holds them (the CLI: the
// build's data folder or $MUPLAY_FASHION_MNIST_DIR; the page: the folder where web/js/data_loader.js puts the files it
// fetches only when a spec needs them, so that pages without Fashion-MNIST start without them).
// A spec names only the task and its sizes, so the same spec runs anywhere the data is.
//
// Inputs are standardized with the full training set's pixel statistics, x = (p/255 − 0.2860) / 0.3530, so a
// coordinate has mean ≈ 0 and variance ≈ 1 like the synthetic tasks' inputs (the input layer's 1/√d init
// then gives h¹ = Θ(1)).
#pragma once
#include <string>

#include "engine/task/task_config.hpp"

constexpr int kFashionMnistPixels = 28 * 28;
constexpr int kFashionMnistClasses = 10;

// A folder holds train-images.idx3, train-labels.idx1, test-images.idx3, test-labels.idx1 ("": none given).
struct FashionMnistFiles {
  int train = 0, test = 0;  // items available (images with labels)
  std::string error;        // why the folder cannot be used; empty when it can
};

// Reads only the headers and sizes of the four files: cheap enough to call on every spec validation.
FashionMnistFiles probe_fashion_mnist(const std::string& dir);

// The first train_size / test_size items of the files in `dir`. False (and `error` says why) if the files are missing, malformed or
// too short.
bool load_fashion_mnist(const std::string& dir, int train_size, int test_size, Dataset& train, Dataset& test,
                        std::string& error);
