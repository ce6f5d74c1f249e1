// An embed behaves as a guest in someone else's page (Chromium; Firefox ESR: guest_embed_firefox.test.mjs), each
// check through real mouse, wheel and keyboard input on a host page of another origin (tests/browser/guest_hosts.mjs):
// - the wheel over a plot scrolls the host's notes; over a panel that can still scroll (the runs table) it scrolls that
//   panel and not the notes, until the panel's end (web/main.cpp wheel_scrolls_a_panel);
// - keys, in a reveal.js deck built by pandoc: the embed takes keys once clicked into, gives the slide keys back (the
//   deck moves on, the next key goes straight to the deck), keeps Space where its controls are shown and gives Space
//   back where they are not (web/js/guest_keys.js);
// - events when they happen: `finished` reaches the host from an embed far out of view and from one on a hidden slide,
//   neither ever drawn, training in workers or on the page's own thread; `progress` events on the way, throttled;
// - get_results before any run is null;
// - a frame that cannot run the page says why and how to fix it: a sandbox without allow-same-origin, a site without
//   its wasm, a browser without WebGL2 or WebAssembly.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startServer } from '../../scripts/static-server.mjs';
import { buildDeck, deckMissing, notesPage, startHost } from './guest_hosts.mjs';
import { SITE, openPlayground, screenshot } from './harness.mjs';

const T = { timeout: 600_000 };
const BAR = 30;  // the embed's toolbar, CSS pixels (index.html: --bar-h)
let playground, host;

before(async () => {
  playground = await startServer({ root: SITE, port: 0 });
  host = await startHost();
}, T);
after(async () => {
  await host?.close();
  await playground?.close();
});

const frameOf = async (page, id) => (await page.$(`#${id}`)).contentFrame();
const ready = (frame) => frame.evaluate(() => window.muplay.ready.then(() => true));
const received = (page, pick) => page.evaluate((p) => window.received.filter((m) => m.data?.type === 'event' &&
  m.data.event === p.event && (p.frame === undefined || m.frame === p.frame)).map((m) => m.data), pick);

// Waits until a frame has drawn `n` more frames (the embed's own counter).
async function frames(frame, n) {
  const target = await frame.evaluate(() => window.muplay.muplay_frame_count()) + n;
  await frame.waitForFunction((t) => window.muplay.muplay_frame_count() >= t, target, { polling: 50 });
}

test('the wheel: over a plot it scrolls the notes, over a panel that can scroll it scrolls the panel, then the notes', T, async () => {
  host.write('wheel.html', notesPage(playground.url, [
    { id: 'plot', query: 'embed=1&preset=10-coord-check-mup&panels=controls,plot' },
    { id: 'runs', query: 'embed=1&preset=10-coord-check-mup&panels=runs', height: 220 },
  ], { gap: 6 }));
  const pg = await openPlayground({ url: `${host.url}wheel.html`, waitReady: false });
  try {
    const { page } = pg;
    const [plot, runs] = [await frameOf(page, 'plot'), await frameOf(page, 'runs')];
    await ready(plot);
    await ready(runs);
    const scrollY = () => page.evaluate(() => window.scrollY);
    const box = async (id) => page.locator(`#${id}`).boundingBox();

    // Over the plot: ImGui has nothing there to scroll, so three notches scroll the notes.
    await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
    let b = await box('plot');
    await page.mouse.move(b.x + b.width / 2, b.y + BAR + (b.height - BAR) * 0.6);
    await frames(plot, 3);
    assert.equal(JSON.parse(await plot.evaluate(() => window.muplay.muplay_hovered_scroll())).max_y ?? 0, 0);
    const before = await scrollY();
    for (let i = 0; i < 3; i++) await page.mouse.wheel(0, 100);
    await page.waitForFunction((y) => window.scrollY >= y + 250, before, { timeout: 10_000 });
    console.log(`over the plot: 3 notches scrolled the notes from ${before} to ${await scrollY()} px`);

    // Over the runs table (15 rows in a short frame): it scrolls, the notes stay.
    await page.evaluate(() => document.getElementById('runs').scrollIntoView({ block: 'center' }));
    b = await box('runs');
    await page.mouse.move(b.x + b.width / 2, b.y + BAR + (b.height - BAR) / 2);
    await frames(runs, 3);
    const table = () => runs.evaluate(() => JSON.parse(window.muplay.muplay_hovered_scroll()));
    const top = await table();
    assert.ok(top.max_y > 0, `the runs table has room to scroll: ${JSON.stringify(top)}`);
    assert.equal(top.y, 0);
    const notesAt = await scrollY();
    await page.mouse.wheel(0, 100);
    await frames(runs, 3);
    const moved = await table();
    assert.ok(moved.y > 0, `one notch scrolled the table: ${JSON.stringify(moved)}`);
    assert.equal(await scrollY(), notesAt, 'the notes moved under a panel that scrolled');
    await screenshot(page, 'guest-wheel-runs');

    // At the table's end, the next notches are the notes'.
    for (let i = 0; i < 20 && (await table()).y < top.max_y; i++) {
      await page.mouse.wheel(0, 100);
      await frames(runs, 2);
    }
    assert.equal((await table()).y, top.max_y);
    assert.equal(await scrollY(), notesAt, 'the notes moved before the table reached its end');
    await page.mouse.wheel(0, 100);
    await page.waitForFunction((y) => window.scrollY > y, notesAt, { timeout: 10_000 });
    assert.deepEqual(pg.errors, []);
  } finally {
    await pg.close();
  }
});

