// What this browser keeps (web/js/storage.js) and the "Saved" dialog: the draft is saved whenever the spec changes,
// each finished run is saved with its result document; the dialog lists the runs (open one's spec, download its
// results) and clears everything. Without storage (an embed, or storage turned off) it all does nothing, quietly,
// except that the dialog says why.
import { fileStem } from './files.js';
import { pageLanguage, tr } from './language.js';
import { describeStorageError } from './storage.js';

const $ = (id) => document.getElementById(id);

const format = (x) => (typeof x === 'number' ? x.toPrecision(3) : tr('n/a'));

// One line about a run's outcome: "final train loss: w32 0.0123, w64 0.0101 | 1 diverged" (in the page's language).
function summary(result) {
  const runs = result.runs ?? [];
  const losses = runs.filter((r) => r.status !== 'diverged').map((r) => `w${r.width} ${format(r.summary?.final_train_loss)}`);
  const diverged = runs.length - losses.length;
  const text = tr('final train loss: {losses}', { losses: losses.join(', ') || tr('none') });
  return diverged ? `${text} | ${tr('{count} diverged', { count: diverged })}` : text;
}

function runItem(m, run, ui) {
  const result = JSON.parse(run.result);
  const li = document.createElement('li');
  const title = Object.assign(document.createElement('div'), {
    textContent: `${tr(run.name)} \u2014 ${new Date(run.time).toLocaleString(pageLanguage() === 'zh' ? 'zh-CN' : undefined)}`,
  });
  const info = Object.assign(document.createElement('div'), { className: 'summary', textContent: summary(result) });
  const open = Object.assign(document.createElement('button'), { type: 'button', textContent: tr('Open its spec') });
  open.addEventListener('click', () => {
    const r = JSON.parse(m.muplay_load_spec(JSON.stringify(result.spec)));
    if (r.ok) {
      $('saved-dialog').close();
      ui.status(tr('Opened "{name}": Run reproduces it.', { name: run.name }));
    } else {
      ui.notice(tr('Could not open the saved run: {why}', { why: r.errors[0] }));
    }
  });
  const download = Object.assign(document.createElement('a'), {
    textContent: tr('Download results (JSON)'),
    href: URL.createObjectURL(new Blob([run.result], { type: 'application/json' })),
    download: `${fileStem(run.name)}.result.json`,
  });
  li.append(title, info, open, ' ', download);
  return li;
}

// A failed write is tried again after these pauses (ms), then reported: a busy or briefly locked database recovers.
export const RETRY_DELAYS = [250, 1000];

export function startSavedRuns(m, storage, ui, addressBar) {
  const reported = new Set();
  // A storage failure is shown once for each thing that failed and why, not on every edit.
  const report = (what, e) => {
    const reason = describeStorageError(e);
    if (!reported.has(`${what}: ${reason}`)) {
      reported.add(`${what}: ${reason}`);
      ui.notice(tr('Could not {what} in this browser: {why}. The page keeps working; use Export to keep files.',
                   { what, why: reason }));
    }
  };
  const attempt = async (what, work) => {
    if (!storage) return undefined;
    try {
      return await work();
    } catch (e) {
      report(what, e);
      return undefined;
    }
  };
  // Writes: `work` is called again (it reads the app's state afresh) after each pause of RETRY_DELAYS, then reported.
  const write = async (what, work) => {
    if (!storage) return undefined;
    for (let tries = 0; ; tries++) {
      try {
        const result = await work();
        if (tries > 0) ui.status(tr('Saved ({what}) on attempt {attempt}.', { what, attempt: tries + 1 }));
        return result;
      } catch (e) {
        if (tries === RETRY_DELAYS.length) return report(what, e);
        ui.status(tr('Could not {what} ({why}); trying again…', { what, why: describeStorageError(e) }));
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS[tries]));
      }
    }
  };

  const list = $('saved-runs');
  const render = async () => {
    for (const a of list.querySelectorAll('a[href^="blob:"]')) URL.revokeObjectURL(a.href);
    list.replaceChildren();
    const note = (text) => list.append(Object.assign(document.createElement('li'), { textContent: text }));
    if (!storage) return note(tr('Browser storage is not available here, so nothing is kept.'));
    const runs = await attempt(tr('read the saved runs'), () => storage.listRuns());
    if (!runs?.length) return note(tr('No finished runs saved yet.'));
    for (const run of runs) list.append(runItem(m, run, ui));
    return undefined;
  };
  $('open-saved').addEventListener('click', async () => {
    await render();
    $('saved-dialog').showModal();
  });
  $('clear-saved').addEventListener('click', async () => {
    await attempt(tr('clear the saved data'), () => storage.clear());
    await render();
    ui.status(tr('Saved data cleared.'));
  });

  // The draft records the address bar's links (addressBar(): { fragment, previous }, web/js/page.js) as they are when it
  // is written.
  const draft = () => ({ text: m.muplay_get_spec(), ...addressBar(), time: Date.now() });
  // The unload backup (web/js/storage.js): the draft as it is when the page goes away or out of sight.
  const backup = () => storage?.backupDraft(draft());
  addEventListener('pagehide', backup);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') backup(); });

  return {
    specChanged: () => write(tr('save your edits'), () => storage.saveDraft(draft())),
    runFinished: () => {
      const run = { time: Date.now(), result: m.muplay_result_file() };  // this run's, whatever happens before a retry
      run.name = JSON.parse(run.result).spec.name;
      return write(tr('save the finished run'), () => storage.saveRun(run));
    },
  };
}
