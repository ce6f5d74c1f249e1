// The "phenomena" tab on browser-sized versions of presets 20, 23, 24 and 27: the frequency
// principle's order after 150 steps (Delta_F(1) < 0.1 while Delta_F(5) > 0.5; native t1 = 19, t5 = 837), the
// (gamma, gamma') map's S_w signs at points far from the boundaries, choosing a point on the map or among the
// per-point fits, the polar neuron view's paths (preset 24), and screenshots of every picture
// (build/screenshots/phenomena-*.png) that must not be blank.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { clickImGui, openPlayground, runPreset, screenshot } from './harness.mjs';
import { click, drawn, findItem } from './ui_driver.mjs';
import { decodePng } from './png.mjs';

const T = { timeout: 600_000 };
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });


// Shows the tab and returns the frame trace: the tab must have drawn at least one plot or heat map.
async function showPhenomena(name) {
  await click(pg.page, 'phenomena', { window: 'right' });
  await screenshot(pg.page, `phenomena-${name}`);
  const d = await drawn(pg.page);
  assert.ok(d.plots.length + d.heatmaps.length > 0, `${name}: the tab drew no plot and no heat map`);
  return d;
}

test('frequency principle: k = 1 converges long before k = 5', T, async () => {
  const r = await runPreset(pg.page, /20-frequency-principle\.json/, (s) => { s.schedule.steps = 150; s.schedule.record_every = 5; });
  const series = r.runs[0].series;
  const d1 = series['delta_F/k=1'].at(-1), d5 = series['delta_F/k=5'].at(-1);
  assert.ok(d1 < 0.1 && d5 > 0.5, `Delta_F(1) = ${d1}, Delta_F(5) = ${d5} at step 150`);
  await showPhenomena('frequency');
});

test('phase map: S_w < 0 at NTK, > 0 deep in the condensed region', T, async () => {
  await runPreset(pg.page, /23-phase-diagram/, (s) => {
    s.sweep.width = [50, 100, 200];
    s.sweep.seeds = [0];
    s.sweep.phase_points = [[0.5, 0], [1, 0], [2, -0.5], [2, 0], [1.25, 0.75]];
    s.schedule.steps = 10000;
  });
  const slopes = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_phase_slopes()));
  console.log(JSON.stringify(slopes));
  const at = (g, gp) => slopes.find((p) => p.gamma === g && p.gamma_prime === gp);
  assert.ok(at(0.5, 0).slope < 0, JSON.stringify(at(0.5, 0)));
  assert.ok(at(2, -0.5).slope > 0.1, JSON.stringify(at(2, -0.5)));
  assert.equal(at(2, -0.5).theory, 'condensed');
  await showPhenomena('phase-map');
  // Choosing a point: a click on the map's (2, -0.5) dot, then on the (1.25, 0.75) cell of the fits beside it, shows
  // that point's widest run. The map and the fits are drawn below the "run" combo box (found in the frame trace); the
  // offsets from its bottom left are read off a screenshot at 1280 x 800 with the default column widths.
  const chosen = () => pg.page.evaluate(() => window.muplay.muplay_phenomena_run());
  const run = (await findItem(pg.page, 'run', { window: 'right' })).rect;
  await clickImGui(pg.page, run[0] + 318, run[3] + 224);
  assert.match(await chosen(), /^n=200 .*gamma=2 gamma'=-0\.5$/);
  await screenshot(pg.page, 'phenomena-phase-point');
  await clickImGui(pg.page, run[0] + 663, run[3] + 66);
  assert.match(await chosen(), /^n=200 .*gamma=1\.25 gamma'=0\.75$/);
});