const DECK = [
  { title: 'Title' },
  { title: 'Run it here', embed: { id: 'controls', query: 'embed=1&preset=10-coord-check-mup&panels=controls,plot' } },
  { title: 'Only the plot', embed: { id: 'plot', query: 'embed=1&preset=10-coord-check-mup&panels=plot' } },
  { title: 'After' },
  { title: 'Later' },
  { title: 'Out of sight', embed: { id: 'hidden', query: 'embed=1&preset=02-sp-toy&panels=plot&autoplay=1' } },
];

test('keys in a reveal.js deck: slide keys go back to the deck, Space is the embed\'s only where its controls are', T, async (t) => {
  const why = deckMissing();
  if (why) return t.skip(why);
  buildDeck(host.dir, playground.url, DECK);
  const pg = await openPlayground({ url: `${host.url}deck.html`, waitReady: false });
  try {
    const { page } = pg;
    await page.waitForFunction(() => window.Reveal?.isReady());
    const slide = () => page.evaluate(() => window.Reveal.getIndices().h);
    const keyEvents = async (frame) => (await received(page, { event: 'key', frame })).map((d) => d.key);
    // Clicks the embed's canvas where the plot is (nothing there acts on a click), as a reader clicks into it.
    const clickInto = async (id) => {
      const b = await page.locator(`#${id}`).boundingBox();
      await page.mouse.click(b.x + b.width / 2, b.y + BAR + (b.height - BAR) * 0.6);
    };

    await page.evaluate(() => window.Reveal.slide(1));
    const controls = await frameOf(page, 'controls');
    await ready(controls);
    await frames(controls, 2);
    await clickInto('controls');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => window.Reveal.getIndices().h === 2, null, { timeout: 10_000 });
    assert.deepEqual(await keyEvents('controls'), ['ArrowRight']);
    assert.equal(await controls.evaluate(() => window.muplay.muplay_state()), 'idle');
    // The keyboard went back to the deck: the next key is the deck's own, and the embed hears nothing of it.
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => window.Reveal.getIndices().h === 3, null, { timeout: 10_000 });
    assert.deepEqual(await keyEvents('controls'), ['ArrowRight']);

    // Only the plot: Space is not the embed's, it moves the deck.
    await page.evaluate(() => window.Reveal.slide(2));
    const plot = await frameOf(page, 'plot');
    await ready(plot);
    await frames(plot, 2);
    await clickInto('plot');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => window.Reveal.getIndices().h === 3, null, { timeout: 10_000 });
    assert.deepEqual(await keyEvents('plot'), [' ']);
    assert.equal(await plot.evaluate(() => window.muplay.muplay_state()), 'idle');

    // With its controls shown, Space runs the embed (its own shortcut) and the deck stays; an arrow still leaves.
    await page.evaluate(() => window.Reveal.slide(1));
    await frames(controls, 2);
    await clickInto('controls');
    await page.keyboard.press('Space');
    await controls.waitForFunction(() => window.muplay.muplay_state() !== 'idle', null, { timeout: 10_000 });
    assert.equal(await slide(), 1);
    await screenshot(page, 'guest-deck-space-runs');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => window.Reveal.getIndices().h === 0, null, { timeout: 10_000 });
    assert.deepEqual(await keyEvents('controls'), ['ArrowRight', 'ArrowLeft']);
    assert.deepEqual(pg.errors, []);
  } finally {
    await pg.close();
  }
});

