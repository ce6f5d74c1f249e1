// The page's HTML side, started by index.html once the wasm app is ready: which experiment opens first, the
// toolbar, the address bar, files, browser storage and, in an embed, the host page's API.
// The app (C++, through the window.muplay hook) holds every bit of experiment state; this module follows it by
// polling two cheap values each frame (the spec's revision and the run state) and never keeps a copy of its own.
//
// URL parameters: embed=1 (compact, for an <iframe>), panels=controls,plot,... (web/view.hpp), autoplay=1,
// preset=FILE_STEM (open examples/FILE_STEM.json), origin=https://host (the only page allowed to drive an embed);
// the fragment #s=... is a share link (engine/link.hpp).
import { startDataLoader } from './data_loader.js';
import { startEmbedApi } from './embed_api.js';
import { startFiles } from './files.js';
import { startSavedRuns } from './saved_runs.js';
import { startShare } from './share.js';
import { describeStorageError, openStorage } from './storage.js';

const $ = (id) => document.getElementById(id);

function pageOptions(search) {
  const p = new URLSearchParams(search);
  return {
    embed: p.get('embed') === '1',
    panels: p.get('panels') ?? '',
    autoplay: p.get('autoplay') === '1',
    preset: p.get('preset'),
    origin: p.get('origin'),
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
// saved with that same fragment: a reload then keeps edits made after the address bar's last (valid) link.
async function openFirstExperiment(m, options, storage, ui) {
  const fragment = location.hash.slice(1);
  const draft = storage ? await storage.loadDraft().catch((e) => {
    ui.notice(`Could not read your saved edits: ${describeStorageError(e)}.`);
    return null;
  }) : null;
  if (draft && (fragment === '' ? !options.preset : draft.fragment === fragment)) {
    m.muplay_load_spec(draft.text);
  } else if (fragment) {
    if (!JSON.parse(m.muplay_open_link(fragment)).ok) ui.notice(JSON.parse(m.muplay_get_errors()).message);
  } else if (options.preset) {
    const index = m.muplay_find_preset(options.preset);
    if (index < 0 || !m.muplay_load_preset(index)) {
      ui.notice(`There is no valid preset "${options.preset}" in this build; showing the default experiment.`);
    }
  }
}

// Follows the app: `onEdit()` in the frame after each change of the editor's spec, `onSettled()` once it has not
// changed for `ms`, and `onState(state, previous)` on each change of the run state.
function follow(m, { onEdit, onSettled, onState }, ms = 300) {
  let revision = -1, state = '', timer = 0;
  const tick = () => {
    const r = m.muplay_spec_revision();
    if (r !== revision) {
      revision = r;
      onEdit();
      clearTimeout(timer);
      timer = setTimeout(onSettled, ms);
    }
    const s = m.muplay_state();
    if (s !== state) {
      const previous = state;
      state = s;
      onState(s, previous);
    }
    requestAnimationFrame(tick);
  };
  tick();
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
    ui.notice(`Browser storage is not available (${describeStorageError(e)}). The page works, but your edits and ` +
              'runs will not be kept after a reload: use Export to keep files.');
    return null;
  }
}

async function main() {
  let m;
  try {
    m = await window.muplay.ready;
  } catch {
    return;  // index.html already shows why the app could not start
  }
  const options = pageOptions(location.search);
  const ui = makeUi();
  startDataLoader(m, ui);
  const view = JSON.parse(m.muplay_set_view(options.embed ? 1 : 0, options.panels));
  if (!view.ok) ui.notice(view.errors.join('\n'));
  // An embed keeps nothing in storage: it shows its author's experiment, and starts sooner without opening a database.
  const storage = options.embed ? null : await storageOrNull(ui);
  await openFirstExperiment(m, options, storage, ui);
  if (options.autoplay) m.muplay_run();

  wireToolbar(m);
  const share = startShare(m, ui);
  startFiles(m, ui);
  const saved = startSavedRuns(m, storage, ui);
  const api = startEmbedApi(m, options, ui);
  api?.ready();
  // The draft is saved at once (a browser may drop a write begun while the page unloads); the address bar, which
  // the draft records, follows once the edits pause.
  const saveDraft = () => saved.specChanged(location.hash.slice(1));
  follow(m, {
    onEdit: saveDraft,
    onSettled() {
      share.specChanged();
      saveDraft();
    },
    onState(state, previous) {
      $('run').textContent = state === 'running' ? 'Pause' : 'Run';
      api?.stateChanged(state);
      if (state === 'finished' && previous) saved.runFinished();
    },
  });
}

main().catch((e) => makeUi().notice(`The page's controls failed to start: ${e.message}`));
