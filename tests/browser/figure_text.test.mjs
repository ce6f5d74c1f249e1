// Each figure as text (web/draw/figure_text.hpp, web/js/figure_text.js): after preset 14 (LR transfer, muP) runs, the
// accessibility tree (CDP's full AX tree) holds the view's summary and its table, with η* per width equal to the
// legend's in the frame trace; the live region speaks at the run's start, milestones and end, not every frame;
// Export → View data (CSV) writes the same η*; every other view's summary names what it shows; and the audio trace
// plays the curve as pitch that follows its values, arrows speaking each point.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startServer } from '../../scripts/static-server.mjs';
import { notesPage, startHost } from './guest_hosts.mjs';
import { SITE, openPlayground, runPreset, screenshot, waitFrames } from './harness.mjs';
import { TABS } from './tab_presets.mjs';
import { plots } from './ui_driver.mjs';

const T = { timeout: 600_000 };
let pg;
let live = [];       // the live region's texts, one per change, during preset 14's run
let framesDuring = 0;  // the frames the page drew meanwhile

// Records every pitch the audio trace sets (the oscillators' frequency.setValueAtTime), in call order.
function observeAudio() {
  window.pitchesSet = [];
  const create = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function createOscillator() {
    const oscillator = create.call(this);
    const set = oscillator.frequency.setValueAtTime.bind(oscillator.frequency);
    oscillator.frequency.setValueAtTime = (hz, at) => {
      window.pitchesSet.push(hz);
      return set(hz, at);
    };
    return oscillator;
  };
}

const figureText = () => pg.page.evaluate(() => JSON.parse(window.muplay.muplay_figure_text()));

before(async () => {
  pg = await openPlayground({ beforeLoad: (page) => page.addInitScript(observeAudio) });
  await pg.page.evaluate(() => {
    window.liveTexts = [];
    new MutationObserver(() => window.liveTexts.push(document.getElementById('figure-live').textContent))
      .observe(document.getElementById('figure-live'), { childList: true, characterData: true, subtree: true });
  });
  const frames = await pg.page.evaluate(() => window.muplay.muplay_frame_count());
  await runPreset(pg.page, /14-lr-transfer-toy-mup/, () => {});  // as shipped: its description quotes its η*
  // The end is announced at the figure's next poll (a quarter second): wait for it.
  await pg.page.waitForFunction(() => /Run stopped/.test(window.liveTexts.at(-1) ?? ''), null, { timeout: 10_000 });
  live = await pg.page.evaluate(() => window.liveTexts);
  framesDuring = await pg.page.evaluate(() => window.muplay.muplay_frame_count()) - frames;
}, T);
after(async () => { await pg?.close(); });

// η* per width as the lr plot's legend draws it: "n=32  eta*=2^-0.50 (0.707)" → {"n=32": "2^-0.50"}.
async function legendEtas() {
  const [plot] = await plots(pg.page, /vs learning rate/);
  assert.ok(plot, 'the vs learning rate plot is drawn');
  const etas = {};
  for (const row of plot.legend) {
    const m = /^(n=\d+)\s+eta\*=(2\^-?\d+\.\d+)/.exec(row);
    if (m) etas[m[1]] = m[2];
  }
  return etas;
}