// Waits for the `finished` event of iframe `id` on the host page and returns every event it sent.
async function finishedFrom(page, id) {
  await page.waitForFunction((f) => window.received.some((m) => m.frame === f && m.data?.event === 'finished'), id,
                             { timeout: 240_000, polling: 250 });
  return page.evaluate((f) => window.received.filter((m) => m.frame === f && m.data?.type === 'event')
    .map((m) => m.data), id);
}

// The events of a run that ended: progress on the way (at most four a second), its last at the plan, then finished.
function assertRanToTheEnd(events, seconds) {
  const progress = events.filter((e) => e.event === 'progress');
  assert.ok(progress.length >= 2, `progress events: ${JSON.stringify(progress)}`);
  assert.ok(progress.length <= 4 * seconds + 3, `${progress.length} progress events in ${seconds} s`);
  assert.ok(progress[0].steps < progress[0].planned);
  assert.equal(progress.at(-1).steps, progress.at(-1).planned);
  const finished = events.find((e) => e.event === 'finished');
  assert.ok(finished.runs.length > 0 && finished.runs.every((r) => r.status === 'finished' || r.status === 'diverged'),
            JSON.stringify(finished.runs));
  assert.ok(events.indexOf(finished) > events.indexOf(progress.at(-1)));
}

test('finished reaches the host from an embed on a hidden slide, never drawn', T, async (t) => {
  const why = deckMissing();
  if (why) return t.skip(why);
  buildDeck(host.dir, playground.url, DECK);
  const pg = await openPlayground({ url: `${host.url}deck.html`, waitReady: false });
  try {
    const { page } = pg;
    const start = Date.now();
    const events = await finishedFrom(page, 'hidden');
    const seconds = (Date.now() - start) / 1000;
    console.log(`hidden slide: finished ${seconds.toFixed(1)} s after the deck opened`);
    assert.equal(await page.evaluate(() => window.Reveal.getIndices().h), 0);
    const hidden = await frameOf(page, 'hidden');
    assert.equal(await hidden.evaluate(() => window.muplay.muplay_frame_count()), 0, 'the hidden embed was drawn');
    assertRanToTheEnd(events, seconds);
  } finally {
    await pg.close();
  }
});

for (const where of ['workers', 'the page\'s thread']) {
  test(`finished reaches the host from an embed far out of view, training in ${where}`, T, async () => {
    host.write('far.html', notesPage(playground.url, [
      { id: 'far', query: 'embed=1&preset=02-sp-toy&panels=plot&autoplay=1' }], { gap: 120 }));
    const blockWorker = where !== 'workers' ? (page) => page.route('**/trainer_worker.js', (r) => r.abort()) : undefined;
    const pg = await openPlayground({ url: `${host.url}far.html`, waitReady: false, beforeLoad: blockWorker });
    try {
      const { page } = pg;
      const start = Date.now();
      const events = await finishedFrom(page, 'far');
      const seconds = (Date.now() - start) / 1000;
      const far = await frameOf(page, 'far');
      const workers = await far.evaluate(() => window.muplay.muplay_trains_in_worker());
      console.log(`out of view, ${where}: finished ${seconds.toFixed(1)} s after the notes opened (${workers} workers)`);
      assert.equal(workers > 0, where === 'workers');
      assert.equal(await page.evaluate(() => window.scrollY), 0);
      const top = await page.locator('#far').boundingBox();
      assert.ok(top.y > 2 * 800, `the embed is far below the window: ${top.y} px`);
      assert.equal(await far.evaluate(() => window.muplay.muplay_frame_count()), 0, 'the embed out of view was drawn');
      assertRanToTheEnd(events, seconds);
      if (where !== 'workers') pg.errors.splice(0, pg.errors.length, ...pg.errors.filter((e) => !/ERR_FAILED/.test(e)));
      assert.deepEqual(pg.errors, []);
    } finally {
      await pg.close();
    }
  });
}

