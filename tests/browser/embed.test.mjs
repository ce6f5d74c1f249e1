// Embeds, seen from a host page on another origin (a second loopback port): the embed fits its frame, follows
// resizing and is sharp at devicePixelRatio 2; the postMessage API loads, runs, reports and refuses bad messages;
// ?origin= restricts who may drive it; and examples/lecture-notes.html, hosted elsewhere, drives its third embed.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startServer } from '../../scripts/static-server.mjs';
import { ROOT, SITE, openPlayground, screenshot } from './harness.mjs';

const T = { timeout: 600_000 };
const BAR = 30;  // the embed's toolbar height in CSS pixels (index.html: --bar-h)

let playground, hostDir, host, pg;

// A host page: collects every message it gets, and can post to its first iframe.
const hostPage = (iframes) => `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head>
<body style="margin: 0; background: #eee"><script>
window.received = [];
addEventListener('message', (e) => received.push({ origin: e.origin, data: e.data,
  frame: [...document.querySelectorAll('iframe')].findIndex((f) => f.contentWindow === e.source) }));
window.send = (msg, frame = 0) => document.querySelectorAll('iframe')[frame].contentWindow.postMessage(msg, '*');
</script>${iframes}</body></html>`;

before(async () => {
  playground = await startServer({ root: SITE, port: 0 });  // origin A: the playground
  hostDir = mkdtempSync(path.join(tmpdir(), 'muplay-host-'));
  host = await startServer({ root: hostDir, port: 0 });     // origin B: the page that embeds it
  const A = playground.url, B = new URL(host.url).origin;
  writeFileSync(path.join(hostDir, 'host.html'), hostPage(
    `<iframe id="embed" style="width: 640px; height: 400px; border: 0" src="${A}?embed=1&panels=plot,controls&origin=${B}"></iframe>`));
  writeFileSync(path.join(hostDir, 'restricted.html'), hostPage(
    `<iframe src="${A}?embed=1&origin=http://127.0.0.1:9"></iframe><iframe src="${A}?embed=1&origin=javascript:alert(1)"></iframe>` +
    `<iframe src="${A}?embed=1&panels=plot,bogus"></iframe>`));
  // The lecture notes as a course site would host them: elsewhere, with the playground found through <base>.
  const notes = readFileSync(path.join(SITE, 'examples', 'lecture-notes.html'), 'utf8');
  writeFileSync(path.join(hostDir, 'notes.html'), notes.replace('<head>', `<head><base href="${A}examples/">`));
  pg = await openPlayground({ url: `${host.url}host.html`, waitReady: false, deviceScaleFactor: 2 });
}, T);

after(async () => {
  await pg?.close();
  await host?.close();
  await playground?.close();
  rmSync(hostDir, { recursive: true, force: true });
});

const embedFrame = (page, i = 0) => page.frames().filter((f) => f.url().includes('embed=1'))[i];
const ready = (frame) => frame.evaluate(() => window.muplay.ready.then(() => true));
const messages = (page, pick) => page.evaluate((p) => window.received.filter((m) => m.data?.type === p.type &&
  (p.event === undefined || m.data.event === p.event) && (p.id === undefined || m.data.id === p.id)), pick);
async function reply(page, message) {
  await page.evaluate((m) => window.send(m), message);
  await page.waitForFunction((id) => window.received.some((m) => m.data?.type === 'reply' && m.data.id === id), message.id);
  return (await messages(page, { type: 'reply', id: message.id }))[0].data;
}

test('an embed fits its frame, follows resizing and draws at devicePixelRatio 2', T, async () => {
  const { page } = pg;
  const started = Date.now();
  await page.waitForFunction(() => window.received.some((m) => m.data?.event === 'ready'), null, { timeout: 120_000 });
  console.log(`embed ready ${Date.now() - started} ms after the host page loaded (2 cores, software WebGL)`);
  const frame = embedFrame(page);
  const backing = () => frame.evaluate(() => {
    const c = document.getElementById('canvas');
    return [c.clientWidth, c.clientHeight, c.width, c.height];
  });
  await frame.waitForFunction(([w, h]) => document.getElementById('canvas').width === w * 2 &&
                                          document.getElementById('canvas').height === h * 2, [640, 400 - BAR]);
  assert.deepEqual(await backing(), [640, 400 - BAR, 1280, 2 * (400 - BAR)]);
  // The compact toolbar: Run and "Open in μPlayground" only.
  assert.equal(await frame.isVisible('#run'), true);
  assert.equal(await frame.isVisible('#open-full'), true);
  assert.equal(await frame.isVisible('#copy-link'), false);
  // The link follows the spec once it has settled (web/js/page.js: 300 ms after the last change).
  await frame.waitForFunction((url) => document.getElementById('open-full').href.startsWith(`${url}#s=1.`), playground.url);
  await screenshot(page, 'embed-host');

  await page.evaluate(() => Object.assign(document.getElementById('embed').style, { width: '480px', height: '320px' }));
  await frame.waitForFunction(([w, h]) => document.getElementById('canvas').width === w * 2 &&
                                          document.getElementById('canvas').height === h * 2, [480, 320 - BAR]);
  assert.deepEqual(await backing(), [480, 320 - BAR, 960, 2 * (320 - BAR)]);
  await screenshot(page, 'embed-host-resized');
});

