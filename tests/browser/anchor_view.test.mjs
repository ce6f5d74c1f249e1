// Transformer presets train in the page and the "anchor" tab draws them: a shortened identity run (its loss falls),
// then the tab's attention map (read from the frame trace: the causal mask's upper triangle exactly 0), W_Q cosine
// matrix and embedding PCA; then a shortened two-anchor sweep over gamma x weight decay fills the 2 x 2 phase plot
// (the trace's cells are the runs' final OOD accuracies).
// Screenshots: build/screenshots/anchor-identity.png, anchor-phase.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, runPreset, screenshot } from './harness.mjs';
import { click, drawn } from './ui_driver.mjs';

const T = { timeout: 600_000 };
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

// The attention map of the last frame (its cells, as drawn) and how many of them are exactly 0.
async function attention() {
  const h = (await drawn(pg.page)).heatmaps.find((m) => m.id === '##attention');
  assert.ok(h, 'no attention map in the trace');
  return { ...h, zeros: h.values.filter((v) => v === 0).length };
}
const showAnchorTab = () => click(pg.page, 'anchor', { window: 'right_' });

test('identity trains in the page and the anchor tab draws attention, W_Q cosines and the embedding PCA', T, async () => {
  const results = await runPreset(pg.page, /30-anchor-identity/, (s) => { s.schedule.steps = 40; s.schedule.record_every = 20; });
  const loss = results.runs[0].series.train_loss;
  assert.equal(results.runs[0].series.id_accuracy.length, 3);
  assert.ok(loss.at(-1) < loss[0], JSON.stringify(loss));
  assert.equal((await drawn(pg.page)).heatmaps.length, 0);  // the "vs step" tab draws none
  await showAnchorTab();
  await screenshot(pg.page, 'anchor-identity');
  const map = await attention();
  // 9 x 9 attention map as one texture: its 36 masked cells (above the diagonal) exactly 0, each row summing to 1.
  assert.deepEqual([map.rows, map.cols, map.texture_w, map.texture_h], [9, 9, 9, 9]);
  for (let q = 0; q < 9; q++) {
    for (let k = q + 1; k < 9; k++) assert.equal(map.values[q * 9 + k], 0, `query ${q}, key ${k}`);
    const sum = map.values.slice(q * 9, q * 9 + 9).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-9, `row ${q} sums to ${sum}`);
  }
  const d = await drawn(pg.page);
  assert.ok(d.heatmaps.some((m) => m.id === '##wq_cosine'), 'no W_Q cosine matrix');
  assert.deepEqual(pg.errors, []);
});

// The masking control on the identity run the test above left on screen (layer 1, head 1, sequence 0, whose anchor
// 3 sits at position 2 and key at 3): cutting the head's attention to the key zeroes the key's column from its own
// row down (7 of the 9 x 9 cells: 6 below the diagonal and the key's own), so the map gains zero cells; "measure"
// runs the cut over the test set. Screenshots: build/screenshots/anchor-cut.png, anchor-cut-measured.png.
test('the anchor tab cuts a head\'s attention to the key and measures the cut', T, async () => {
  const intact = await attention();
  await click(pg.page, 'cut its attention to');
  const cut = await attention();
  await screenshot(pg.page, 'anchor-cut');
  assert.equal(cut.title, 'attention, layer 1 head 1, cut');
  assert.ok(cut.zeros >= intact.zeros + 6, `zero cells ${intact.zeros} -> ${cut.zeros}`);
  await click(pg.page, 'measure the cut on this set');
  await screenshot(pg.page, 'anchor-cut-measured');
  await click(pg.page, 'cut its attention to');  // off again for the tests below
  const back = await attention();
  assert.equal(back.zeros, intact.zeros);
  assert.deepEqual(pg.errors, []);
});

test('a gamma x weight-decay sweep fills the phase plot', T, async () => {
  const results = await runPreset(pg.page, /31-anchor-gamma-sweep/, (s) => {
    Object.assign(s.task, { train_size: 400, test_size: 100 });
    s.task.anchor.ood_test_size = 100;
    Object.assign(s.schedule, { steps: 8, record_every: 8 });
    s.sweep.gamma = [0.2, 0.8];
    s.sweep.weight_decay = [0, 0.01];
  });
  assert.equal(results.runs.length, 4);
  for (const r of results.runs) assert.equal(r.series.ood_accuracy.length, 2);
  await showAnchorTab();
  await screenshot(pg.page, 'anchor-phase');
  const phase = (await drawn(pg.page)).heatmaps.find((m) => m.id === '##phase');
  assert.ok(phase, 'no phase plot in the trace');
  // A column per gamma, a row per weight decay (the largest at the top); each cell the run's final OOD accuracy.
  assert.deepEqual([phase.rows, phase.cols, phase.labels], [2, 2, ['0.2', '0.8', 'wd 0', 'wd 0.01']]);
  for (const r of results.runs) {
    const cell = (r.weight_decay === 0.01 ? 0 : 2) + (r.gamma === 0.8 ? 1 : 0);
    assert.equal(phase.values[cell], r.series.ood_accuracy.at(-1), `gamma ${r.gamma}, weight decay ${r.weight_decay}`);
  }
  assert.deepEqual(pg.errors, []);
});

// A chapter-12 task preset from the page, shortened to 150 of its 800 steps (tests/unit/test_preset_quotes.cpp checks
// the full run's accuracy natively; here, where the page is drawn in software, it would take minutes): the loss falls
// and the anchor tab draws the attention map of a reading-comprehension sequence. Screenshot:
// build/screenshots/anchor-reading.png.
test('the reading-comprehension preset trains in the page and the anchor tab draws it', T, async () => {
  const results = await runPreset(pg.page, /32-anchor-reading/, (s) => { s.schedule.steps = 150; s.schedule.record_every = 50; });
  const loss = results.runs[0].series.train_loss;
  assert.equal(results.runs[0].series.id_accuracy.length, 4);
  assert.ok(loss.at(-1) < 0.8 * loss[0], JSON.stringify(loss));
  await showAnchorTab();  // a no-op when an earlier test left it open
  await screenshot(pg.page, 'anchor-reading');
  const map = await attention();
  assert.equal(map.rows, map.cols);
  assert.ok(map.zeros >= map.rows * (map.rows - 1) / 2, `${map.zeros} zero cells: the causal mask is not drawn`);
  assert.deepEqual(pg.errors, []);
});
