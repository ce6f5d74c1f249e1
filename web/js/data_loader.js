// Data fetched on demand: the page's Fashion-MNIST subset (2 MB) lives beside the app in data/fashion-mnist/ (staged by
// scripts/build) instead of inside the .wasm, so a page or embed that never uses it starts without it. When the
// editor's spec needs it, the app says so (muplay_data_wanted); this module fetches the four files, puts them into the
// module's file system at /data/fashion-mnist/ and tells the app (muplay_data_arrived), which then builds the runs.
// A failed fetch is reported with its reason; the spec stays in the editor, and Run (or Reset) tries again.
import { tr } from './language.js';

const FILES = {
  'fashion-mnist': ['train-images.idx3', 'train-labels.idx1', 'test-images.idx3', 'test-labels.idx1'],
};

async function fetchAll(name) {
  const files = [];
  for (const file of FILES[name]) {
    const url = `data/${name}/${file}`;
    let response;
    try {
      response = await fetch(url);
    } catch (e) {
      throw new Error(`${url}: ${e.message}`);
    }
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${response.statusText}`.trim());
    files.push([file, new Uint8Array(await response.arrayBuffer())]);
  }
  return files;
}

export function startDataLoader(m, ui) {
  const bar = document.getElementById('bar-status');
  let loading = '';
  const load = async (name) => {
    loading = name;
    bar.textContent = tr('Loading data ({name})…', { name });
    try {
      const files = await fetchAll(name);  // all four, or none: the app never sees half a data set
      window.Module.FS.mkdirTree(`/data/${name}`);
      for (const [file, bytes] of files) window.Module.FS.writeFile(`/data/${name}/${file}`, bytes);
      m.muplay_data_arrived('');
      bar.textContent = '';
      const size = (files.reduce((n, [, b]) => n + b.length, 0) / 1e6).toFixed(1);
      ui.status(tr('Data loaded ({name}, {size} MB).', { name, size }));
    } catch (e) {
      bar.textContent = '';
      const why = tr('Could not load the {name} data: {why}', { name, why: e.message });
      m.muplay_data_arrived(why);
      ui.notice(tr('{why}. Your spec is kept; Run tries again.', { why }));
    } finally {
      loading = '';
    }
  };
  const poll = () => {
    const wanted = m.muplay_data_wanted();
    if (wanted && !loading && FILES[wanted]) load(wanted);
    requestAnimationFrame(poll);
  };
  poll();
}