test('the host page drives the embed from another origin: load, run, finished event, results, reset', T, async () => {
  const { page } = pg;
  const hello = (await messages(page, { type: 'event', event: 'ready' }))[0];
  assert.equal(hello.origin, playground.url.replace(/\/$/, ''));
  assert.deepEqual(hello.data, { muplay: 1, type: 'event', event: 'ready', version: 1, state: 'idle' });

  const spec = { version: 1, name: 'driven from a host', model: { widths: [8] }, task: { train_size: 16, test_size: 16 },
                 schedule: { steps: 12 }, sweep: { width: [4, 8] } };
  assert.deepEqual(await reply(page, { muplay: 1, type: 'load_spec', id: 'load', spec }),
                   { muplay: 1, type: 'reply', id: 'load', ok: true, result: { state: 'idle' } });
  assert.equal((await reply(page, { muplay: 1, type: 'get_spec', id: 2 })).result.spec.name, 'driven from a host');
  assert.equal((await reply(page, { muplay: 1, type: 'run', id: 3 })).ok, true);
  await page.waitForFunction(() => window.received.some((m) => m.data?.event === 'finished'));
  const finished = (await messages(page, { type: 'event', event: 'finished' }))[0].data;
  assert.deepEqual(finished.runs.map((r) => [r.width, r.status, r.steps_done]), [[4, 'finished', 12], [8, 'finished', 12]]);
  assert.equal(typeof finished.runs[0].summary.final_train_loss, 'number');
  const results = (await reply(page, { muplay: 1, type: 'get_results', id: 4 })).result.results;
  assert.equal(results.schema, 'muplay-result');
  assert.equal(results.runs[1].series.train_loss.length, 13);
  assert.equal(results.runs[1].summary.final_train_loss, finished.runs[1].summary.final_train_loss);
  assert.deepEqual((await reply(page, { muplay: 1, type: 'reset', id: 5 })).result, { state: 'idle', total_steps: 0 });
  assert.equal((await reply(page, { muplay: 1, type: 'step', id: 6 })).result.total_steps, 1);
  assert.equal((await reply(page, { muplay: 1, type: 'load_preset', id: 7, preset: '02-sp-toy' })).ok, true);
  assert.match((await reply(page, { muplay: 1, type: 'get_spec', id: 8 })).result.spec.name, /^SP on the sin toy/);
});

