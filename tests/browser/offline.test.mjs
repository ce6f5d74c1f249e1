// Offline use (web/js/service_worker.js), as a lecture hall meets it: a student opens the page once; then the network
// is gone (the server stops), and the page still loads, trains a preset to its end and opens a share link, and the
// lecture notes, visited once, open with their embeds. A new version of the site is shown from the second load after
// it is served. Screenshots: build/screenshots/offline-*.png.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startServer } from '../../scripts/static-server.mjs';
import { SITE, openPlayground, runPreset, screenshot, waitForPlayground } from './harness.mjs';

const T = { timeout: 300_000 };
let server, pg;
before(async () => {
  server = await startServer({ root: SITE, port: 0 });
  pg = await openPlayground({ url: server.url, serviceWorkers: 'allow' });
}, T);
after(async () => {
  await pg?.close();
  await server?.close();
});

const call = (name, ...args) => pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);

test('after one visit the page loads, trains and opens a share link with the server gone', T, async () => {
  const { page } = pg;
  // The worker is active once it has cached the site's files.
  assert.equal(await page.evaluate(() => navigator.serviceWorker.ready.then((r) => Boolean(r.active))), true);
  const presets = JSON.parse(await call('muplay_list_presets'));
  const edge = presets.findIndex((p) => /27-edge-of-stability/.test(p.path));
  await call('muplay_load_preset', edge);
  const link = await call('muplay_share_link');
  await page.goto(new URL('examples/lecture-notes.html', server.url).href);  // the notes, visited once
  await page.waitForSelector('iframe');

  await server.close();  // no network from here on
  assert.notEqual((await fetch(server.url).catch((e) => e)).ok, true, 'the server still answers');
  await page.goto(server.url);
  await waitForPlayground(page);
  const run = await runPreset(page, /01-sp-vs-mup-toy/, (s) => { s.schedule.steps = 20; });
  const statuses = run.runs.map((r) => r.status);
  assert.ok(statuses.length > 0 && statuses.every((s) => s === 'finished'), JSON.stringify(statuses));
  await screenshot(page, 'offline-trained');

  await page.goto(`${server.url}#${link}`);
  await waitForPlayground(page);
  assert.equal(JSON.parse(await call('muplay_get_spec')).name, presets[edge].name);
  await screenshot(page, 'offline-link');

  await page.goto(new URL('examples/lecture-notes.html', server.url).href);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForFunction(() => window.muplay?.muplay_state?.() !== undefined, null, { timeout: 60_000 });
  await screenshot(page, 'offline-lecture-notes');
  assert.deepEqual(pg.errors.filter((e) => !/net::ERR_CONNECTION_REFUSED/.test(e)), []);
});

test('a new version of the site is shown from the second load after it is served (the README says: reload twice)',
  T, async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'muplay-site-'));
    cpSync(SITE, root, { recursive: true });
    const site = await startServer({ root, port: 0 });
    const visit = await openPlayground({ url: site.url, serviceWorkers: 'allow' });
    try {
      const { page } = visit;
      await page.evaluate(() => navigator.serviceWorker.ready);
      const title = await page.title();
      // A new version: another title in index.html, and a worker whose file list hash differs.
      const edit = (file, from, to) => writeFileSync(path.join(root, file),
                                                    readFileSync(path.join(root, file), 'utf8').replace(from, to));
      edit('index.html', `<title>${title}</title>`, `<title>${title} (new)</title>`);
      edit('service_worker.js', /"version":"([0-9a-f]+)"/, '"version":"$1-new"');
      await page.reload();
      await waitForPlayground(page);
      assert.equal(await page.title(), title, 'the first load after the change comes from the cache');
      // The browser found the new worker on that load; once it has taken over, the next load is the new version.
      const updated = async () => page.evaluate(async () => {
        const names = await caches.keys();
        return names.some((k) => k.endsWith('-new')) && !names.some((k) => /^muplay-[0-9a-f]+$/.test(k));
      });
      for (let i = 0; i < 120 && !(await updated()); i++) await new Promise((r) => setTimeout(r, 500));
      assert.equal(await updated(), true, 'the new worker did not take over');
      await page.reload();
      await waitForPlayground(page);
      assert.equal(await page.title(), `${title} (new)`);
    } finally {
      await visit.close();
      await site.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
