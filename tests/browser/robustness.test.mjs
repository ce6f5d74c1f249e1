// Robustness of the page: the last edit survives an immediate reload; a failed IndexedDB write is retried and then
// reported (bounded); an exception in one sweep member fails that member only, shown in the runs table and the
// result file; the Content-Security-Policy lets the page work and blocks injected inline script.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, screenshot } from './harness.mjs';

const T = { timeout: 600_000 };
const SPEC = { version: 1, name: 'robustness', model: { widths: [8] }, task: { train_size: 16, test_size: 16 },
               schedule: { steps: 12 }, sweep: { width: [4, 8, 16] } };

// Every CSP violation the page reports, collected from the start.
const watchViolations = (page) => page.addInitScript(() => {
  window.violations = [];
  document.addEventListener('securitypolicyviolation',
    (e) => window.violations.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample }));
});

let pg;
before(async () => { pg = await openPlayground({ beforeLoad: watchViolations }); }, T);
after(async () => { await pg?.close(); });

const call = (page, name, ...args) => page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);
const specName = async (page) => JSON.parse(await call(page, 'muplay_get_spec')).name;
const reload = async (page) => {
  await page.reload();
  await page.evaluate(() => window.muplay.ready.then(() => true));
  await page.waitForSelector('#run:not([disabled])');
};

test('an edit made just before a reload survives it', T, async () => {
  const { page } = pg;
  await page.waitForSelector('#run:not([disabled])');
  const name = 'edited, then reloaded at once';
  assert.equal(JSON.parse(await call(page, 'muplay_load_spec', JSON.stringify({ ...SPEC, name }))).ok, true);
  await reload(page);  // no wait: the IndexedDB write may be dropped (it was, without the backup); the pagehide backup is not
  assert.equal(await specName(page), name);
  assert.deepEqual(pg.errors, []);
});

test('an exception in one sweep member fails that member only, shown in the runs table and the result file', T, async () => {
  const { page } = pg;
  assert.equal(JSON.parse(await call(page, 'muplay_load_spec', JSON.stringify(SPEC))).ok, true);
  // After the reload above the training workers may still be starting; a run built before they are ready moves to
  // them (a new runner there), and a fault injected before would stay behind.
  await page.waitForFunction(() => window.muplay.muplay_trains_in_worker() > 0, null, { polling: 50 });
  assert.equal(await call(page, 'muplay_inject_fault', 1, 5), 1);
  await call(page, 'muplay_run');
  await page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 120_000 });
  const runs = JSON.parse(await call(page, 'muplay_result_file')).runs;
  assert.deepEqual(runs.map((r) => [r.width, r.status, r.steps_done, r.error]),
                   [[4, 'finished', 12, undefined], [8, 'failed', 5, 'injected fault (browser test)'], [16, 'finished', 12, undefined]]);
  assert.match(await call(page, 'muplay_results_csv'), /\n8,[^,]+,0,failed,4,/);
  await screenshot(page, 'robustness-failed-member');
  assert.deepEqual(pg.errors, []);
});

test('a spec that would train for hours is refused with the estimate and the page\'s limit', T, async () => {
  const { page } = pg;
  const long = { ...SPEC, name: 'too long for a tab', task: { train_size: 512, test_size: 16 }, sweep: { width: [512, 1024], seeds: [0, 1] },
                 schedule: { steps: 100000, record_every: 1000 } };
  const checked = JSON.parse(await call(page, 'muplay_check_spec', JSON.stringify(long)));
  assert.equal(checked.ok, false);
  console.log(`the page refuses: ${checked.errors[0]}`);
  assert.match(checked.errors.join('\n'), /^sweep: would train for about [\d.]+ h \([\d.e+]+ GFLOP, at an assumed 1 GFLOP\/s\), more than the limit of 1 h in the browser: use fewer steps/m);
  // The command line would accept it (24 h at 8 GFLOP/s); the page keeps its spec and works on.
  assert.equal(JSON.parse(await call(page, 'muplay_check_spec', JSON.stringify({ ...long, schedule: { steps: 1000 } }))).ok, true);
});

