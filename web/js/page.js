// The page's HTML side, started by index.html once the wasm app is ready: which experiment opens first, the
// toolbar, the address bar, files, browser storage and, in an embed, the host page's API.
// The app (C++, through the window.muplay hook) holds every bit of experiment state; this module follows it by
// polling two cheap values each frame (the spec's revision and the run state) and never keeps a copy of its own.
//
// URL parameters: lang=en|zh (the page's language: web/js/language.js), embed=1 (compact, for an <iframe>), panels=controls,plot,... (web/app/view.hpp), autoplay=1,
// preset=FILE_STEM (open examples/FILE_STEM.json), view=TAB;KEY=VALUE;... (the view to open on, over the one the
// experiment names: web/app/view_text.hpp), scale=2 (draw at twice the resolution, for a slide that scales the frame
// up), metric=NAME (short for view=step;metric=NAME), origin=https://host (the only
// page allowed to drive an embed); the fragment #s=... is a share link (engine/spec/link.hpp).
import { startAudioTrace } from './audio_trace.js';
import { startDataLoader } from './data_loader.js';
import { startEmbedApi } from './embed_api.js';
import { startFigureText } from './figure_text.js';
import { startFiles } from './files.js';
import { startGuestKeys } from './guest_keys.js';
import { startImports } from './imports.js';
import { initialLanguage, setLanguage, startLanguageMenu, tr } from './language.js';
import { startMenus } from './menus.js';
import { startNarrow } from './narrow.js';
import { startPresenting } from './present.js';
import { startSavedRuns } from './saved_runs.js';
import { startSemantics } from './semantics.js';
import { startShare } from './share.js';
import { fetchTable, restoreTables, startTableRequests, takeLinkData } from './tables.js';
import { describeStorageError, openStorage } from './storage.js';
import { startTouch } from './touch.js';
import { startTrainer } from './trainer_client.js';
import { openGpu } from './webgpu_backend.js';

const $ = (id) => document.getElementById(id);

function pageOptions(search) {
  const p = new URLSearchParams(search);
  return {
    embed: p.get('embed') === '1',
    panels: p.get('panels') ?? '',
    autoplay: p.get('autoplay') === '1',
    scale: Number(p.get('scale') ?? 1),
    preset: p.get('preset'),
    view: p.get('view') ?? (p.get('metric') !== null ? `step;metric=${p.get('metric')}` : null),
    origin: p.get('origin'),
    present: p.get('present') === '1',
    data: p.get('data'),
  };
}

// Messages for the user: `notice` for problems (a dismissible alert), `status` for short confirmations.
function makeUi() {
  let statusTimer = 0;
  return {
    notice(text) {
      $('notice-text').textContent = text;
      $('notice').hidden = false;
    },
    status(text) {
      $('bar-status').textContent = text;
      clearTimeout(statusTimer);
      statusTimer = setTimeout(() => { $('bar-status').textContent = ''; }, 6000);
    },
  };
}

// The first experiment: a share link in the fragment; else a preset named in the URL; else the draft this browser
// kept from last time; else the app's default (already loaded). The draft also wins over the fragment when it was
// saved with that same fragment, or with that one as the link the address bar showed before (see addressBar in
// main): a reload then keeps edits made after the address bar's last (valid) link.
async function openFirstExperiment(m, options, storage, ui) {
  const fragment = location.hash.slice(1);
  const draft = storage ? await storage.loadDraft().catch((e) => {
    ui.notice(tr('Could not read your saved edits: {why}.', { why: describeStorageError(e) }));
    return null;
  }) : null;
  if (draft && (fragment === '' ? !options.preset : draft.fragment === fragment || draft.previous === fragment)) {
    m.muplay_load_spec(draft.text);
  } else if (fragment) {
    m.muplay_open_link(await takeLinkData(fragment, ui.notice));
    // Why it did not open, or that it opened but was made by an engine of another result version. (A data file it
    // lacks is asked for by its own dialog: web/js/tables.js.)
    const { message } = JSON.parse(m.muplay_get_errors());
    if (message && !m.muplay_table_wanted()) ui.notice(message);
  } else if (options.preset) {
    const index = m.muplay_find_preset(options.preset);
    if (index < 0 || !m.muplay_load_preset(index)) {
      ui.notice(tr('There is no valid preset "{preset}" in this build; showing the default experiment.',
                   { preset: options.preset }));
    }
  }
}

