// The training worker: runs web/trainer.cpp (muplay-trainer.js/.wasm, the engine alone) for the page
// (web/js/trainer_client.js), which runs one per core but one, each training a shard of the sweep (Runner::train_shard).
// Messages in: start {generation, spec, files, shard, shards}, run, pause, step, fault {member, step},
// parameters {wanted} (the page draws a model: send its parameters as they change), each for one generation (the
// runner it names; an older one's are ignored). Messages out: ready, progress {generation, bytes} after each slice of
// training (engine/run/runner_progress.hpp), failed {generation, message}.
//
// It trains in slices of SLICE_MS, posting between them and reading the page's messages; the slice grows to ten
// times the cost of a post, so models with many parameters (each post carries them) spend at most a tenth on posting.
importScripts('muplay-trainer.js');

const SLICE_MS = 50;
// The next slice is queued as a message to ourselves, not with setTimeout(0): browsers clamp a chain of nested
// timeouts to 4 ms each (HTML's timer nesting rule), which would idle the worker 4 ms between slices. A message
// leaves the worker just as free to read the page's messages in between.
const nextSlice = new MessageChannel();
let trainer = null;
let generation = -1;
let running = false;
let sliceMs = SLICE_MS;
let sliceQueued = false;  // a trainSlice is on its way: never two
const early = [];  // messages that came before the module was ready

function post() {
  const start = performance.now();
  const pointer = trainer._trainer_progress();
  const size = trainer._trainer_progress_size();
  if (size === 0) return 0;
  const bytes = trainer.HEAPU8.slice(pointer, pointer + size);
  postMessage({ type: 'progress', generation, bytes }, [bytes.buffer]);
  return performance.now() - start;
}

function trainSlice() {
  sliceQueued = false;
  if (!running) return;
  const more = trainer._trainer_train(sliceMs) === 1;
  sliceMs = Math.max(SLICE_MS, 10 * post());
  running = running && more;
  if (running) queueSlice();
}

function queueSlice() {
  sliceQueued = true;
  nextSlice.port2.postMessage(null);
}
nextSlice.port1.onmessage = () => guarded(trainSlice);

function start(d) {
  running = false;
  generation = d.generation;
  for (const [path, bytes] of d.files) {
    trainer.FS.mkdirTree(path.slice(0, path.lastIndexOf('/')));
    trainer.FS.writeFile(path, bytes);
  }
  const error = trainer.ccall('trainer_start', 'string', ['string', 'number', 'number'], [d.spec, d.shard, d.shards]);
  if (error) postMessage({ type: 'failed', generation, message: error });
  else post();
}

function handle(d) {
  if (d.type === 'start') return start(d);
  if (d.generation !== generation) return;
  if (d.type === 'run') {
    running = true;
    if (!sliceQueued) queueSlice();
  } else if (d.type === 'pause') {
    running = false;
  } else if (d.type === 'step') {
    running = false;
    trainer._trainer_step();
    post();
  } else if (d.type === 'parameters') {
    trainer._trainer_want_parameters(d.wanted ? 1 : 0);
    post();
  } else if (d.type === 'fault') {
    trainer._trainer_inject_fault(d.member, d.step);
  }
}

function guarded(work, ...args) {
  try {
    work(...args);
  } catch (e) {  // an abort in the engine (out of memory): the module is gone, the page trains on its own thread
    running = false;
    postMessage({ type: 'failed', generation: -1, message: `the training worker stopped: ${e.message}` });
  }
}

onmessage = (e) => (trainer ? guarded(handle, e.data) : early.push(e.data));

createTrainer().then((module) => {
  trainer = module;
  postMessage({ type: 'ready' });
  for (const d of early.splice(0)) guarded(handle, d);
}, (e) => postMessage({ type: 'failed', generation: -1, message: `the training worker could not start: ${e.message}` }));
