// The "max LR" tab (experiment E1) on a browser-sized version of preset 17-max-lr-mup: widths 32-128, seed 0, the
// preset's 1/4-octave grid 2^1-2^6, T = 10. The view's numbers (muplay_max_lr) must be a curve per width ending at
// that width's eta_max, eta_max inside the grid, and a flat muP slope (|s| <= 0.3 here: one seed, three widths; E1 in
// tests/unit/test_width_scaling.cpp checks the slope natively over more widths and seeds); the tab's plots, read
// from the frame trace, draw those curves (screenshot: build/screenshots/max-lr-mup.png).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, runPreset, screenshot } from './harness.mjs';
import { click, plots } from './ui_driver.mjs';

const T = { timeout: 600_000 };
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });


test('max LR view: a curve per width ending at eta_max, muP flat', T, async () => {
  await runPreset(pg.page, /17-max-lr-mup/, (s) => {
    s.sweep.width = [32, 64, 128];
    s.sweep.seeds = [0];
  });
  const view = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_max_lr()));
  console.log(JSON.stringify({ slope: view.slope, max_lr: view.widths?.map((w) => [w.width, w.max_lr]) }));
  assert.equal(view.parametrization, 'mup', JSON.stringify(view));
  assert.equal(view.widths.length, 3);
  for (const w of view.widths) {
    assert.ok(w.max_lr > 2 && w.max_lr < 16, `n=${w.width}: eta_max ${w.max_lr}`);
    assert.ok(w.lrs.length >= 2, `n=${w.width}: ${w.lrs.length} points`);
    assert.ok(Math.abs(w.lrs.at(-1) - w.max_lr) <= 1e-9 * w.max_lr, `n=${w.width}: the curve ends at ${w.lrs.at(-1)}`);
    for (const r of w.loss_ratio) assert.ok(r < 1, `n=${w.width}: L_T/L_0 = ${r} below eta_max`);
  }
  assert.ok(Math.abs(view.slope) <= 0.3, `slope ${view.slope}`);
  await click(pg.page, 'max LR');
  await screenshot(pg.page, 'max-lr-mup');
  // The tab draws those numbers: per width its L_T/L_0 curve up to eta_max and the eta_max marker, then eta_max vs n.
  const [ratio, maxLr] = await plots(pg.page, /eta_max/);
  assert.equal(ratio.curves.length, 2 * view.widths.length);
  for (const [i, w] of view.widths.entries()) {
    const [curve, marker] = ratio.curves.slice(2 * i, 2 * i + 2);
    assert.deepEqual([curve.points, curve.last_x, curve.last_y], [w.lrs.length, w.max_lr, w.loss_ratio.at(-1)]);
    assert.deepEqual([marker.name, marker.points, marker.last_x], [`n=${w.width} eta_max`, 1, w.max_lr]);
  }
  assert.deepEqual(maxLr.curves.map((c) => [c.name, c.points, c.last_x, c.last_y]),
    [['eta_max', 3, 128, view.widths.at(-1).max_lr]]);
});
