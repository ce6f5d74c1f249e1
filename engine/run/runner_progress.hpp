// A Runner's progress as bytes, for a runner that trains elsewhere: the page trains in a Web Worker (its own wasm
// instance) and draws a replica, a Runner built from the same spec that never steps. Each message carries, for every
// member that moved since the last one, its new records, its state and its parameters (so the views that draw a
// model, its neurons or its attention, always see the parameters of the step the curves end at). Applying every
// message in order makes the replica's results() equal the trained runner's, bit for bit.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/run/runner.hpp"

// What the trained side has sent so far, member by member.
struct ProgressCursor {
  std::vector<int> steps_sent;    // steps_done at the last message (-1: never sent)
  std::vector<int> records_sent;  // recorded steps already sent
  std::vector<int> status_sent;   // RunStatus at the last message
  long total_steps_sent = -1;
};

// The progress of `runner` since `cursor` (which it advances); empty when nothing moved.
std::vector<uint8_t> encode_progress(const Runner& runner, ProgressCursor& cursor);
// Applies one message to a replica of the runner that encoded it. Returns "" or why the bytes do not fit the replica
// (another spec, a truncated message), and then changes nothing.
std::string apply_progress(Runner& replica, const uint8_t* bytes, size_t size);
