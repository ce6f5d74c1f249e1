// Share links in the page: edit -> copy link -> open it elsewhere -> same spec, same first losses; the address bar
// follows edits without adding history; old-version links open; bad links (truncated, corrupted, hostile, newer)
// say why and open the default experiment; thousands of mutated links never break the page. And the accessible
// toolbar: reachable with Tab, Space on its Run button runs once, a help dialog lists the shortcuts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, openPlayground, screenshot, stepOnce } from './harness.mjs';

const T = { timeout: 600_000 };
const STORED = JSON.parse(readFileSync(path.join(ROOT, 'tests', 'fixtures', 'stored_links.json'), 'utf8'));

let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const call = (page, name, ...args) => page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);
const json = async (page, name, ...args) => JSON.parse(await call(page, name, ...args));
// page.js has opened the first experiment once the toolbar is enabled.
const pageReady = (page) => page.waitForSelector('#run:not([disabled])');
const b64 = (text) => Buffer.from(text).toString('base64url');

async function openFresh(page, url) {
  await page.goto('about:blank');
  await page.goto(url);
  await page.evaluate(() => window.muplay.ready.then(() => true));
  await pageReady(page);
}

// Takes `n` single steps and returns every run's recorded series.
async function firstSeries(page, n) {
  for (let i = 0; i < n; i++) await stepOnce(page);
  return (await json(page, 'muplay_get_results')).runs.map((r) => r.series);
}

test('edit, copy link, open it in another browser: same spec, same first losses, one history entry', T, async () => {
  const { page } = pg;
  await pageReady(page);
  const historyBefore = await page.evaluate(() => history.length);
  const spec = await json(page, 'muplay_get_spec');
  Object.assign(spec, { name: 'edited in a test' });
  spec.sweep.width = [16, 48];
  spec.task.seed = 3;
  for (const lr of [0.3, 0.5, 0.7]) {  // several edits, each moving the address bar
    spec.optimizer.lr = lr;
    assert.equal((await json(page, 'muplay_load_spec', JSON.stringify(spec))).ok, true);
    await page.waitForFunction((f) => location.hash === `#${f}`, await call(page, 'muplay_share_link'));
  }
  assert.equal(await page.evaluate(() => history.length), historyBefore, 'edits added history entries');

  const origin = new URL(pg.url).origin;
  await pg.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  await page.click('#copy-link');
  await page.waitForFunction(() => /Link copied/.test(document.getElementById('bar-status').textContent));
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, `${origin}/#${await call(page, 'muplay_share_link')}`);
  assert.ok(copied.length < 1000, `a ${copied.length}-character link`);
  const original = await firstSeries(page, 6);

  const other = await openPlayground({ url: copied });  // a fresh browser profile: nothing stored
  try {
    await pageReady(other.page);
    // The same spec, with the backend this page resolved (auto: the CPU) pinned, so it trains the same way there.
    assert.deepEqual(await json(other.page, 'muplay_get_spec'), { ...await json(page, 'muplay_get_spec'), backend: 'cpu' });
    assert.deepEqual(await firstSeries(other.page, 6), original);
    assert.deepEqual(other.errors, []);
  } finally {
    await other.close();
  }
});

// The native command line's result file for a share link (`muplay run` takes a link where a spec file goes).
function cliResultOfLink(link) {
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'muplay-link-')), 'out.json');
  const r = spawnSync(path.join(ROOT, 'build', 'native', 'engine', 'muplay'), ['run', link, '--out', out, '--quiet'],
                      { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return readFileSync(out, 'utf8');
}

// Opens `url` in a fresh browser profile, clicks Run, and returns the result file once every run has finished.
async function trainedElsewhere(url, check = async () => {}) {
  const other = await openPlayground({ url });
  try {
    await pageReady(other.page);
    await check(other.page);
    await other.page.click('#run');
    await other.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { polling: 100 });
    assert.deepEqual(other.errors, []);
    return await call(other.page, 'muplay_result_file');
  } finally {
    await other.close();
  }
}

