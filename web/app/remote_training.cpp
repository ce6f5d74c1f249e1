#include "web/app/remote_training.hpp"

#include <emscripten.h>

#include <algorithm>

#include "engine/base/json.hpp"
#include "engine/run/runner.hpp"

// window.muplayTrainer is web/js/trainer_client.js's handle on the worker.
EM_JS(void, js_trainer_start, (int generation, const char* spec, int with_data, int shards), {
  muplayTrainer.start(generation, UTF8ToString(spec), with_data !== 0, shards);
});
EM_JS(void, js_trainer_send, (int generation, const char* command, int member, int step, int shard), {
  muplayTrainer.send(generation, UTF8ToString(command), member, step, shard);
});
EM_JS(void, js_trainer_want_parameters, (int generation, int wanted), {
  muplayTrainer.wantParameters(generation, wanted !== 0);
});
EM_JS(int, js_trainer_pending_size, (), { return muplayTrainer.pending ? muplayTrainer.pending.length : 0; });
EM_JS(void, js_trainer_take, (uint8_t* out), {
  HEAPU8.set(muplayTrainer.pending, out);
  muplayTrainer.pending = null;
});

void remote_start(RemoteTraining& remote, const Runner& runner, bool with_data) {
  remote.generation++;
  remote.shards = std::max(1, std::min(remote.workers, int(runner.members().size())));
  remote.shard_of = runner.shard_plan(remote.shards);
  remote.last_stepped = -1;
  js_trainer_start(remote.generation, json::write(spec_to_json(runner.spec())).c_str(), with_data ? 1 : 0,
                   remote.shards);
  js_trainer_want_parameters(remote.generation, remote.parameters_wanted ? 1 : 0);
}

void remote_want_parameters(RemoteTraining& remote, bool wanted) {
  if (wanted == remote.parameters_wanted) return;
  remote.parameters_wanted = wanted;
  if (remote.active) js_trainer_want_parameters(remote.generation, wanted ? 1 : 0);
}

void remote_send(const RemoteTraining& remote, const char* command) {
  js_trainer_send(remote.generation, command, -1, -1, -1);
}

void remote_step(RemoteTraining& remote, const Runner& replica) {
  const int count = int(replica.members().size());
  for (int k = 1; k <= count; k++) {
    const int member = (remote.last_stepped + k) % count;
    if (replica.members()[size_t(member)]->done()) continue;
    remote.last_stepped = member;
    return js_trainer_send(remote.generation, "step", -1, -1, remote.shard_of[size_t(member)]);
  }
}

void remote_inject_fault(const RemoteTraining& remote, int member, int step) {
  js_trainer_send(remote.generation, "fault", member, step, remote.shard_of[size_t(member)]);
}

void remote_take_message(RemoteTraining& remote) {
  remote.inbox.resize(size_t(js_trainer_pending_size()));
  if (!remote.inbox.empty()) js_trainer_take(remote.inbox.data());
}