// The page's accessibility tree, as Chromium gives it to a screen reader: each node with its role, name and children.
async function axTree() {
  const cdp = await pg.context.newCDPSession(pg.page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  await cdp.detach();
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const children = (n) => (n.childIds ?? []).map((id) => byId.get(id)).filter(Boolean);
  return { nodes, children, role: (n) => n.role?.value, name: (n) => n.name?.value ?? '' };
}

// A table of the AX tree as rows of its cells' names (header cells included).
function axRows(ax, table) {
  const rows = [];
  const walk = (n) => {
    if (ax.role(n) === 'row') rows.push(ax.children(n).map(ax.name));
    else ax.children(n).forEach(walk);
  };
  walk(table);
  return rows;
}

test('after preset 14 the accessibility tree holds the summary and the table, with the legend\'s eta*', T, async () => {
  const etas = await legendEtas();
  assert.deepEqual(Object.keys(etas), ['n=32', 'n=64', 'n=128', 'n=256']);
  const ax = await axTree();
  const figure = ax.nodes.find((n) => ax.role(n) === 'figure' && /vs learning rate|learning rate/.test(ax.name(n)));
  assert.ok(figure, 'a figure node named after the plot');
  const description = figure.description?.value ?? '';
  assert.match(description, /^eta\* per width: /, 'the figure is described by its summary');
  for (const [net, eta] of Object.entries(etas)) assert.ok(description.includes(`${eta} at ${net}`), `${net}: ${eta}`);
  // The summary's words come from the numbers: preset 14's η* move by -0.24 octaves per doubling of the width.
  assert.match(description, /it (stays put|settles) as the width grows/);
  const table = ax.nodes.find((n) => ax.role(n) === 'table');
  assert.ok(table, 'a table in the accessibility tree');
  const [headings, ...rows] = axRows(ax, table);
  const column = headings.indexOf('eta*');
  assert.ok(column > 0, `an eta* column: ${headings}`);
  assert.deepEqual(Object.fromEntries(rows.map((r) => [r[0], r[column]])), etas);
  await screenshot(pg.page, 'figure-text-lr');
});

test('the live region speaks at the run\'s start, at milestones and at its end, not every frame', () => {
  assert.match(live[0], /^Run started\./);
  assert.match(live.at(-1), /^Run stopped\. eta\* per width: 2\^/);
  // Start, at most one line per width done (4), end: a handful, against the frames drawn meanwhile.
  assert.ok(live.length >= 2 && live.length <= 6, `${live.length} announcements: ${JSON.stringify(live)}`);
  assert.ok(framesDuring > 5 * live.length, `${framesDuring} frames, ${live.length} announcements`);
  for (const text of live.slice(1, -1)) assert.match(text, /of 4 widths done/);
});

test('the announcer speaks once per milestone while a run trains, and not for a new view or a new sweep', async () => {
  const spoken = await pg.page.evaluate(async () => {
    const { makeAnnouncer } = await import('./figure_text.js');
    const said = [];
    const announce = makeAnnouncer((text) => said.push(text));
    const figure = (view, training, milestones) => ({ view, training, milestones, summary: `${view} ${milestones}` });
    for (const f of [figure('lr', false, 0), figure('lr', true, 0), figure('lr', true, 0), figure('lr', true, 1),
      figure('lr', true, 1), figure('width', true, 3), figure('width', true, 4), figure('width', true, 0),
      figure('width', true, 1), figure('width', false, 1), figure('width', false, 1)]) announce(f);
    return said;
  });
  assert.deepEqual(spoken, ['Run started. lr 0', 'lr 1', 'width 4', 'width 1', 'Run stopped. width 1']);
});

test('Export → View data (CSV) writes the table, eta* equal to the legend\'s', T, async () => {
  const { page } = pg;
  await page.click('#export-menu summary');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-view-csv')]);
  assert.match(download.suggestedFilename(), /^lr-transfer-on-the-sin-toy-mup-adam-lr-view\.csv$/);
  const lines = readFileSync(await download.path(), 'utf8').trim().split(/\r\n/).map((l) => l.split(','));
  const column = lines[0].indexOf('eta*');
  assert.ok(column > 0, lines[0].join(','));
  assert.deepEqual(Object.fromEntries(lines.slice(1).map((r) => [r[0], r[column]])), await legendEtas());
  assert.equal(lines[0].length, 5 + 8, 'net, eta*, its decimal, loss at eta*, how found, then a loss per rate');
});

test('the audio trace plays the curve as pitch following its values; arrows speak each point', T, async () => {
  const { page } = pg;
  const figure = await figureText();
  const curve = figure.series[0];
  // Reached with Tab from the canvas (other elements may come between), its focus ring around the view.
  await page.focus('#canvas');
  for (let i = 0; i < 50 && await page.evaluate(() => document.activeElement.id) !== 'figure'; i++) {
    await page.keyboard.press('Tab');
  }
  assert.equal(await page.evaluate(() => document.activeElement.matches('#figure:focus-visible')), true);
  await screenshot(page, 'figure-text-focused');
  await page.keyboard.press('a');
  const pitches = await page.evaluate(() => window.pitchesSet);
  const finite = curve.y.filter((y) => Number.isFinite(y));
  assert.equal(pitches.length, finite.length, 'a pitch per point with a value');
  for (let i = 1; i < finite.length; i++) {
    assert.equal(Math.sign(pitches[i] - pitches[i - 1]), Math.sign(finite[i] - finite[i - 1]), `point ${i}`);
  }
  assert.ok(Math.min(...pitches) >= 200 && Math.max(...pitches) <= 900, `${pitches}`);
  const said = () => page.evaluate(() => document.getElementById('figure-live').textContent);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((t) => document.getElementById('figure-live').textContent === t, curve.said[1]);
  await page.keyboard.press('ArrowDown');
  assert.equal(await said(), figure.series[1].said[1]);
  assert.match(await said(), /^n=64: eta = 2\^-\d\.00, mean train loss \d/);
  // The keys were the figure's: the app did not reset or run (R, Space and the arrows never reached it).
  await page.keyboard.press('r');
  await waitFrames(page, 3);
  assert.equal(await page.evaluate(() => window.muplay.muplay_state()), 'finished');
  assert.deepEqual(pg.errors, []);
});

const TAB_IDS = { 'vs step': 'step', 'vs width': 'width', 'vs depth': 'depth', embeddings: 'embeddings',
  phenomena: 'phenomena', anchor: 'anchor', parametrization: 'parametrization', 'max LR': 'maxlr' };
// What each view's summary must name: its quantity.
const NAMES = { step: /train_loss/, width: /act_delta_rms.*(Keeps its size|Grows|Shrinks)/, depth: /depth|slope/, embeddings: /separation/,
  phenomena: /Delta_F/, anchor: /OOD accuracy|Attention/, parametrization: /a, b, c per layer: .*features move/,
  maxlr: /eta_max/ };

test('every other view gives a summary that names its quantity, and a table', T, async () => {
  for (const { tab, preset, edit } of TABS.filter((t) => t.tab in TAB_IDS)) {
    const id = TAB_IDS[tab];
    await runPreset(pg.page, preset, (s) => {
      edit(s);
      s.schedule.steps = Math.min(s.schedule.steps, 40);  // a short run draws every view; the numbers need not settle
    });
    await pg.page.evaluate((v) => window.muplay.muplay_apply_view(v), id);
    // The figure of the view's first frame may be from before its pictures are computed: wait for one with a table
    // (the anchor view's attention map has none), or ten seconds.
    await pg.page.waitForFunction((v) => {
      const f = JSON.parse(window.muplay.muplay_figure_text());
      return f.view === v && (f.rows.length > 0 || v === 'anchor');
    }, id, { timeout: 10_000 }).catch(() => {});
    const figure = await figureText();
    assert.match(figure.summary, NAMES[id], `${id}: ${figure.summary}`);
    assert.ok(id === 'anchor' || figure.rows.length > 0, `${id}: a table: ${JSON.stringify(figure).slice(0, 400)}`);
    // In the DOM at the page's next poll of the figure's revision.
    await pg.page.waitForFunction((t) => document.getElementById('figure-summary').textContent === t, figure.summary);
  }
});

test('in an embed, the focused figure keeps the arrows: they move between points, not the host page', T, async () => {
  const site = await startServer({ root: SITE, port: 0 });
  const host = await startHost();
  host.write('notes.html', notesPage(site.url, [{ id: 'lr', query: 'embed=1&preset=14-lr-transfer-toy-mup&view=lr' }]));
  const notes = await openPlayground({ url: `${host.url}notes.html`, waitReady: false });
  try {
    const frame = await (await notes.page.$('#lr')).contentFrame();
    await frame.evaluate(() => window.muplay.ready.then(() => true));
    await frame.waitForFunction(() => JSON.parse(window.muplay.muplay_figure_text()).series.length > 0);
    const said = (await frame.evaluate(() => JSON.parse(window.muplay.muplay_figure_text()))).series[0].said;
    await frame.focus('#figure');
    const scrolled = await notes.page.evaluate(() => window.scrollY);
    await notes.page.keyboard.press('ArrowRight');
    await frame.waitForFunction((t) => document.getElementById('figure-live').textContent === t, said[1]);
    assert.equal(await frame.evaluate(() => document.activeElement.id), 'figure', 'the focus stays on the figure');
    assert.equal(await notes.page.evaluate(() => window.scrollY), scrolled, 'the notes did not scroll');
    const keys = await notes.page.evaluate(() => window.received.filter((m) => m.data?.event === 'key'));
    assert.deepEqual(keys, [], 'no key given back to the host');
  } finally {
    await notes.close();
    await host.close();
    await site.close();
  }
});
