// The training half of the page, in Web Workers (web/js/trainer_worker.js runs this module, its own wasm instance, in
// each): a Runner built from the spec the page sends, training its shard of the sweep, stepped in slices, and after each slice the progress since the last
// message (engine/run/runner_progress.hpp), which the page applies to its replica and draws. The engine and its
// compile flags are the page's, so the numbers are the page's and the command line's, bit for bit.
#include <emscripten.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/run/runner_progress.hpp"
#include "web/app/page_limits.hpp"

namespace {

struct Trainer {
  std::unique_ptr<Runner> runner;
  ProgressCursor cursor;
  std::vector<uint8_t> message;
  std::string error;
  bool parameters_wanted = false;  // the page draws a model: send parameters as they change
};

Trainer& trainer() {
  static Trainer t;
  return t;
}

}  // namespace

extern "C" {

// Builds the runner of `spec_text` (the page validated it already), training shard `shard` of `shards` of the sweep
// (Runner::train_shard: the page runs one worker per core but one). Returns "" or why it could not.
EMSCRIPTEN_KEEPALIVE const char* trainer_start(const char* spec_text, int shard, int shards) {
  Trainer& t = trainer();
  t.runner.reset();
  t.cursor = ProgressCursor{};
  SpecResult r = parse_spec_text(spec_text, page_spec_limits());
  t.error.clear();
  for (const std::string& e : r.errors) t.error += (t.error.empty() ? "" : "; ") + e;
  if (!r.ok()) return t.error.c_str();
  t.runner = std::make_unique<Runner>(r.spec, kPageFashionMnistDir);
  t.runner->train_shard(shard, shards);
  return t.error.c_str();
}

// Steps for about `ms` milliseconds (whole steps, at least one). Returns 1 while a member is unfinished.
EMSCRIPTEN_KEEPALIVE int trainer_train(double ms) {
  Runner* runner = trainer().runner.get();
  if (!runner) return 0;
  const double start = emscripten_get_now();
  bool more = true;
  do more = runner->step(); while (more && emscripten_get_now() - start < ms);
  return more ? 1 : 0;
}

// One step of the next unfinished member of this shard (the page's Step button).
EMSCRIPTEN_KEEPALIVE void trainer_step() {
  if (Runner* runner = trainer().runner.get()) runner->step();
}

// Whether the page draws a model now (its parameters then come with every message; else only with a final state).
EMSCRIPTEN_KEEPALIVE void trainer_want_parameters(int wanted) { trainer().parameters_wanted = wanted != 0; }

// For the tests of the fault handling (Runner::inject_fault).
EMSCRIPTEN_KEEPALIVE void trainer_inject_fault(int member, int step) {
  if (Runner* runner = trainer().runner.get()) runner->inject_fault(member, step, "injected fault (browser test)");
}

// The progress since the last call, as bytes (trainer_progress_size of them; 0 when nothing moved).
EMSCRIPTEN_KEEPALIVE const uint8_t* trainer_progress() {
  Trainer& t = trainer();
  t.message = t.runner ? encode_progress(*t.runner, t.cursor, t.parameters_wanted) : std::vector<uint8_t>{};
  return t.message.data();
}
EMSCRIPTEN_KEEPALIVE double trainer_progress_size() { return double(trainer().message.size()); }

}  // extern "C"