// Follows the app: `onEdit()` in the frame after each change of the editor's spec or of the view shown, `onSettled()`
// once it has not changed for `ms`, and `onState(state, previous)` on each change of the run state, `onProgress()` on
// every look at it. Returns the function that looks at the run state: call it wherever the state may have changed (a training
// worker's message), since animation frames stop where the page is not seen (an embed out of view, on a hidden
// slide, a hidden tab) while training goes on.
function follow(m, { onEdit, onSettled, onState, onProgress }, ms = 300) {
  let revision = '', state = '', timer = 0;
  const lookAtState = () => {
    const s = m.muplay_state();
    if (s !== state) {
      const previous = state;
      state = s;
      onState(s, previous);
    }
    onProgress();
  };
  const tick = () => {
    const r = `${m.muplay_spec_revision()} ${m.muplay_view_revision()}`;  // the view travels in the link too
    if (r !== revision) {
      revision = r;
      onEdit();
      clearTimeout(timer);
      timer = setTimeout(onSettled, ms);
    }
    lookAtState();
    requestAnimationFrame(tick);
  };
  tick();
  return lookAtState;
}

// Where no animation frame comes (the page unseen), a timer keeps the run going and its events flowing: the app
// trains a slice when no frame has started for UNSEEN_MS (it trains in its frames when no worker trains for it), and
// the run state is looked at. Timers of unseen pages are slowed by browsers, so a slice takes half the time since the
// last one, within [10, 250] ms.
const UNSEEN_MS = 500;
function keepGoingUnseen(m, lookAtState) {
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    m.muplay_advance_unseen(UNSEEN_MS, Math.min(250, Math.max(10, (now - last) / 2)));
    last = now;
    lookAtState();
  }, 200);
}

function wireToolbar(m) {
  $('run').addEventListener('click', () => (m.muplay_state() === 'running' ? m.muplay_pause() : m.muplay_run()));
  $('step').addEventListener('click', () => m.muplay_step());
  $('reset').addEventListener('click', () => m.muplay_reset());
  $('open-help').addEventListener('click', () => $('help-dialog').showModal());
  $('notice-close').addEventListener('click', () => { $('notice').hidden = true; });
  for (const b of document.querySelectorAll('#bar button:disabled')) b.disabled = false;
}

async function storageOrNull(ui) {
  try {
    return await openStorage();
  } catch (e) {
    ui.notice(tr('Browser storage is not available ({why}). The page works, but your edits and runs will not be kept after a reload: use Export to keep files.',
                 { why: describeStorageError(e) }));
    return null;
  }
}

// Opens WebGPU beside the app (it may take a while) and tells the app what it found: a run not started yet then
// trains where its backend says. window.muplayGpu is the handle web/app/webgpu_device.cpp calls.
async function startGpu(m) {
  try {
    const loadSource = async (name) => {
      const r = await fetch(`shaders/${name}`);
      if (!r.ok) throw new Error(`shaders/${name}: HTTP ${r.status}`);
      return r.text();
    };
    const gpu = await openGpu({ loadSource });
    window.muplayGpu = gpu;
    m.muplay_gpu_ready(gpu.adapter.name, gpu.adapter.isFallback ? 1 : 0);
  } catch (e) {
    m.muplay_gpu_unavailable(e.message);
  }
}

// A run that asked for WebGPU and did not get it, or lost its device mid-run, says so in a notice. Other notes (auto
// staying off a software adapter, WebGPU forced onto one) are shown in the panel only: nothing went wrong.
function backendNotice(m, ui) {
  let shown = '';
  return () => {
    const b = JSON.parse(m.muplay_backend());
    const refused = b.requested === 'webgpu' && !b.gpu_started;
    const alert = b.note && (refused || b.moved_to_cpu) ? b.note : '';
    if (alert && alert !== shown) ui.notice(alert);
    shown = alert;
  };
}

// The toolbar turns to the page's language while the app loads; the panels follow once it runs (main).
const firstLanguage = initialLanguage(location.search, pageOptions(location.search).embed);
setLanguage(firstLanguage.language).catch(() => {});  // main says why, once it can

