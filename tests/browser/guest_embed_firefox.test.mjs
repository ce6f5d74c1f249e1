// An embed as a guest in Firefox ESR (tests/browser/guest_embed.test.mjs has the same checks in Chromium, and says
// why each matters), through real mouse, wheel and keyboard input (puppeteer-core over WebDriver BiDi, on a private
// Xvfb display: tests/browser/engines.mjs): the wheel over a plot scrolls the host's notes and over the runs table
// scrolls the table; in a pandoc reveal.js deck the slide keys go back to the deck and Space is the embed's only where
// its controls are; `finished` reaches the host from an embed on a hidden slide and from one far out of view.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startServer } from '../../scripts/static-server.mjs';
import { launchEngine, missing } from './engines.mjs';
import { buildDeck, deckMissing, notesPage, startHost } from './guest_hosts.mjs';
import { SITE } from './harness.mjs';

const T = { timeout: 600_000 };
const BAR = 30;  // the embed's toolbar, CSS pixels (index.html: --bar-h)
const why = missing('firefox') ?? deckMissing();
let b, playground, host;

before(async () => {
  if (why) return;
  playground = await startServer({ root: SITE, port: 0 });
  host = await startHost();
  b = await launchEngine('firefox');
}, T);
after(async () => {
  await b?.close();
  await host?.close();
  await playground?.close();
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const box = async (id) => (await b.page.$(`#${id}`)).boundingBox();
const ready = (id) => b.frame(`#${id}`).eval(() => window.muplay.ready.then(() => true));
const frameCount = (id) => b.frame(`#${id}`).eval(() => window.muplay.muplay_frame_count());
async function frames(id, n) {
  const target = await frameCount(id) + n;
  await b.frame(`#${id}`).waitFor((t) => window.muplay.muplay_frame_count() >= t, target, { polling: 50 });
}
const keyEvents = (id) => b.top.eval((f) => window.received.filter((m) => m.frame === f && m.data?.event === 'key')
  .map((m) => m.data.key), id);

test('Firefox ESR: the wheel scrolls the notes over a plot and the runs table over the table', T, async (t) => {
  if (why) return t.skip(why);
  host.write('wheel.html', notesPage(playground.url, [
    { id: 'plot', query: 'embed=1&preset=10-coord-check-mup&panels=controls,plot' },
    { id: 'runs', query: 'embed=1&preset=10-coord-check-mup&panels=runs', height: 220 },
  ], { gap: 6 }));
  await b.goto(`${host.url}wheel.html`);
  await ready('plot');
  await ready('runs');
  const scrollY = () => b.top.eval(() => window.scrollY);

  await b.top.eval(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
  let r = await box('plot');
  await b.page.mouse.move(r.x + r.width / 2, r.y + BAR + (r.height - BAR) * 0.6);
  await frames('plot', 3);
  const before = await scrollY();
  for (let i = 0; i < 3; i++) await b.page.mouse.wheel({ deltaY: 100 });
  await b.top.waitFor((y) => window.scrollY >= y + 150, before, { timeout: 10_000 });
  t.diagnostic(`over the plot: 3 wheel events scrolled the notes from ${before} to ${await scrollY()} px`);

  await b.top.eval(() => document.getElementById('runs').scrollIntoView({ block: 'center' }));
  r = await box('runs');
  await b.page.mouse.move(r.x + r.width / 2, r.y + BAR + (r.height - BAR) / 2);
  await frames('runs', 3);
  const table = () => b.frame('#runs').eval(() => JSON.parse(window.muplay.muplay_hovered_scroll()));
  const top = await table();
  assert.ok(top.max_y > 0 && top.y === 0, JSON.stringify(top));
  const notesAt = await scrollY();
  await b.page.mouse.wheel({ deltaY: 100 });
  await frames('runs', 3);
  assert.ok((await table()).y > 0, 'the wheel did not scroll the runs table');
  await sleep(300);
  assert.equal(await scrollY(), notesAt, 'the notes moved under a panel that scrolled');
  assert.deepEqual(b.errors(), []);
});

const DECK = [
  { title: 'Title' },
  { title: 'Run it here', embed: { id: 'controls', query: 'embed=1&preset=10-coord-check-mup&panels=controls,plot' } },
  { title: 'Only the plot', embed: { id: 'plot', query: 'embed=1&preset=10-coord-check-mup&panels=plot' } },
  { title: 'After' },
  { title: 'Later' },
  { title: 'Out of sight', embed: { id: 'hidden', query: 'embed=1&preset=02-sp-toy&panels=plot&autoplay=1' } },
];

test('Firefox ESR: slide keys go back to a reveal.js deck; Space is the embed\'s only with its controls', T, async (t) => {
  if (why) return t.skip(why);
  buildDeck(host.dir, playground.url, DECK);
  await b.goto(`${host.url}deck.html`);
  await b.top.waitFor(() => window.Reveal?.isReady());
  const slideIs = (h) => b.top.waitFor((x) => window.Reveal.getIndices().h === x, h, { timeout: 10_000, what: `slide ${h}` });
  const clickInto = async (id) => {
    const r = await box(id);
    await b.page.mouse.click(r.x + r.width / 2, r.y + BAR + (r.height - BAR) * 0.6);
  };

  await b.top.eval(() => window.Reveal.slide(1));
  await ready('controls');
  await frames('controls', 2);
  await clickInto('controls');
  await frames('controls', 2);
  await b.page.keyboard.press('ArrowRight');
  await slideIs(2);
  assert.deepEqual(await keyEvents('controls'), ['ArrowRight']);
  await b.page.keyboard.press('ArrowRight');  // the deck has the keyboard again
  await slideIs(3);
  assert.deepEqual(await keyEvents('controls'), ['ArrowRight']);

  await b.top.eval(() => window.Reveal.slide(2));
  await ready('plot');
  await frames('plot', 2);
  await clickInto('plot');
  await frames('plot', 2);
  await b.page.keyboard.press(' ');  // (puppeteer's BiDi keyboard names Space by its key)
  await slideIs(3);
  assert.deepEqual(await keyEvents('plot'), [' ']);
  assert.equal(await b.frame('#plot').eval(() => window.muplay.muplay_state()), 'idle');

  await b.top.eval(() => window.Reveal.slide(1));
  await frames('controls', 2);
  await clickInto('controls');
  await frames('controls', 2);
  await b.page.keyboard.press(' ');  // (puppeteer's BiDi keyboard names Space by its key)
  await b.frame('#controls').waitFor(() => window.muplay.muplay_state() !== 'idle', null, { timeout: 10_000 });
  assert.equal(await b.top.eval(() => window.Reveal.getIndices().h), 1);
  await b.screenshot('firefox-guest-deck-space-runs');
  assert.deepEqual(b.errors(), []);
});

async function finishedFrom(id) {
  await b.top.waitFor((f) => window.received.some((m) => m.frame === f && m.data?.event === 'finished'), id,
                      { timeout: 240_000, polling: 250, what: `finished from #${id}` });
  return b.top.eval((f) => window.received.filter((m) => m.frame === f && m.data?.type === 'event').map((m) => m.data), id);
}

function assertRanToTheEnd(events) {
  const progress = events.filter((e) => e.event === 'progress');
  assert.ok(progress.length >= 1, JSON.stringify(events.map((e) => e.event)));
  assert.equal(progress.at(-1).steps, progress.at(-1).planned);
  const finished = events.find((e) => e.event === 'finished');
  assert.ok(finished.runs.length > 0 && finished.runs.every((r) => r.status === 'finished' || r.status === 'diverged'));
}

test('Firefox ESR: finished reaches the host from an embed on a hidden slide and from one far out of view', T, async (t) => {
  if (why) return t.skip(why);
  buildDeck(host.dir, playground.url, DECK);
  await b.goto(`${host.url}deck.html`);
  let start = Date.now();
  let events = await finishedFrom('hidden');
  const drawnHidden = await frameCount('hidden');
  t.diagnostic(`hidden slide: finished after ${((Date.now() - start) / 1000).toFixed(1)} s, ${drawnHidden} frames drawn`);
  assert.equal(await b.top.eval(() => window.Reveal.getIndices().h), 0);
  assertRanToTheEnd(events);

  host.write('far.html', notesPage(playground.url, [
    { id: 'far', query: 'embed=1&preset=02-sp-toy&panels=plot&autoplay=1' }], { gap: 120 }));
  await b.goto(`${host.url}far.html`);
  start = Date.now();
  events = await finishedFrom('far');
  const drawnFar = await frameCount('far');
  t.diagnostic(`far out of view: finished after ${((Date.now() - start) / 1000).toFixed(1)} s, ${drawnFar} frames drawn`);
  assert.equal(await b.top.eval(() => window.scrollY), 0);
  assert.ok((await box('far')).y > 1600);
  assertRanToTheEnd(events);
  assert.deepEqual(b.errors(), []);
});