test('the Content-Security-Policy lets the page work and blocks injected inline script', T, async () => {
  const { page } = pg;
  const policy = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.match(policy, /script-src 'self' 'wasm-unsafe-eval' 'sha256-[A-Za-z0-9+/=]+'; /);
  assert.doesNotMatch(policy, /unsafe-inline|'unsafe-eval'|inline-(script|style)-hashes/);
  // Everything so far (start-up, training, reloads, storage, dialogs) ran under it without a violation.
  await page.click('#open-share');
  await page.keyboard.press('Escape');
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  const outcome = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.injected = "inline script"';
    document.body.append(script);
    const img = Object.assign(document.createElement('img'), { src: 'data:,' });
    img.setAttribute('onerror', 'window.injected = "event handler"');
    document.body.append(img);
    setTimeout('window.injected = "string timer"', 0);
    await new Promise((r) => setTimeout(r, 200));
    return { injected: window.injected ?? null, violations: window.violations.map((v) => v.directive) };
  });
  // eval, tried from a same-origin script (code the test driver evaluates is exempt from the policy):
  await page.route('**/probe-eval.js', (route) => route.fulfill({ contentType: 'text/javascript',
    body: 'try { window.evalResult = eval("\'eval ran\'"); } catch (e) { window.evalResult = e.name; }' }));
  await page.evaluate(() => new Promise((resolve) => {
    document.body.append(Object.assign(document.createElement('script'), { src: 'probe-eval.js', onload: resolve }));
  }));
  assert.equal(await page.evaluate(() => window.evalResult), 'EvalError');
  assert.equal(outcome.injected, null, JSON.stringify(outcome));
  for (const directive of ['script-src-elem', 'script-src-attr', 'script-src']) {
    assert.ok(outcome.violations.includes(directive), `${directive}: ${JSON.stringify(outcome)}`);
  }
  console.log(`CSP violations reported for the injection attempts: ${outcome.violations.join(', ')}`);
  assert.equal(await call(page, 'muplay_state'), 'finished');  // the app is untouched
});

test('a failed IndexedDB write is retried with backoff, then reported, and never retried without end', T, async () => {
  const pg2 = await openPlayground({
    beforeLoad: (page) => page.addInitScript(() => {
      // window.failing writes fail as a busy (then a broken) database would; the rest go through.
      window.writes = 0;
      window.failing = 2;
      window.reason = 'The database is busy';
      const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function (...args) {
        window.writes += 1;
        if (window.failing-- > 0) throw new DOMException(window.reason, 'UnknownError');
        return put.apply(this, args);
      };
      window.statuses = [];
      new MutationObserver(() => window.statuses.push(document.getElementById('bar-status')?.textContent))
        .observe(document, { subtree: true, childList: true, characterData: true });
    }),
  });
  try {
    const { page } = pg2;
    await page.waitForSelector('#run:not([disabled])');
    await call(page, 'muplay_load_spec', JSON.stringify({ ...SPEC, name: 'saved after retries' }));
    await page.waitForFunction(() => window.statuses.some((s) => /^Saved \(save your edits\) on attempt [23]\.$/.test(s)));
    assert.ok((await page.evaluate(() => window.statuses)).some((s) => /^Could not save your edits \(UnknownError: The database is busy\); trying again…$/.test(s)));
    // The edit is in the database (read directly: a reload would also find it in the unload backup).
    await page.waitForFunction(() => new Promise((resolve) => {
      indexedDB.open('muplay').onsuccess = (e) => {
        const get = e.target.result.transaction('drafts').objectStore('drafts').get('current');
        get.onsuccess = () => { resolve(get.result?.text.includes('saved after retries')); e.target.result.close(); };
      };
    }), null, { polling: 200 });
    assert.equal(await page.isVisible('#notice'), false);  // recovered: nothing to report
    // An edit can start two saves (at once and once it settles), each with its own retries: let the last of them end
    // before counting, or its late attempts would be counted with the next edit's.
    let before;
    do {
      before = await page.evaluate(() => window.writes);
      await page.waitForTimeout(1500);  // longer than the longest pause between two attempts
    } while (await page.evaluate(() => window.writes) !== before);

    // Now every write fails: three attempts per save, then one notice, and no more attempts.
    await page.evaluate(() => { window.failing = Infinity; window.reason = 'The database is broken'; window.writes = 0; });
    await call(page, 'muplay_load_spec', JSON.stringify({ ...SPEC, name: 'never saved' }));
    await page.waitForSelector('#notice:not([hidden])');
    assert.equal(await page.textContent('#notice-text'), 'Could not save your edits in this browser: UnknownError: ' +
                 'The database is broken. The page keeps working; use Export to keep files.');
    await page.waitForTimeout(1500);  // the save of the settled edit (300 ms later) ends its last pause too
    const writes = await page.evaluate(() => window.writes);
    await page.waitForTimeout(1500);
    assert.equal(await page.evaluate(() => window.writes), writes, 'still retrying');
    console.log(`a write that always fails: ${writes} attempts in all (3 per save, backoff 250 ms then 1 s), then a notice`);
    assert.ok(writes >= 3 && writes % 3 === 0, `${writes} attempts`);
  } finally {
    await pg2.close();
  }
});
