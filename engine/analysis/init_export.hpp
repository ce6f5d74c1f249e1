// The starting point of every sweep member as one JSON document (schema "muplay-init"), so another
// implementation (tests/crosscheck/crosscheck.py, PyTorch) can train the very same network and compare.
//
// What it holds: the full spec; the train and test sets (after input_bias, i.e. exactly what the engine trains on);
// per member its dims, activation and, per weight matrix, the trained parameter w at init (row-major
// fan_out × fan_in, like nn.Linear) with its forward multiplier n^-a, init std and learning-rate multiplier n^-c;
// with model.biases, "biases": per layer b_l at init (zeros), its multiplier, learning-rate multiplier and decay false.
// Numbers are written so they read back bit-identical (json::write), so nothing is lost on the way.
#pragma once
#include "engine/base/json.hpp"
#include "engine/run/runner.hpp"

constexpr int kInitExportVersion = 1;

// The runner must not have stepped yet (its models are at init).
json::Value init_document(const Runner& runner);
