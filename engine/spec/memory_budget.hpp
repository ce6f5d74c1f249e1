// The memory budget: how many bytes a whole sweep would hold, checked before it starts (beside the time budget,
// engine/spec/time_budget.hpp), so a width too large for the tab gets a message instead of an out-of-memory crash.
#pragma once
#include "engine/spec/experiment_spec.hpp"

// Estimated bytes of memory the whole sweep needs (parameters, optimizer state, activations, data).
double estimate_memory_bytes(const ExperimentSpec& s);
constexpr double kMemoryBudgetBytes = 1.0e9;  // wasm32 gives at most 2-4 GB; leave room for the page