test('a copied link, opened in another browser and run, writes the command line\'s result file for it, bit for bit', T,
  async () => {
    const { page } = pg;
    await pageReady(page);
    const spec = {
      version: 1, name: 'a link to reproduce', precision: 'float32', model: { widths: [24, 24], activation: 'gelu' },
      optimizer: { kind: 'adam', lr: 0.01 }, schedule: { steps: 30, batch_size: 16, record_every: 10 },
      sweep: { width: [16, 48] }, metrics: ['train_loss', 'test_loss', 'act_rms'],
    };
    assert.equal((await json(page, 'muplay_load_spec', JSON.stringify(spec))).ok, true);
    const origin = new URL(pg.url).origin;
    await pg.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await page.click('#copy-link');
    await page.waitForFunction(() => /Link copied/.test(document.getElementById('bar-status').textContent));
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(link, /#s=1\.[A-Za-z0-9_-]+&r=1$/, 'the link ends in its result version');
    const data = JSON.parse(Buffer.from(link.split('#s=1.')[1].split('&')[0], 'base64url').toString());
    assert.equal(data.backend, 'cpu', 'auto is pinned to where it trained');
    assert.equal(data.precision, 'float32');

    const file = await trainedElsewhere(link);
    assert.equal(file, cliResultOfLink(link));
    for (const run of JSON.parse(file).runs) assert.deepEqual([run.backend, run.precision], ['cpu', 'float32']);
  });

test('a WebGPU link opened where there is no WebGPU trains on the CPU in float32, says so, and matches the CLI', T,
  async () => {
    const spec = { version: 1, name: 'made on WebGPU', backend: 'webgpu', schedule: { steps: 20, record_every: 5 },
                   sweep: { width: [32, 64] } };
    const link = `${pg.url.split('#')[0].split('?')[0]}#s=1.${b64(JSON.stringify(spec))}&r=1`;
    // This browser has no WebGPU adapter (no --enable-unsafe-webgpu).
    const file = await trainedElsewhere(link, async (page) => {
      await page.waitForSelector('#notice:not([hidden])', { timeout: 120_000 });
      assert.match(await page.textContent('#notice-text'),
                   /WebGPU was asked for but .*training on the CPU instead, in float32 .*differ from a WebGPU run's by about 1e-4/);
    });
    assert.equal(file, cliResultOfLink(link));
    for (const run of JSON.parse(file).runs) assert.deepEqual([run.backend, run.precision], ['cpu', 'float32']);
  });

test('a link from an engine of another result version opens, and says its numbers may differ', T, async () => {
  const other = await openPlayground({ url: `${pg.url.split('#')[0].split('?')[0]}#s=1.${b64('{"name":"from the future"}')}&r=2` });
  try {
    await pageReady(other.page);
    assert.equal((await json(other.page, 'muplay_get_spec')).name, 'from the future');
    await other.page.waitForSelector('#notice:not([hidden])');
    assert.match(await other.page.textContent('#notice-text'),
                 /made by a build of a newer engine \(result version 2; this page's is 1\): it opens, but its numbers may differ/);
  } finally {
    await other.close();
  }
});

test('a version-0 link opens its migrated spec and trains like its version-1 twin', T, async () => {
  const { page } = pg;
  const old = STORED.find((s) => s.link.startsWith('#s=0.'));
  await openFresh(page, pg.url + old.link);
  assert.deepEqual(await json(page, 'muplay_get_spec'), old.spec);
  assert.equal(await page.isVisible('#notice'), false);
  const fromOld = await firstSeries(page, 5);
  assert.equal((await json(page, 'muplay_load_spec', JSON.stringify(old.spec))).ok, true);
  assert.deepEqual(await firstSeries(page, 5), fromOld);
});

test('bad links name the problem, open the default experiment and leave the page working', T, async () => {
  const { page } = pg;
  const presets = await json(page, 'muplay_list_presets');
  const good = STORED[1].link;
  const deep = `{"name":${'['.repeat(3000)}${']'.repeat(3000)}}`;
  const cases = [  // [fragment, what the message must say, open by navigation (else: pasted into the open page)]
    [good.slice(0, -30), /data (is not JSON \(truncated or corrupted\?\)|is \d+ characters long, which no encoder)/, true],
    ['#s=7.e30', /made by a newer build \(spec version 7; this build reads versions 0 to 1\)/, true],
    [`#s=1.${'A'.repeat(1_500_000)}`, /is 1500004 characters long, more than the limit of 65536/, true],
    [`${good.slice(0, 40)}*${good.slice(41)}`, /'\*' at character 36, which is not base64url/, false],
    [`#s=1.${b64('{"optimizer":{"lr":1e999}}')}`, /not JSON .*number out of range/, false],
    [`#s=1.${b64('{"schedule":{"steps":1e15}}')}`, /schedule\.steps: 1e\+15 is not in \[1, 1000000\]/, false],
    [`#s=1.${b64(deep)}`, /nesting deeper than 64/, false],
    ['#section-2', /not a share link of this site/, false],
  ];
  for (const [fragment, why, navigate] of cases) {
    if (navigate) {
      await openFresh(page, pg.url + fragment);
    } else {
      await page.evaluate(() => { document.getElementById('notice').hidden = true; });
      await page.evaluate((f) => { location.hash = f; }, fragment);
    }
    await page.waitForSelector('#notice:not([hidden])');
    const message = await page.textContent('#notice-text');
    assert.match(message, /^This link could not be opened: /, message);
    assert.match(message, why, message.slice(0, 300));
    assert.match(message, /Showing the default experiment instead\.$/);
    assert.equal((await json(page, 'muplay_get_spec')).name, presets[0].name, fragment.slice(0, 60));
    assert.deepEqual((await json(page, 'muplay_get_errors')).spec, []);
    if (fragment.startsWith('#s=7')) await screenshot(page, 'bad-link');
  }
  const f0 = await call(page, 'muplay_frame_count');
  await page.waitForFunction((f) => window.muplay.muplay_frame_count() > f + 3, f0);
  await stepOnce(page);
  assert.equal(await call(page, 'muplay_total_steps'), 1);
  assert.deepEqual(pg.errors, []);
});

// A seeded generator (mulberry32), so a failure names a reproducible link.
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const JSON_BITS = ['1e308', '1e999', '-0', '9007199254740993', 'null', 'true', '""', '[]', '{}', '[[[[[[[[[[[[[[[[',
  '"\\ud800"', '{"version":2}', ',"x":1', '"widths":[0]', '"steps":1000000', '"width":[16384,16384]', '"lr":[1e6]'];

function mutate(r, link) {
  const at = (n) => Math.floor(r() * (n + 1));
  const i = at(link.length);
  switch (Math.floor(r() * 7)) {
    case 0: return link.slice(0, i);
    case 1: return link.slice(0, i) + String.fromCharCode(Math.floor(r() * 0x3000)) + link.slice(i + 1);
    case 2: return link.slice(0, i) + 'A-_*%= #.s0'[at(10)].repeat(1 + at(3)) + link.slice(i);
    case 3: return link.slice(0, i) + link.slice(i + 1 + at(40));
    case 4: return link.slice(0, i) + link.slice(i, i + at(64)).repeat(r() < 0.05 ? 3000 : 1 + at(3)) + link.slice(i);
    case 5: return link.replace(/^#s=\d*/, `#s=${['0', '1', '2', '99', '1000000', ''][at(5)]}`);
    default: {  // edit the JSON inside and encode it again, to reach the parser and the validator
      const dot = link.indexOf('.');
      const data = Buffer.from(link.slice(dot + 1), 'base64url').toString('utf8');
      const j = at(data.length);
      const edited = r() < 0.5 ? data.slice(0, j) + JSON_BITS[at(JSON_BITS.length - 1)] + data.slice(j)
                               : data.slice(0, j) + data.slice(j + 1 + at(12));
      return link.slice(0, dot + 1) + b64(edited);
    }
  }
}

test('a thousand and more mutated links: each is decoded or refused with a reason; a hundred and fifty opened; the page lives', T, async () => {
  const { page } = pg;
  const seeds = STORED.map((s) => s.link);
  const r = random(7);
  // 1 500 through the decoder, 150 through a whole page load, which costs far more than a decode.
  const DECODED = 1500, OPENED = 150;
  const links = Array.from({ length: DECODED + OPENED }, () => {
    let link = seeds[Math.floor(r() * seeds.length)];
    for (let k = 1 + Math.floor(r() * 3); k > 0; k--) link = mutate(r, link);
    return link;
  });
  const started = Date.now();
  let decoded = 0, refused = 0;
  for (let b = 0; b < DECODED; b += 500) {  // through the decoder only: fast
    const outcomes = await page.evaluate((batch) => batch.map((l) => JSON.parse(window.muplay.muplay_decode_link(l))),
                                         links.slice(b, b + 500));
    outcomes.forEach((o, k) => {
      assert.ok(o.ok ? o.errors.length === 0 : o.errors.length > 0 && o.errors.every(Boolean), links[b + k].slice(0, 200));
      if (o.ok) decoded++; else refused++;
    });
  }
  const presetName = (await json(page, 'muplay_list_presets'))[0].name;
  const opened = await page.evaluate(([batch, fallback]) => batch.map((l) => {  // the whole path a page load takes
    const o = JSON.parse(window.muplay.muplay_open_link(l));
    const spec = JSON.parse(window.muplay.muplay_get_spec());
    const valid = JSON.parse(window.muplay.muplay_get_errors()).spec.length === 0;
    return valid && (o.ok || (o.errors.length > 0 && spec.name === fallback));
  }), [links.slice(DECODED), presetName]);
  assert.ok(opened.every(Boolean), `links ${opened.flatMap((ok, k) => (ok ? [] : [k + DECODED])).join(', ')} misbehaved`);
  console.log(`fuzzed links in the page: ${links.length} (${DECODED} decoded: ${decoded} valid, ${refused} refused; ` +
              `${opened.length} opened), ${((Date.now() - started) / 1000).toFixed(1)} s`);
  assert.ok(decoded > 10 && refused > DECODED / 2, `${decoded} valid, ${refused} refused`);
  const f0 = await call(page, 'muplay_frame_count');
  await page.waitForFunction((f) => window.muplay.muplay_frame_count() > f + 3, f0);
  assert.deepEqual(pg.errors, []);
});

test('keyboard: Tab reaches the toolbar, Space on its Run button runs once, the help lists the shortcuts', T, async () => {
  const { page } = pg;
  await openFresh(page, pg.url);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'run');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => window.muplay.muplay_total_steps() > 0);
  assert.equal(await call(page, 'muplay_state'), 'running', 'Space ran and then also paused (as a shortcut)');
  assert.equal(await page.textContent('#run'), 'Pause');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => window.muplay.muplay_state() === 'paused');
  for (const name of ['Step', 'Reset', 'Copy link', 'Share & embed…', 'Export', 'Import…', 'Saved…', 'Present', 'Help']) {
    await page.keyboard.press('Tab');
    assert.equal((await page.evaluate(() => document.activeElement.textContent)).trim(), name);
  }
  await page.keyboard.press('Enter');
  assert.equal(await page.isVisible('#help-dialog'), true);
  const help = await page.textContent('#help-dialog');
  for (const words of [/Space\s*Run \/ pause/, /S\s*One step/, /R\s*Reset/, /P\s*Present/]) assert.match(help, words);
  await screenshot(page, 'help');
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#help-dialog'), false);
  assert.equal(await call(page, 'muplay_state'), 'paused', 'keys in the dialog reached the shortcuts');
});
