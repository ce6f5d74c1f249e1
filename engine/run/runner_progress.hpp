// A Runner's progress as bytes, for a runner that trains elsewhere: the page trains in a Web Worker (its own wasm
// instance) and draws a replica, a Runner built from the same spec that never steps. Each message carries, for every
// member that moved since the last one, its new records and its state. Parameters, which can be megabytes, go only
// where asked for (the page draws a model: its neurons, its attention) and with a member's final state: a finished
// replica always holds its twin's final parameters. Applying every message in order makes the replica's results()
// equal the trained runner's, bit for bit; so does applying the messages of several runners that train one shard of
// the sweep each (Runner::train_shard), in any interleaving.
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
  std::vector<int> params_sent;   // steps_done when the parameters were last sent (-1: never)
};

// The progress of `runner` since `cursor` (which it advances); empty when nothing moved. With `with_parameters`, every
// member whose parameters changed since they were last sent sends them.
std::vector<uint8_t> encode_progress(const Runner& runner, ProgressCursor& cursor, bool with_parameters);
// Applies one message to a replica of the runner that encoded it. Returns "" or why the bytes do not fit the replica
// (another spec, a truncated message), and then changes nothing.
std::string apply_progress(Runner& replica, const uint8_t* bytes, size_t size);