async function main() {
  let m;
  try {
    m = await window.muplay.ready;
  } catch {
    return;  // index.html already shows why the app could not start
  }
  const options = pageOptions(location.search);
  const ui = makeUi();
  if (firstLanguage.complaint) ui.notice(firstLanguage.complaint);
  await setLanguage(firstLanguage.language, m).catch((e) => {
    ui.notice(`中文 is not available: ${e.message}. The page stays in English.`);
    return setLanguage('en', m);
  });
  startDataLoader(m, ui);
  // The training worker loads beside the app (a few hundred ms); an autoplayed run waits for it so that it trains
  // there. Without it the app trains on the page's thread.
  let lookAtState = () => {};  // set once the page follows the app (below)
  const trainerStarted = startTrainer(m, () => lookAtState());
  const gpuStarted = startGpu(m);
  if (options.scale > 1) m.muplay_set_scale(options.scale);  // NaN and values below 1 keep the screen's resolution
  startPresenting(m, options);
  const presetShown = startNarrow(m, options);
  const view = JSON.parse(m.muplay_set_view(options.embed ? 1 : 0, options.panels));
  if (!view.ok) ui.notice(view.errors.join('\n'));
  // An embed keeps nothing in storage: it shows its author's experiment, and starts sooner without opening a database.
  const storage = options.embed ? null : await storageOrNull(ui);
  await restoreTables(storage, ui.notice);  // the data sets a kept draft may train on
  if (options.data) await fetchTable(options.data, ui.notice);  // a data set served beside the page (?data=)
  await openFirstExperiment(m, options, storage, ui);
  if (options.view !== null) {
    const { errors } = JSON.parse(m.muplay_apply_view(options.view));
    if (errors.length) ui.notice(`The view in this address was not shown as written: ${errors.join('; ')}.`);
  }
  if (options.autoplay) {
    await Promise.race([trainerStarted, new Promise((resolve) => setTimeout(resolve, 5000))]);
    m.muplay_run();
  }

  wireToolbar(m);
  startSemantics(m, $('canvas'));  // the canvas' controls for the keyboard and screen readers
  startLanguageMenu(m, ui, options);
  const share = startShare(m, ui);
  startMenus();
  startTouch($('canvas'));
  startFiles(m, ui);
  startAudioTrace(startFigureText(m));
  startImports(m, ui);
  startTableRequests(m, ui);
  // The address bar's links for the draft: the current one, and the one it showed before the spec's own link last
  // replaced it. A reload begun just before that replacement reloads the earlier link while the draft (and the unload
  // backup) already name the new one: the draft must win there too, or the edit is lost.
  let linkBefore = location.hash.slice(1);
  const addressBar = () => ({ fragment: location.hash.slice(1), previous: linkBefore });
  const saved = startSavedRuns(m, storage, ui, addressBar);
  const api = startEmbedApi(m, options, ui);
  api?.ready();
  if (options.embed && window.parent !== window) {
    startGuestKeys(m, { tell: (e) => api?.keyGivenBack(e), toHost: (text) => api?.toHost(text) });
  }
  // The draft is saved at once (a browser may drop a write begun while the page unloads); the address bar, which
  // the draft records, follows once the edits pause.
  const saveDraft = () => saved.specChanged();
  const checkBackend = backendNotice(m, ui);
  gpuStarted.then(() => setInterval(checkBackend, 500));  // a device can be lost at any moment of a run
  lookAtState = follow(m, {
    onEdit() {
      saveDraft();
      presetShown();
    },
    onSettled() {
      linkBefore = location.hash.slice(1);
      share.specChanged();
      saveDraft();
    },
    onState(state, previous) {
      const running = state === 'running';
      $('run').dataset.tr = running ? 'Pause' : 'Run';  // the English, for a later switch of language (language.js)
      $('run').textContent = running ? tr('Pause') : tr('Run');
      api?.stateChanged(state);
      if (state === 'finished' && previous) saved.runFinished();
    },
    onProgress: () => api?.progressed(),
  });
  keepGoingUnseen(m, lookAtState);
  startOffline();
}

// Offline use (web/js/service_worker.js): registered once the page runs, so that the first visit loads as fast as
// before. Without service workers (an old browser, a page opened as a file) the page needs the network each time.
function startOffline() {
  if (!('serviceWorker' in navigator) || !/^https?:$/.test(location.protocol)) return;
  navigator.serviceWorker.register('./service_worker.js')
    .catch((e) => console.warn(`Offline use is off: ${e.message}`));
}

main().catch((e) => makeUi().notice(tr('The page\'s controls failed to start: {why}', { why: e.message })));
