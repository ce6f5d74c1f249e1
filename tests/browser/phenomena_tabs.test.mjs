// The phenomena and anchor tabs as a lecturer drives them (issue 20, item 9): the wheel scrolls the tab's content
// while the view tabs stay in place; the Delta_F heat map (preset 20) labels its rows k = 1, 3, 5 and the ends of
// its colour bar; preset 31 opens on the run with the best final OOD accuracy (ties to the larger gamma), not on
// its first member; the layer and head sliders count from 1, as the attention map's title does. Screenshots:
// build/screenshots/tabs-*.png at 1280 x 800 and 1024 x 768.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, runPreset, screenshot, waitFrames } from './harness.mjs';
import { centre, click, drawn } from './ui_driver.mjs';

const T = { timeout: 600_000 };
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const panelOf = (d, tab) => d.windows.find((w) => new RegExp(`/${tab} tab_[0-9A-F]+$`).test(w.name));
const tabRect = (d, tab) => d.items.find((i) => i.label === tab && /right_[0-9A-F]+$/.test(i.window)).rect;

// Three wheel notches down over the tab's panel: its content scrolls, the tab bar does not move.
async function wheelKeepsTabs(tab) {
  const before = await drawn(pg.page);
  const panel = panelOf(before, tab);
  assert.ok(panel, `no scrolling panel for ${tab}`);
  assert.ok(panel.scroll_max_y > 0, `${tab}: nothing to scroll`);
  const c = centre(panel.rect);
  await pg.page.mouse.move(c.x, c.y);
  for (let i = 0; i < 3; i++) {
    await pg.page.mouse.wheel(0, 100);
    await waitFrames(pg.page, 2);
  }
  const after = await drawn(pg.page);
  assert.ok(panelOf(after, tab).scroll_y > 0, `${tab}: the wheel did not scroll its panel`);
  assert.deepEqual(tabRect(after, tab), tabRect(before, tab), `${tab}: the tab bar moved`);
  assert.equal(after.windows.find((w) => /\/right_[0-9A-F]+$/.test(w.name)).scroll_y, 0);
}

test('phenomena: the Delta_F heat map labels its rows and colour bar', T, async () => {
    await runPreset(pg.page, /20-frequency-principle\.json/, (s) => { s.schedule.steps = 150; s.schedule.record_every = 5; });
    await click(pg.page, 'phenomena', { window: 'right_' });
    const d = await drawn(pg.page);
    const h = d.heatmaps.find((m) => m.id === '##fp_heat');
    assert.ok(h, 'no Delta_F heat map in the trace');
    assert.deepEqual([h.rows, h.cols, h.texture_w, h.texture_h], [3, 31, 31, 3]);  // peaks x records 0, 5, ..., 150
    assert.deepEqual(h.labels, ['k = 1', 'k = 3', 'k = 5', '0', '>= 1', 'step 0', '150']);
    // What the rows show: at the last record k = 1 is fitted (dark), k = 5 is not yet (light).
    const last = (r) => h.values[r * h.cols + h.cols - 1];
    assert.ok(last(0) < 0.1 && last(2) > 0.5, `Delta_F(1) ${last(0)}, Delta_F(5) ${last(2)}`);
    await screenshot(pg.page, 'tabs-phenomena');
    assert.deepEqual(pg.errors, []);
});

// The phase-map preset's pictures are taller than the panel (shortened to two widths, one point: seconds).
const runPhaseMap = () => runPreset(pg.page, /23-phase-diagram/, (s) => {
  s.sweep.width = [50, 100];
  s.sweep.phase_points = [[0.5, 0]];
  s.schedule.steps = 500;
});

test('phenomena: the wheel scrolls the tab under the tab bar', T, async () => {
  await runPhaseMap();
  await click(pg.page, 'phenomena', { window: 'right_' });
  await wheelKeepsTabs('phenomena');
  await screenshot(pg.page, 'tabs-phenomena-scrolled');
  assert.deepEqual(pg.errors, []);
});

