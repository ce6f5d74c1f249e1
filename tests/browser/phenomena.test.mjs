// The "phenomena" tab on browser-sized versions of presets 20, 23, 24 and 27: the frequency
// principle's order after 150 steps (Delta_F(1) < 0.1 while Delta_F(5) > 0.5; native t1 = 19, t5 = 837), the
// (gamma, gamma') map's S_w signs at points far from the boundaries, choosing a point on the map or among the
// per-point fits, the neuron view of presets 24 and 29 and the sharpness plot of preset 27 read back from the frame
// trace (web/draw/drawn.hpp), and screenshots of every picture (build/screenshots/phenomena-*.png). The view draws the
// net that trained, whatever its options (biases, ASI, float32, residual blocks, the activation's parameter): on
// preset 20 with 64 points, half the mean squared gap of its "network" curve to the target is the run's own final
// train loss.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { clickImGui, openPlayground, runPreset, screenshot } from './harness.mjs';
import { click, drawn, findItem } from './ui_driver.mjs';

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

// Every option of the MLP that the view takes: the drawn net is the member's own (a view that rebuilt the net by hand
// drew a net with biases as another function, and a residual one without its skips).
const MLP_OPTIONS = {
  biases: (s) => { s.model.biases = true; },
  asi: (s) => { s.model.asi = true; },
  float32: (s) => { s.precision = 'float32'; },
  residual: (s) => { s.model.kind = 'residual_mlp'; s.model.widths = [64]; s.model.depth = 3; },
  'sin activation, a = 2': (s) => { s.model.activation = 'sin'; s.model.activation_param = 2; },
};
for (const [option, change] of Object.entries(MLP_OPTIONS)) {
  test(`the frequency principle view draws the net that trained: ${option}`, T, async () => {
    const r = await runPreset(pg.page, /20-frequency-principle\.json/, (s) => {
      change(s);
      s.task.train_size = 64;  // every point of the curves in the frame trace (at most 64 per curve)
      s.schedule.steps = 200;
      s.schedule.record_every = 200;
    });
    const d = await showPhenomena(`fp-${option.split(' ')[0]}`);
    const fit = d.plots.find((p) => p.title === 'target and network on the train grid');
    assert.ok(fit, d.plots.map((p) => p.title).join(', '));
    const curve = (name) => fit.curves.find((c) => c.name === name);
    const net = curve('network').y, target = curve('target').y;
    assert.equal(net.length, 64);
    const drawnLoss = net.reduce((sum, y, i) => sum + (y - target[i]) ** 2, 0) / (2 * net.length);
    const trained = r.runs[0].series.train_loss.at(-1);
    assert.ok(Math.abs(drawnLoss - trained) <= 1e-9 * trained + 1e-15,
              `${option}: the drawn net's loss ${drawnLoss} is not the run's ${trained}`);
  });
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

// The neuron view of the run the tab shows, from the frame trace: the polar view's curves by name (a path per
// neuron, "init", "now"), its loss plot and cosine matrix.
async function neuronView(name) {
  const d = await showPhenomena(name);
  const polar = d.plots.find((p) => p.id === '##neurons');
  assert.ok(polar, `${name}: no polar neuron view`);
  const curves = Object.fromEntries(polar.curves.map((c) => [c.name, c]));
  return { d, paths: polar.curves.filter((c) => c.name.startsWith('path ')), init: curves.init, now: curves.now,
    loss: d.plots.find((p) => p.id === '##neuron_loss').curves[0], cosine: d.heatmaps.find((m) => m.id === '##cosine') };
}

// What the view draws is the run's: every neuron now, the loss curve through each record to its last value, the
// 100 x 100 cosine matrix within [-1, 1] with its diagonal at 1.
function assertNeuronsOf(view, run, width) {
  assert.equal(view.now.points, width);
  const loss = run.series.train_loss;
  assert.deepEqual([view.loss.points, view.loss.last_y], [loss.length, loss.at(-1)]);
  assert.deepEqual([view.cosine.rows, view.cosine.cols], [width, width]);
  assert.ok(view.cosine.lo >= -1 - 1e-12 && Math.abs(view.cosine.hi - 1) < 1e-12, `${view.cosine.lo}..${view.cosine.hi}`);
}

test('dropout: the condensation preset shows its neurons', T, async () => {
  const r = await runPreset(pg.page, /29-condensation-dropout-with/, (s) => { s.schedule.steps = 300; });
  const share = r.runs[0].series['condensation/share'];
  assert.equal(share.length, 16);  // steps 0, 20, ..., 300
  const view = await neuronView('dropout');
  assertNeuronsOf(view, r.runs[0], 100);
  assert.equal(view.paths.length, 0, 'paths drawn without the metric neuron_paths');
});

// The book's polar neuron view (Fig. 8.2-8.3): without the metric neuron_paths the view has init and now only; with
// it, a path per neuron through its 25 records, ending where the neuron is now (screenshots
// build/screenshots/phenomena-condensation*.png).
test('condensation: the polar neuron view draws paths, beside the loss and the sorted cosine matrix', T, async () => {
  await runPreset(pg.page, /24-condensation/, (s) => {
    s.schedule.steps = 600;
    s.metrics = s.metrics.filter((m) => m !== 'neuron_paths');
  });
  const control = await neuronView('condensation-no-paths');
  assert.deepEqual([control.paths.length, control.init.points, control.now.points], [0, 100, 100]);
  const r = await runPreset(pg.page, /24-condensation/, (s) => { s.schedule.steps = 600; });
  const view = await neuronView('condensation');
  assertNeuronsOf(view, r.runs[0], 100);
  assert.equal(view.paths.length, 100);
  for (const [k, path] of view.paths.entries()) {
    const angle = r.runs[0].series[`neuron_paths/${k}/angle`];
    assert.equal(angle.length, 25);  // steps 0, 25, ..., 600
    assert.equal(path.points, 25, path.name);
    assert.equal(path.last_x, angle.at(-1), path.name);
  }
  // Every path ends at its neuron's point now (the last one drawn: the last neuron's).
  assert.ok(Math.abs(view.paths.at(-1).last_x - view.now.last_x) < 1e-9);
  assert.ok(Math.abs(view.paths.at(-1).last_y - view.now.last_y) < 1e-9);
});

test('edge of stability: sharpness against 2/eta', T, async () => {
  const r = await runPreset(pg.page, /27-edge-of-stability/, (s) => { s.schedule.steps = 300; });
  const d = await showPhenomena('edge-of-stability');
  const plot = d.plots.find((p) => p.id === '##sharpness');
  assert.ok(plot, 'no sharpness plot');
  // Each run's 2/eta line across its records' steps, drawn first (under the curves: at the edge of stability the
  // sharpness rides on it), then a sharpness curve per run through its records.
  assert.equal(plot.curves.length, 2 * r.runs.length);
  const n = r.runs.length;
  for (const [i, run] of r.runs.entries()) {
    const [limit, sharpness] = [plot.curves[i], plot.curves[n + i]];
    const series = run.series.sharpness;
    assert.deepEqual([sharpness.points, sharpness.last_y], [series.length, series.at(-1)], sharpness.name);
    assert.deepEqual([limit.points, limit.last_x, limit.last_y], [2, 300, 2 / run.lr], limit.name);
    assert.equal(limit.name, sharpness.name.replace(/^sharpness /, '2/eta, '));
  }
  assert.deepEqual(pg.errors, []);
});
