// The page's side of training in Web Workers (web/app/remote_training.hpp): starts web/js/trainer_worker.js once per core but
// one (workerCount), each training a shard of the sweep, and carries messages between them and the app. The app
// calls window.muplayTrainer (start, send, wantParameters) and takes each progress message's bytes from
// muplayTrainer.pending; the workers' own state never reaches the page any other way.
//
// Fashion-MNIST (web/js/data_loader.js) and the data sets a user brings (web/js/tables.js) live in the page module's
// file system: when a spec reads data, these folders' files go to the workers with it.
const DATA_DIRS = ['/data/fashion-mnist', '/data/tables'];
// Each worker holds a whole copy of the sweep's models (and trains its shard of them): beyond a few, memory grows
// faster than speed.
const MAX_WORKERS = 4;

// One worker per core but one, which is the page's: where the workers took every core and the page was drawn in
// software (SwiftShader in headless Chromium, a browser without a GPU), each frame waited behind training at every
// hop (the page's thread, then the GPU process's). Workers that rested to let frames through still left the page
// under 20 fps for seconds and took much of the second worker's gain. A one-core machine still gets its one worker.
export function workerCount(cores) {
  return Math.max(1, Math.min(cores - 1, MAX_WORKERS));
}

function dataFiles() {
  const fs = window.Module.FS;
  return DATA_DIRS.filter((dir) => fs.analyzePath(dir).exists).flatMap((dir) => fs.readdir(dir)
    .filter((f) => f !== '.' && f !== '..').map((f) => [`${dir}/${f}`, fs.readFile(`${dir}/${f}`)]));
}

// Resolves once every worker is ready (true) or one could not start (false): the app then trains on the page's thread.
// `applied()` is called after each progress message the app took on (the run may have finished): messages arrive
// whether or not the page is drawn, animation frames do not.
export function startTrainer(m, applied = () => {}) {
  const count = workerCount(navigator.hardwareConcurrency || 1);
  const workers = [];
  try {
    for (let k = 0; k < count; k++) workers.push(new Worker('trainer_worker.js'));
  } catch (e) {
    for (const w of workers) w.terminate();
    console.warn(`No training worker (${e.message}): training runs on the page's thread.`);
    return Promise.resolve(false);
  }
  let shards = 1;  // the workers the current run uses
  const post = (k, message) => workers[k].postMessage(message);
  window.muplayTrainer = {
    pending: null,
    workers: count,
    start(generation, spec, withData, runShards) {
      shards = runShards;
      const files = withData ? dataFiles() : [];
      for (let k = 0; k < shards; k++) post(k, { type: 'start', generation, spec, files, shard: k, shards });
    },
    // To shard `shard`, or to every shard of the run (-1).
    send(generation, command, member, step, shard) {
      for (let k = 0; k < shards; k++) if (shard < 0 || shard === k) post(k, { type: command, generation, member, step });
    },
    wantParameters(generation, wanted) {
      for (let k = 0; k < shards; k++) post(k, { type: 'parameters', generation, wanted });
    },
  };
  return new Promise((resolve) => {
    let ready = 0, failed = false;
    const fail = (generation, why) => {
      if (failed) return;
      failed = true;
      for (const w of workers) w.terminate();
      m.muplay_trainer_failed(generation, why);
      resolve(false);
    };
    for (const worker of workers) {
      worker.onmessage = (e) => {
        const d = e.data;
        if (failed) return;
        if (d.type === 'ready' && ++ready === count) {
          m.muplay_trainer_ready(count);
          resolve(true);
        } else if (d.type === 'progress') {
          window.muplayTrainer.pending = d.bytes;
          m.muplay_trainer_progress(d.generation);
          applied();
        } else if (d.type === 'failed') {
          fail(d.generation, d.message);
        }
      };
      worker.onerror = (e) => {
        e.preventDefault();
        fail(-1, `the training worker failed: ${e.message || 'it could not load'}`);
      };
    }
  });
}