test('frequency toggles: ASI starts from f = 0, the gradient loss fits the slope too', T, async () => {
  const asi = await runPreset(pg.page, /28-frequency-principle-asi/, (s) => { s.schedule.steps = 20; });
  // f = 0 at init makes every peak's relative error exactly 1 at step 0
  for (const k of [1, 3, 5]) assert.ok(Math.abs(asi.runs[0].series[`delta_F/k=${k}`][0] - 1) < 1e-12, `k=${k}`);
  const grad = await runPreset(pg.page, /28-frequency-principle-gradient-loss/, (s) => { s.schedule.steps = 100; });
  const slope = grad.runs[0].series.slope_loss;
  // measured: 8.79 -> 4.72 in 100 steps (0.54 of the start)
  assert.ok(slope.at(-1) < 0.75 * slope[0], `slope_loss ${slope[0]} -> ${slope.at(-1)}`);
  await showPhenomena('gradient-loss');
});

test('image: the low part is learned before the high part (filtering method)', T, async () => {
  const r = await runPreset(pg.page, /28-frequency-principle-image/, (s) => { s.schedule.steps = 80; });
  const low = r.runs[0].series['filter/e_low'].at(-1), high = r.runs[0].series['filter/e_high'].at(-1);
  // measured at step 80 (native, the same numbers): e_low 0.39 (from 1.10 at step 0), e_high 0.96 (from 1.00)
  assert.ok(low < 0.5 && high > 0.8, `e_low ${low}, e_high ${high} at step 80`);
  const d = await showPhenomena('image');
  // Target, network and error as one side x side texture each (32 x 32 pixels: train_size 512 = side^2 / 2).
  for (const id of ['##image_target', '##image_network', '##image_error']) {
    const h = d.heatmaps.find((m) => m.id === id);
    assert.ok(h, `no ${id}`);
    assert.deepEqual([h.rows, h.cols, h.texture_w, h.texture_h], [32, 32, 32, 32], id);
  }
});

test('dropout: the condensation preset shows its neurons', T, async () => {
  const r = await runPreset(pg.page, /29-condensation-dropout-with/, (s) => { s.schedule.steps = 300; });
  assert.ok(r.runs[0].series['condensation/share'].length > 1);
  await showPhenomena('dropout');
});

// Pixels of the polar view's path colour (web/neuron_polar.cpp kPathColor) in a screenshot of the phenomena tab.
const PATH_COLOUR = (80 << 16) | (170 << 8) | 255;
async function pathPixels(name) {
  await click(pg.page, 'phenomena', { window: 'right' });
  const png = decodePng(await screenshot(pg.page, `phenomena-${name}`));
  let matches = 0;
  for (let i = 0; i < png.width * png.height; i++) {
    const j = i * png.channels;
    if (((png.data[j] << 16) | (png.data[j + 1] << 8) | png.data[j + 2]) === PATH_COLOUR) matches++;
  }
  return matches;
}

// The book's polar neuron view (Fig. 8.2-8.3): without the metric neuron_paths the view has init and now only (no
// pixel of the path colour); with it, 100 paths through 25 records (measured 0 and 2 555 pixels at 1280 x 800,
// 2026-11-25; screenshots build/screenshots/phenomena-condensation*.png).
test('condensation: the polar neuron view draws paths, beside the loss and the sorted cosine matrix', T, async () => {
  await runPreset(pg.page, /24-condensation/, (s) => {
    s.schedule.steps = 600;
    s.metrics = s.metrics.filter((m) => m !== 'neuron_paths');
  });
  const control = await pathPixels('condensation-no-paths');
  const r = await runPreset(pg.page, /24-condensation/, (s) => { s.schedule.steps = 600; });
  assert.equal(r.runs[0].series['neuron_paths/0/angle'].length, 25);  // steps 0, 25, ..., 600
  const drawn = await pathPixels('condensation');
  console.log(`path-colour pixels: ${control} without neuron_paths, ${drawn} with`);
  assert.equal(control, 0);
  assert.ok(drawn > 300, `${drawn} pixels of the path colour`);
});

test('edge of stability: sharpness against 2/eta', T, async () => {
  await runPreset(pg.page, /27-edge-of-stability/, (s) => { s.schedule.steps = 300; });
  await showPhenomena('edge-of-stability');
  assert.deepEqual(pg.errors, []);
});
