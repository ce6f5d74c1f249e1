// Every view tab at the two sizes a lecture is shown at (1280×800, and 1024×768: a common projector), each with a
// preset that fills it, reached with the mouse (the tab clicked by its label). What each tab is for must be drawn
// (checked through the frame trace, web/draw/drawn.hpp), and a screenshot of each lands in
// build/screenshots/tab-<tab>-<width>x<height>.png to be looked at.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, runPreset, screenshot, waitFrames } from './harness.mjs';
import { click, drawn } from './ui_driver.mjs';

const T = { timeout: 900_000 };
const SIZES = [{ width: 1280, height: 800 }, { width: 1024, height: 768 }];
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const hasData = (p) => p.x.ticks.length >= 2 && p.y.ticks.length >= 2;

// tab: its label; preset: the one that fills it, shortened by edit; shows(d): what must be drawn there.
const TABS = [
  { tab: 'vs step', preset: /01-sp-vs-mup-toy/, edit: (s) => { s.schedule.steps = 30; },
    shows: (d) => d.plots.some((p) => /vs step/.test(p.title) && hasData(p) && p.legend.length >= 5) },
  { tab: 'vs width', preset: /10-coord-check-mup/, edit: (s) => { s.schedule.steps = 3; },
    shows: (d) => d.plots.some((p) => /vs width/.test(p.title) && hasData(p)) },
  { tab: 'vs learning rate', preset: /14-lr-transfer-toy-mup/, edit: (s) => { s.schedule.steps = 20; },
    shows: (d) => d.plots.some((p) => /learning rate/.test(p.x.label) && hasData(p)) },
  { tab: 'vs depth', preset: /14-lr-transfer-toy-mup/, edit: (s) => {  // made a residual MLP swept over depth and lr
    s.model = { kind: 'residual_mlp', widths: [32], depth: 2 };
    s.parametrization = { preset: 'mup', depth_rule: 'depth_mup' };
    s.optimizer = { kind: 'sgd' };
    s.schedule = { steps: 40, record_every: 20, batch_size: 16 };
    s.sweep = { depth: [2, 4, 8, 16], lr: [0.125, 0.25, 0.5, 1, 2, 4], seeds: [0] };
    s.metrics = ['train_loss', 'batch_loss_mean', 'act_delta_rms'];
  }, shows: (d) => d.plots.some((p) => / vs depth L /.test(p.title) && hasData(p)) },
  { tab: 'embeddings', preset: /16-word-embedding-mup/, edit: () => {},
    shows: (d) => d.items.some((i) => i.visible && i.window.includes('right')) },
  { tab: 'phenomena', preset: /20-frequency-principle\.json/, edit: (s) => { s.schedule.steps = 100; },
    shows: (d) => d.plots.filter((p) => hasData(p)).length >= 3 },
  { tab: 'anchor', preset: /30-anchor-identity/, edit: (s) => { s.schedule.steps = 10; s.schedule.record_every = 5; },
    shows: (d) => d.items.some((i) => i.label === 'run' && i.visible) },
  { tab: 'parametrization', preset: /10-coord-check-mup/, edit: (s) => { s.schedule.steps = 1; },
    shows: (d) => d.items.filter((i) => i.visible && i.window.includes('right')).length >= 5 },
  { tab: 'max LR', preset: /17-max-lr-mup/, edit: (s) => { s.sweep.width = [32, 64]; s.sweep.lr = s.sweep.lr.slice(0, 12); },
    shows: (d) => d.plots.filter((p) => hasData(p)).length >= 1 },
];

for (const { tab, preset, edit, shows } of TABS) {
  test(`the ${tab} tab draws what it is for at both sizes`, T, async () => {
    await pg.page.setViewportSize(SIZES[0]);
    await waitFrames(pg.page, 2);
    await runPreset(pg.page, preset, edit);
    for (const size of SIZES) {
      await pg.page.setViewportSize(size);
      await waitFrames(pg.page, 3);
      await click(pg.page, tab, { window: 'right' });  // the spec editor has a field named 'anchor'
      await waitFrames(pg.page, 3);
      const d = await drawn(pg.page);
      const name = `tab-${tab.replace(/ /g, '-').toLowerCase()}-${size.width}x${size.height}`;
      await screenshot(pg.page, name);
      assert.ok(shows(d), `${name}: the ${tab} tab does not draw what it is for`);
      // The whole page fits the window: no panel reaches past its bottom or right edge.
      for (const w of d.windows.filter((w) => !w.name.includes('##'))) {
        assert.ok(w.rect[2] <= size.width + 0.5 && w.rect[3] <= size.height + 0.5, `${name}: ${w.name} ${w.rect}`);
      }
    }
    assert.deepEqual(pg.errors, []);
  });
}
