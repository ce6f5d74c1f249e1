// The "max LR" tab (experiment E1) on a browser-sized version of preset 17-max-lr-mup: widths 32-128, seed 0, the
// preset's 1/4-octave grid 2^1-2^6, T = 10. The view's numbers (muplay_max_lr) must be a curve per width ending at
// that width's eta_max, eta_max inside the grid, and a flat muP slope (|s| <= 0.3 here: one seed, three widths; the
// native engine measures +0.04 over 32-512 with 4 seeds, README "E1"); the screenshot
// (build/screenshots/max-lr-mup.png) must not be blank.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, runPreset, screenshot } from './harness.mjs';
import { click } from './ui_driver.mjs';

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
  const png = await screenshot(pg.page, 'max-lr-mup');
  assert.ok(png.length > 40_000, `screenshot looks blank (${png.length} bytes)`);
});
