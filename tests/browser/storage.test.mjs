// Nothing lost: edits (even invalid ones) and finished runs come back after a reload, from IndexedDB, and can be
// cleared; when storage is turned off (private browsing) or full (quota), the page says so once and keeps working.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, screenshot, stepOnce } from './harness.mjs';

const T = { timeout: 600_000 };
const SPEC = { version: 1, name: 'kept across reloads', model: { widths: [8] }, task: { train_size: 16, test_size: 16 },
               schedule: { steps: 8 }, sweep: { width: [4, 8] } };

let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const call = (page, name, ...args) => page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);
const spec = async (page) => JSON.parse(await call(page, 'muplay_get_spec'));
const pageReady = (page) => page.waitForSelector('#run:not([disabled])');

// Reads a store of the page's database directly (to wait until a save has landed).
const stored = (page, store) => page.evaluate((s) => new Promise((resolve, reject) => {
  const open = indexedDB.open('muplay');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const all = open.result.transaction(s).objectStore(s).getAll();
    all.onsuccess = () => { resolve(all.result); open.result.close(); };
  };
}), store);

async function reload(page) {
  await page.reload();
  await page.evaluate(() => window.muplay.ready.then(() => true));
  await pageReady(page);
}

test('an edited spec comes back after a reload, even one that is not valid yet', T, async () => {
  const { page } = pg;
  await pageReady(page);
  assert.equal(JSON.parse(await call(page, 'muplay_load_spec', JSON.stringify(SPEC))).ok, true);
  const link = `#${await call(page, 'muplay_share_link')}`;
  await page.waitForFunction((l) => location.hash === l, link);
  for (let i = 0; i < 300 && !(await stored(page, 'drafts'))[0]?.text.includes('kept across reloads'); i++) await page.waitForTimeout(100);
  await reload(page);
  assert.equal((await spec(page)).name, 'kept across reloads');

  // Half-way through an edit: invalid, so the address bar keeps the last valid link; the draft keeps the edit.
  const halfway = { ...SPEC, model: { widths: [8, 0] } };
  assert.equal(JSON.parse(await call(page, 'muplay_load_spec', JSON.stringify(halfway))).ok, false);
  for (let i = 0; i < 300 && !(await stored(page, 'drafts'))[0]?.text.includes('[8, 0]'); i++) await page.waitForTimeout(100);
  assert.equal(await page.evaluate(() => location.hash), link);
  await reload(page);
  assert.deepEqual((await spec(page)).model.widths, [8, 0]);
  assert.deepEqual(JSON.parse(await call(page, 'muplay_get_errors')).spec, ['model.widths[1]: 0 is not in [1, 16384]']);

  // A reload as soon as the edit is stored, usually before the address bar has followed it (it waits for a pause in
  // the edits): either way the edit comes back.
  await call(page, 'muplay_load_spec', JSON.stringify({ ...SPEC, name: 'reloaded soon after' }));
  while (!(await stored(page, 'drafts'))[0]?.text.includes('reloaded soon after')) await page.waitForTimeout(20);
  await reload(page);
  assert.equal((await spec(page)).name, 'reloaded soon after');
  assert.deepEqual(pg.errors, []);
});

test('finished runs are kept, listed after a reload, reopened, and cleared', T, async () => {
  const { page } = pg;
  assert.equal(JSON.parse(await call(page, 'muplay_load_spec', JSON.stringify({ ...SPEC, name: 'a saved run' }))).ok, true);
  await call(page, 'muplay_run');
  await page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 120_000 });
  for (let i = 0; i < 300 && (await stored(page, 'runs')).length === 0; i++) await page.waitForTimeout(100);
  assert.equal((await stored(page, 'runs'))[0].name, 'a saved run');
  await call(page, 'muplay_load_preset', 1);
  await reload(page);

  await page.click('#open-saved');
  const item = page.locator('#saved-runs li').first();
  assert.match(await item.textContent(), /^a saved run — .*final train loss: w4 \d\.\d+(e-\d+)?, w8 \d/);
  await screenshot(page, 'saved-runs');
  await item.getByRole('button', { name: 'Open its spec' }).click();
  assert.equal(await page.isVisible('#saved-dialog'), false);
  assert.equal((await spec(page)).name, 'a saved run');
  // Opening it is an edit: the draft is saved at once and again once the edit settles (300 ms), at the address bar's
  // new link. A clear before that second save would see the draft come back.
  const link = await call(page, 'muplay_share_link');
  for (let i = 0; i < 100 && (await stored(page, 'drafts'))[0]?.fragment !== link; i++) await page.waitForTimeout(100);

  await page.click('#open-saved');
  await page.click('#clear-saved');
  await page.waitForFunction(() => /No finished runs saved yet/.test(document.getElementById('saved-runs').textContent));
  assert.deepEqual(await stored(page, 'runs'), []);
  assert.deepEqual(await stored(page, 'drafts'), []);
  await page.keyboard.press('Escape');
  assert.deepEqual(pg.errors, []);
});

test('storage turned off (private browsing): one clear message, and the page works', T, async () => {
  const off = await openPlayground({
    beforeLoad: (page) => page.addInitScript(() => {
      IDBFactory.prototype.open = () => { throw new DOMException('The user denied permission.', 'SecurityError'); };
    }),
  });
  try {
    const { page } = off;
    await page.waitForSelector('#notice:not([hidden])');
    assert.match(await page.textContent('#notice-text'), /^Browser storage is not available \(storage is turned off here, e\.g\. in private browsing \(SecurityError\)\)\. The page works/);
    await pageReady(page);
    await stepOnce(page);
    assert.equal(await call(page, 'muplay_total_steps'), 1);
    await page.click('#notice-close');
    await page.click('#open-saved');
    assert.match(await page.textContent('#saved-runs'), /Browser storage is not available here/);
    assert.deepEqual(off.errors, []);
  } finally {
    await off.close();
  }
});

test('storage full (quota exceeded): the message comes once, and edits and runs go on', T, async () => {
  const full = await openPlayground({
    beforeLoad: (page) => page.addInitScript(() => {
      const fail = () => { throw new DOMException('Quota exceeded.', 'QuotaExceededError'); };
      IDBObjectStore.prototype.put = fail;
      IDBObjectStore.prototype.add = fail;
    }),
  });
  try {
    const { page } = full;
    await pageReady(page);
    await call(page, 'muplay_load_spec', JSON.stringify(SPEC));
    await page.waitForSelector('#notice:not([hidden])');
    assert.equal(await page.textContent('#notice-text'), "Could not save your edits in this browser: the browser's storage " +
                 'for this site is full (quota exceeded). The page keeps working; use Export to keep files.');
    await page.click('#notice-close');
    await call(page, 'muplay_load_spec', JSON.stringify({ ...SPEC, name: 'another edit' }));
    await call(page, 'muplay_run');
    await page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 120_000 });
    await page.waitForSelector('#notice:not([hidden])');  // the run could not be saved either: said once
    assert.match(await page.textContent('#notice-text'), /^Could not save the finished run in this browser/);
    assert.deepEqual(full.errors, []);
  } finally {
    await full.close();
  }
});