test('get_results before any run is null, after a step the result document', T, async () => {
  host.write('api.html', notesPage(playground.url, [{ id: 'api', query: 'embed=1&preset=10-coord-check-mup' }], { gap: 0 }));
  const pg = await openPlayground({ url: `${host.url}api.html`, waitReady: false });
  try {
    const { page } = pg;
    await page.waitForFunction(() => window.received.some((m) => m.data?.event === 'ready'));
    const reply = async (message) => {
      await page.evaluate((m) => window.send('api', m), message);
      await page.waitForFunction((id) => window.received.some((m) => m.data?.id === id), message.id);
      return page.evaluate((id) => window.received.find((m) => m.data?.id === id).data, message.id);
    };
    assert.deepEqual(await reply({ muplay: 1, type: 'get_results', id: 'before' }),
                     { muplay: 1, type: 'reply', id: 'before', ok: true, result: { results: null } });
    assert.equal((await reply({ muplay: 1, type: 'step', id: 'step' })).result.total_steps, 1);
    const results = (await reply({ muplay: 1, type: 'get_results', id: 'after' })).result.results;
    assert.equal(results.schema, 'muplay-result');
    assert.equal(results.runs.length, 15);
    assert.equal((await reply({ muplay: 1, type: 'reset', id: 'reset' })).ok, true);
    assert.equal((await reply({ muplay: 1, type: 'get_results', id: 'again' })).result.results, null);
  } finally {
    await pg.close();
  }
});

// The page's message in the error area, once shown (within `ms`), and that the loading notice is gone.
async function shownError(frame, ms) {
  await frame.waitForFunction(() => !document.getElementById('error').hidden, null, { timeout: ms, polling: 100 });
  assert.equal(await frame.evaluate(() => document.getElementById('loading').hidden), true);
  return frame.evaluate(() => document.getElementById('error').textContent);
}

test('a frame sandboxed without allow-same-origin says so within 5 s, with the fix', T, async () => {
  host.write('sandbox.html', notesPage(playground.url, [{ id: 'boxed', query: 'embed=1' }],
                                       { gap: 1, sandbox: 'allow-scripts' }));
  const pg = await openPlayground({ url: `${host.url}sandbox.html`, waitReady: false });
  try {
    const { page } = pg;
    const started = Date.now();
    const boxed = await frameOf(page, 'boxed');
    const text = await shownError(boxed, 5000 - (Date.now() - started));
    console.log(`sandboxed frame: message after ${Date.now() - started} ms: ${text}`);
    assert.match(text, /^μPlayground cannot run in this frame: .*add allow-same-origin to the iframe's sandbox attribute/);
    await screenshot(page, 'guest-sandboxed');
  } finally {
    await pg.close();
  }
});

test('a site without its wasm, a browser without WebGL2 or WebAssembly: each says what is missing', T, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'muplay-no-wasm-'));
  for (const e of readdirSync(SITE)) if (e !== 'muplay.wasm') symlinkSync(path.join(SITE, e), path.join(dir, e));
  const site = await startServer({ root: dir, port: 0 });
  const cases = [
    { url: site.url, why: /^μPlayground could not load its engine, muplay\.wasm: the server answered HTTP 404 Not Found\. The site must serve every file of build\/site/ },
    { init: () => { const get = HTMLCanvasElement.prototype.getContext;
                    HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
                      return kind === 'webgl2' ? null : get.call(this, kind, ...rest); }; },
      why: /^WebGL2 is not available in this browser .* Please enable hardware acceleration/ },
    { init: () => { delete window.WebAssembly; }, why: /^This browser does not support WebAssembly with SIMD/ },
  ];
  try {
    for (const { url, init, why } of cases) {
      const pg = await openPlayground({ url, waitReady: false, beforeLoad: init && ((page) => page.addInitScript(init)) });
      try {
        assert.match(await shownError(pg.page.mainFrame(), 10_000), why);
      } finally {
        await pg.close();
      }
    }
  } finally {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
