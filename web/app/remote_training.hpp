// Training in Web Workers. web/js/trainer_client.js starts workers running the engine alone (web/trainer.cpp in
// web/js/trainer_worker.js), one per core but one; a run's sweep is split between them (Runner::train_shard: worker k
// trains the members that Runner::shard_plan gives to shard k, about equal work each). While a run trains there, the
// app's Runner is a replica that never steps: it applies the progress the workers post
// (engine/run/runner_progress.hpp) between frames, and the views draw it as they would a runner stepped here.
// Training then takes every core but the page's, and the page draws at the display's rate.
//
// The app trains here instead when there is no worker (it failed to start), when members train on WebGPU (the device
// belongs to the page), and in the threaded build with several cores (its pool steps members on all of them).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

class Runner;

struct RemoteTraining {
  int workers = 0;         // ready training workers (0: none started, or they failed: the page trains itself)
  int shards = 1;          // how many train the current run (no more than it has members)
  std::vector<int> shard_of;  // each member's shard (Runner::shard_plan), where Step and a test's fault go
  int last_stepped = -1;   // the member whose shard the last Step went to
  bool active = false;     // the app's runner follows the worker
  int generation = 0;      // counts the runners sent to the worker: progress of an older one is dropped
  bool parameters_wanted = false;  // told to the worker: the page draws a model (see remote_want_parameters)
  std::vector<uint8_t> inbox;  // the last message's bytes, copied in from JS
};

// Sends `runner`'s spec to the worker, which builds its twin (discarding the runner it had). `with_data`: the spec
// reads the page's Fashion-MNIST files, which go with it.
void remote_start(RemoteTraining& remote, const Runner& runner, bool with_data);
// "run" or "pause": the workers train on, or stop after their current slice.
void remote_send(const RemoteTraining& remote, const char* command);
// One step: of the worker that trains the next unfinished member of `replica` after the last one stepped.
void remote_step(RemoteTraining& remote, const Runner& replica);
// Whether the page draws a model this frame (the phenomena, embeddings or anchor tab): the worker then sends the
// parameters as they change; otherwise only with each member's final state. Tells the worker when it changes.
void remote_want_parameters(RemoteTraining& remote, bool wanted);
// The worker's runner throws at `step` of `member` (Runner::inject_fault), for the fault-handling tests.
void remote_inject_fault(const RemoteTraining& remote, int member, int step);
// Copies the pending message's bytes from JS into remote.inbox.
void remote_take_message(RemoteTraining& remote);
