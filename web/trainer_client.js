// The page's side of training in a Web Worker (web/remote_training.hpp): starts web/trainer_worker.js and carries
// messages between it and the app. The app calls window.muplayTrainer (start, send) and takes each progress message's
// bytes from muplayTrainer.pending; the worker's own state never reaches the page any other way.
//
// Fashion-MNIST, when a spec reads it, lives in the page module's file system (web/data_loader.js): its files go to the
// worker with the spec.
const DATA_DIR = '/data/fashion-mnist';

function dataFiles() {
  const fs = window.Module.FS;
  if (!fs.analyzePath(DATA_DIR).exists) return [];
  return fs.readdir(DATA_DIR).filter((f) => f !== '.' && f !== '..')
    .map((f) => [`${DATA_DIR}/${f}`, fs.readFile(`${DATA_DIR}/${f}`)]);
}

// Resolves once the worker is ready (true) or could not start (false): the app then trains on the page's thread.
export function startTrainer(m) {
  let worker;
  try {
    worker = new Worker('trainer_worker.js');
  } catch (e) {
    console.warn(`No training worker (${e.message}): training runs on the page's thread.`);
    return Promise.resolve(false);
  }
  window.muplayTrainer = {
    pending: null,
    start(generation, spec, withData) {
      worker.postMessage({ type: 'start', generation, spec, files: withData ? dataFiles() : [] });
    },
    send(generation, command, member, step) {
      worker.postMessage({ type: command, generation, member, step });
    },
    wantParameters(generation, wanted) {
      worker.postMessage({ type: 'parameters', generation, wanted });
    },
  };
  return new Promise((resolve) => {
    worker.onmessage = (e) => {
      const d = e.data;
      if (d.type === 'ready') {
        m.muplay_trainer_ready();
        resolve(true);
      } else if (d.type === 'progress') {
        window.muplayTrainer.pending = d.bytes;
        m.muplay_trainer_progress(d.generation);
      } else if (d.type === 'failed') {
        m.muplay_trainer_failed(d.generation, d.message);
        resolve(false);
      }
    };
    worker.onerror = (e) => {
      e.preventDefault();
      m.muplay_trainer_failed(-1, `the training worker failed: ${e.message || 'it could not load'}`);
      resolve(false);
    };
  });
}