// The chapter-13 sweep, shortened to 8 steps and 400 sequences (3 gammas x 3 weight decays): what it shows is which
// run the picker opens on, not the phases.
test('anchor: opens on the telling run; layer and head count from 1; the wheel scrolls under the tab bar', T,
  async () => {
    const results = await runPreset(pg.page, /31-anchor-gamma-sweep/, (s) => {
      Object.assign(s.task, { train_size: 400, test_size: 100 });
      s.task.anchor.ood_test_size = 100;
      Object.assign(s.schedule, { steps: 8, record_every: 8 });
      s.sweep.weight_decay = [0, 0.01, 0.1];  // three rows of the phase plot: the tab's content outgrows the panel
    });
    const ood = results.runs.map((r) => r.series.ood_accuracy.at(-1));
    let best = 0;
    for (let i = 1; i < ood.length; i++)
      if (ood[i] > ood[best] || (ood[i] === ood[best] && results.runs[i].gamma >= results.runs[best].gamma)) best = i;
    assert.notEqual(best, 0, `the first member is also the telling one (${ood}): the test could not fail`);
    await click(pg.page, 'anchor', { window: 'right_' });
    let d = await drawn(pg.page);
    assert.match(d.items.find((i) => i.label === 'run').value, new RegExp(` gamma=${results.runs[best].gamma} `));
    const layer = d.items.find((i) => i.label === 'layer');
    assert.equal(layer.value, '1');
    assert.equal(d.items.find((i) => i.label === 'head').value, '1');
    let attention = d.heatmaps.find((m) => m.id === '##attention');
    assert.equal(attention.title, 'attention, layer 1 head 1');
    assert.deepEqual([attention.rows, attention.cols, attention.texture_w, attention.texture_h], [9, 9, 9, 9]);
    const wq = d.heatmaps.find((m) => m.id === '##wq_cosine');
    assert.deepEqual([wq.rows, wq.texture_w, wq.texture_h], [32, 32, 32]);  // d_model 32
    assert.deepEqual(wq.labels, ['-1', '+1']);
    // Drag the layer slider to its right end: the last of the preset's 2 layers.
    const [x0, y0, x1, y1] = layer.rect;
    await pg.page.mouse.move(x0 + 5, (y0 + y1) / 2);
    await waitFrames(pg.page, 2);
    await pg.page.mouse.down();
    await waitFrames(pg.page, 2);
    await pg.page.mouse.move(x1 + 20, (y0 + y1) / 2, { steps: 4 });
    await waitFrames(pg.page, 2);
    await pg.page.mouse.up();
    await waitFrames(pg.page, 3);
    d = await drawn(pg.page);
    assert.equal(d.items.find((i) => i.label === 'layer').value, '2');
    attention = d.heatmaps.find((m) => m.id === '##attention');
    assert.equal(attention.title, 'attention, layer 2 head 1');
    await screenshot(pg.page, 'tabs-anchor');
    await wheelKeepsTabs('anchor');
    await screenshot(pg.page, 'tabs-anchor-scrolled');
    assert.deepEqual(pg.errors, []);
  });

test('both tabs at 1024 x 768', T, async () => {
  await pg.page.setViewportSize({ width: 1024, height: 768 });
  await waitFrames(pg.page, 3);
  await click(pg.page, 'anchor', { window: 'right_' });
  await screenshot(pg.page, 'tabs-anchor-1024');
  await wheelKeepsTabs('anchor');
  await runPreset(pg.page, /20-frequency-principle\.json/, (s) => { s.schedule.steps = 150; s.schedule.record_every = 5; });
  await click(pg.page, 'phenomena', { window: 'right_' });
  const h = (await drawn(pg.page)).heatmaps.find((m) => m.id === '##fp_heat');
  assert.ok(h.rect[2] - h.rect[0] > 100, `Delta_F heat map ${h.rect}`);
  await screenshot(pg.page, 'tabs-phenomena-1024');
  await runPhaseMap();
  await click(pg.page, 'phenomena', { window: 'right_' });
  await wheelKeepsTabs('phenomena');
  await screenshot(pg.page, 'tabs-phenomena-scrolled-1024');
  assert.deepEqual(pg.errors, []);
});