test('bad messages get a precise refusal and change nothing; foreign messages are ignored', T, async () => {
  const { page } = pg;
  const specNow = async (id) => (await reply(page, { muplay: 1, type: 'get_spec', id })).result.spec;
  const before = await specNow('before');
  const refusals = [
    [{ muplay: 1, type: 'eval', id: 10, code: 'alert(1)' }, /^unknown type "eval"; known: load_spec, load_link/],
    [{ muplay: 2, type: 'run', id: 11 }, /^muplay must be 1 \(the API version\), not number/],
    [{ muplay: 1, type: 'run', id: 12, code: 'alert(1)' }, /^run: unknown field "code"/],
    [{ muplay: 1, type: 'load_spec', id: 13, spec: 42 }, /^load_spec: spec must be an object or a string/],
    [{ muplay: 1, type: 'load_spec', id: 14, spec: { version: 1, model: { widths: [0] } } },
     /^model\.widths\[0\]: 0 is not in \[1, 16384\]$/],
    [{ muplay: 1, type: 'load_spec', id: 15, spec: '{"version": 1' }, /^not valid JSON/],
    [{ muplay: 1, type: '__proto__', id: 16 }, /^unknown type "__proto__"/],
    [{ muplay: 1, type: 'run', id: { nested: true } }, /^id must be a string/],
  ];
  for (const [message, why] of refusals) {
    const id = typeof message.id === 'object' ? undefined : message.id;
    await page.evaluate((m) => window.send(m), message);
    await page.waitForFunction((i) => window.received.some((m) => m.data?.type === 'reply' && m.data.id === i &&
                                                                  m.data.ok === false), id);
    const got = (await messages(page, { type: 'reply', id })).at(-1).data;
    assert.match(got.error, why);
  }
  await page.evaluate(() => window.send({ hello: 'not for muplay', id: 99 }));  // no "muplay" key: not for the embed
  assert.deepEqual(await specNow('after'), before, 'a refused message changed the spec');
  assert.equal(await page.evaluate(() => window.received.filter((m) => m.data?.id === 99).length), 0);
  // A bad link is refused the way the page refuses it: with the reason, and the default experiment opened.
  const link = await reply(page, { muplay: 1, type: 'load_link', id: 17, link: '#s=9.e30' });
  assert.match(link.error, /made by a newer build \(spec version 9/);
  assert.match((await specNow('default')).name, /^muP on the sin toy/);
  assert.deepEqual(pg.errors, []);
});

test('with ?origin=, messages from any other origin are ignored; a malformed origin turns the API off; bad panels are named', T, async () => {
  const other = await openPlayground({ url: `${host.url}restricted.html`, waitReady: false });
  try {
    const { page } = other;
    const [wrong, malformed] = [embedFrame(page, 0), embedFrame(page, 1)];
    await ready(wrong);
    await ready(malformed);
    await malformed.waitForSelector('#notice:not([hidden])');
    assert.match(await malformed.textContent('#notice-text'), /origin=javascript:alert\(1\) is not an origin .* the embed API is off/);
    for (const frame of [0, 1]) await page.evaluate((f) => window.send({ muplay: 1, type: 'run', id: f }, f), frame);
    await page.waitForTimeout(1500);
    assert.deepEqual(await page.evaluate(() => window.received.filter((m) => m.frame < 2)), [],
                     'an embed answered or announced itself to a foreign host');
    assert.equal(await wrong.evaluate(() => window.muplay.muplay_state()), 'idle');
    const panels = embedFrame(page, 2);
    await ready(panels);
    await panels.waitForSelector('#notice:not([hidden])');
    assert.equal(await panels.textContent('#notice-text'),
                 'panels: "bogus" is not one of presets, editor, controls, plot, runs, status, phenomena, backend');
  } finally {
    await other.close();
  }
});

test('the lecture notes, hosted on another origin: a width experiment, a phenomenon and an anchor Transformer each embedded and run; one driven through the API', T, async () => {
  const notes = await openPlayground({ url: `${host.url}notes.html`, waitReady: false });
  try {
    const { page } = notes;
    // Browsers pause cross-origin frames that are out of view (no animation frames): the embeds start when seen.
    await page.locator('#driven').scrollIntoViewIfNeeded();
    await page.waitForSelector('#train-sp:not([disabled])', { timeout: 120_000 });
    await page.click('#train-sp');
    await page.waitForSelector('#driven-results:not([hidden])', { timeout: 120_000 });
    const rows = await page.$$eval('#driven-results tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    assert.deepEqual(rows.map((r) => r.slice(0, 2)), [['SP', '32'], ['SP', '128'], ['SP', '512']]);
    assert.match(rows[0][2], /^final train loss \d/);
    assert.equal(rows[2][2], 'diverged at step 3');
    await page.locator('#driven').scrollIntoViewIfNeeded();
    await screenshot(page, 'lecture-notes-driven');
    // Every preset embed (all but the driven one): it loads its preset and, run, trains. The lazy ones load when seen.
    const expected = [/^SP on the sin toy/, /^muP on the sin toy/, /^Frequency principle/, /^Anchor composite/];
    // What each shows, from its frame trace once it has trained a little: the plot's title, or the phenomena panel's
    // plots (?panels=...,phenomena) and the metric the notes asked for (?metric=ood_accuracy).
    const shows = [/^train_loss vs step/, /^train_loss vs step/, /^relative error Delta_F\(k\)/, /^ood_accuracy vs step/];
    const iframes = page.locator('iframe:not(#driven)');
    assert.equal(await iframes.count(), expected.length);
    for (let i = 0; i < expected.length; i++) {
      const iframe = iframes.nth(i);
      await iframe.scrollIntoViewIfNeeded();
      const frame = await (await iframe.elementHandle()).contentFrame();
      await frame.waitForURL(/embed=1/);
      assert.ok(frame.url().startsWith(playground.url), frame.url());
      await ready(frame);
      assert.match(await frame.evaluate(() => JSON.parse(window.muplay.muplay_get_spec()).name), expected[i]);
      await frame.evaluate(() => window.muplay.muplay_run());
      await frame.waitForFunction(() => window.muplay.muplay_total_steps() >= 5, null, { polling: 100, timeout: 120_000 });
      await frame.evaluate(() => window.muplay.muplay_drawn());  // turns the trace on
      const titles = await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() =>
        requestAnimationFrame(() => resolve(JSON.parse(window.muplay.muplay_drawn()).plots.map((p) => p.title))))));
      assert.ok(titles.some((t) => shows[i].test(t)), `embed ${i + 1} draws ${JSON.stringify(titles)}`);
      await screenshot(page, `lecture-notes-embed-${i + 1}`);
      await frame.evaluate(() => window.muplay.muplay_pause());
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'lecture-notes');
    assert.deepEqual(notes.errors, []);
  } finally {
    await notes.close();
  }
});
