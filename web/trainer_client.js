// The page's side of training in Web Workers (web/remote_training.hpp): starts web/trainer_worker.js once per core
// (at most MAX_WORKERS), each training a shard of the sweep, and carries messages between them and the app. The app
// calls window.muplayTrainer (start, send, wantParameters) and takes each progress message's bytes from
// muplayTrainer.pending; the workers' own state never reaches the page any other way.
//
// Fashion-MNIST, when a spec reads it, lives in the page module's file system (web/data_loader.js): its files go to the
// workers with the spec.
const DATA_DIR = '/data/fashion-mnist';
// Each worker holds a whole copy of the sweep's models (and trains its shard of them): beyond a few, memory grows
// faster than speed.
const MAX_WORKERS = 4;
// Pacing. Where a run's workers take every core and the page is drawn in software (SwiftShader in headless Chromium,
// a browser without a GPU), each frame waits behind training for a core at every hop (page thread, GPU process):
// 15 fps on 2 cores. Workers that rest a few ms after each slice let the frame through at once (README, "Pacing").
// The page's frame rate, measured while progress arrives, sets the rest: it grows under minFps and shrinks over
// maxFps, so a page that keeps over minFps (as one drawn by a GPU should), or a run that leaves a core free, trains
// at full speed. It is kept between runs.
const PACE = { minFps: 24, maxFps: 40, stepMs: 4, maxRestMs: 20, windowMs: 500 };

function dataFiles() {
  const fs = window.Module.FS;
  if (!fs.analyzePath(DATA_DIR).exists) return [];
  return fs.readdir(DATA_DIR).filter((f) => f !== '.' && f !== '..')
    .map((f) => [`${DATA_DIR}/${f}`, fs.readFile(`${DATA_DIR}/${f}`)]);
}

// The workers' next rest after a window in which the page drew `fps` frames a second.
export function nextRestMs(restMs, fps) {
  if (fps < PACE.minFps) return Math.min(restMs + PACE.stepMs, PACE.maxRestMs);
  if (fps > PACE.maxFps) return Math.max(restMs - PACE.stepMs, 0);
  return restMs;
}

// Measures the page's frame rate each PACE.windowMs and sets the workers' rest from it while a run that takes every
// core (takesEveryCore()) sends progress. Returns the state: restMs, and progressed (the app's progress sets it).
function pace(workers, takesEveryCore) {
  const pacing = { restMs: 0, progressed: false };
  let frames = 0, since = performance.now();
  const frame = (now) => {
    frames++;
    if (now - since >= PACE.windowMs) {
      const fps = (frames * 1000) / (now - since), rest = pacing.restMs;
      const wanted = pacing.progressed && takesEveryCore() ? nextRestMs(rest, fps) : rest;
      if (wanted !== rest) {
        pacing.restMs = wanted;
        for (const w of workers) w.postMessage({ type: 'pace', restMs: wanted });
      }
      frames = 0, since = now, pacing.progressed = false;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  return pacing;
}

// Resolves once every worker is ready (true) or one could not start (false): the app then trains on the page's thread.
export function startTrainer(m) {
  const count = Math.max(1, Math.min(navigator.hardwareConcurrency || 1, MAX_WORKERS));
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
  const takesEveryCore = () => shards >= (navigator.hardwareConcurrency || 1);
  const pacing = pace(workers, takesEveryCore);
  // The rest the current run's workers take: none where the run leaves a core to the page.
  const runRestMs = () => (takesEveryCore() ? pacing.restMs : 0);
  window.muplayTrainer = {
    pending: null,
    workers: count,
    runRestMs,
    start(generation, spec, withData, runShards) {
      shards = runShards;
      const files = withData ? dataFiles() : [];
      const restMs = runRestMs();
      for (let k = 0; k < shards; k++) post(k, { type: 'start', generation, spec, files, shard: k, shards, restMs });
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
          pacing.progressed = true;
          window.muplayTrainer.pending = d.bytes;
          m.muplay_trainer_progress(d.generation);
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
