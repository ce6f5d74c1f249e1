// The plots' axes as a projected room sees them (issue: "Axes hide or distort the data"), read off the frame trace
// (web/draw/drawn.hpp) after real clicks and mouse moves: ticks at the swept widths on "vs width", powers of two on the
// learning-rate axis, every point inside the frame with a margin, a log y axis spanning at least a decade (μP's flat
// lines stay flat), three or more labelled ticks in one number format, near the data; reference slopes through the
// data's centre; hover rows that name their curve and both axes; η* explained and flagged at the grid's edge;
// accuracies on a linear axis by default. Presets are shortened to seconds. Screenshots at 1280 x 800:
// build/screenshots/plot-axes-*.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { clickImGui, openPlayground, runPreset, screenshot, waitFrames } from './harness.mjs';
import { centre, click, drawn, findItem, hover, plots } from './ui_driver.mjs';

const T = { timeout: 600_000 };
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const log10 = Math.log10;
const call = async (name, ...args) =>
  JSON.parse(await pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]));

// Where a data value falls along an axis, 0 at its low end, 1 at its high end.
const fraction = (axis, v) => (axis.log ? (log10(v) - log10(axis.lo)) / (log10(axis.hi) - log10(axis.lo))
  : (v - axis.lo) / (axis.hi - axis.lo));

// Every point of `curves` lies inside the plot's extent with a margin of 2% of the axis on each side.
function assertInside(plot, curves) {
  let points = 0;
  for (const c of curves) {
    c.x.forEach((x, i) => {
      const y = c.y[i];
      if (x === null || y === null || (plot.y.log && y <= 0)) return;
      for (const [axis, v] of [[plot.x, x], [plot.y, y]]) {
        const f = fraction(axis, v);
        const where = `${c.label}: ${axis.label} = ${v} at ${f.toFixed(3)} of [${axis.lo}, ${axis.hi}]`;
        assert.ok(f >= 0.02 && f <= 0.98, where);
      }
      points++;
    });
  }
  assert.ok(points > 0, 'no points checked');
}

// Three or more ticks, one number format (all plain decimals, all "2e-5", or all "2^k"), and on a log axis a labelled
// tick within half a decade of the lowest and of the highest value shown.
function assertLabelled(axis) {
  assert.ok(axis.ticks.length >= 3, `${axis.label}: ticks ${axis.ticks}`);
  for (const v of axis.tick_values) assert.ok(v >= axis.lo && v <= axis.hi, `${axis.label}: tick ${v} outside`);
  const formats = [/^-?\d+(\.\d+)?$/, /^-?\d+(\.\d+)?e-?\d+$/, /^2\^-?\d+$/];
  assert.ok(formats.some((f) => axis.ticks.every((t) => f.test(t))), `${axis.label}: mixed formats ${axis.ticks}`);
  if (!axis.log) return;
  for (const v of [axis.data_lo, axis.data_hi]) {
    const nearest = Math.min(...axis.tick_values.map((t) => Math.abs(log10(t / v))));
    assert.ok(nearest <= 0.5, `${axis.label}: ${v} is ${nearest.toFixed(2)} decades from a label (${axis.ticks})`);
  }
}

// The page x of a data value along the plot's x axis.
const pageX = (plot, x) => plot.frame[0] + fraction(plot.x, x) * (plot.frame[2] - plot.frame[0]);

test('vs width: ticks at the widths, dots, a margin, a decade of y, reference slopes, named hover', T, async () => {
  const { page } = pg;
  const widths = [32, 64, 128, 256, 512, 1024];
  await runPreset(page, /10-coord-check-mup/, (s) => {
    s.schedule.steps = 1;
    s.sweep.width = widths;
    s.sweep.seeds = [0];
  });
  await click(page, 'vs width');
  let [plot] = await plots(page, /vs width/);
  assert.deepEqual(plot.x.ticks, widths.map(String));
  const view = await call('muplay_width_view');
  assert.equal(view.curves.length, 3);
  assert.equal(plot.markers, 3 * widths.length, 'a dot at every width of every layer');
  assertInside(plot, view.curves);
  assert.ok(log10(plot.y.hi / plot.y.lo) >= 1, `y spans ${plot.y.lo}..${plot.y.hi}: less than a decade`);
  assertLabelled(plot.y);

  await click(page, 'reference slopes');
  [plot] = await plots(page, /vs width/);
  const refs = plot.notes.filter((n) => n.startsWith('reference '));
  assert.deepEqual(refs.map((n) => n.split(':')[0]),
    ['reference n^0', 'reference n^1/2', 'reference n^-1/2', 'reference n^1']);
  // Through the data's centre: the geometric middle of the widths and of the values shown.
  const [cx, cy] = refs[0].match(/through \(([^,]+), ([^)]+)\)/).slice(1).map(Number);
  assert.ok(Math.abs(log10(cx / Math.sqrt(32 * 1024))) < 0.01, refs[0]);
  assert.ok(Math.abs(log10(cy / Math.sqrt(plot.y.data_lo * plot.y.data_hi))) < 0.01, refs[0]);

  const rows = await hover(page, pageX(plot, 256), (plot.frame[1] + plot.frame[3]) / 2);
  assert.equal(rows.length, 3, JSON.stringify(rows));
  for (const row of rows) assert.match(row, /^act_delta_rms\/(h1|h2|f): width n = 256, act_delta_rms = [\d.e+-]+$/);
  await screenshot(page, 'plot-axes-vs-width');
});

test('vs learning rate: powers of two, eta* explained, every hover row named', T, async () => {
  const { page } = pg;
  const grid = [-6, -5, -4, -3, -2, -1, 0, 1];  // log2 of the learning rates swept
  await runPreset(page, /14-lr-transfer-toy-mup/, (s) => {
    s.schedule.steps = 30;
    s.sweep.width = [32, 64, 128];
    s.sweep.lr = grid.map((k) => 2 ** k);
  });
  await click(page, 'vs learning rate');
  const [plot] = await plots(page, /vs learning rate/);
  assert.deepEqual(plot.x.ticks, grid.map((k) => `2^${k}`));
  plot.x.tick_values.forEach((v, i) => assert.ok(Math.abs(Math.log2(v) - grid[i]) < 1e-9, `tick ${v}`));
  const curves = (await call('muplay_view_curves', 'lr', '', 0)).curves;
  assertInside(plot, curves);
  assertLabelled(plot.y);
  assert.ok(plot.legend.some((r) => /eta\* = vertex of a parabola/.test(r)), JSON.stringify(plot.legend));

  // Over the grid's middle: a row per width and per eta* dot, each naming its curve, lr and the loss.
  const rows = await hover(page, pageX(plot, 0.25), (plot.frame[1] + plot.frame[3]) / 2);
  assert.equal(rows.length, 6, JSON.stringify(rows));
  const named = /^n=\d+( eta\* \([a-z ]+\))?: learning rate = [\d.e+-]+, mean train loss = [\d.e+-]+$/;
  for (const row of rows) assert.match(row, named);
  assert.ok(rows.some((r) => / eta\* \(parabola vertex\): /.test(r)), JSON.stringify(rows));
  await screenshot(page, 'plot-axes-vs-lr');
});

test('vs learning rate: a minimum at the grid edge is flagged in the legend and the hover', T, async () => {
  const { page } = pg;
  // The grid stops at 2^-3, below every width's eta* (about 2^-1): each minimum sits at the grid's last point.
  await runPreset(page, /14-lr-transfer-toy-mup/, (s) => {
    s.schedule.steps = 30;
    s.sweep.width = [32, 64];
    s.sweep.lr = [2 ** -6, 2 ** -5, 2 ** -4, 2 ** -3];
  });
  await click(page, 'vs learning rate');
  const [plot] = await plots(page, /vs learning rate/);
  const widthRows = plot.legend.filter((r) => /^n=\d+ /.test(r));
  assert.equal(widthRows.length, 2, JSON.stringify(plot.legend));
  for (const r of widthRows) assert.match(r, /eta\*=2\^-3\.00 \(0\.125\) at grid edge$/);
  assert.ok(plot.legend.some((r) => /widen the grid/.test(r)), JSON.stringify(plot.legend));
  const rows = await hover(page, pageX(plot, 2 ** -3), (plot.frame[1] + plot.frame[3]) / 2);
  const flagged = rows.filter((r) => / eta\* \(at grid edge\): learning rate = 0\.125,/.test(r));
  assert.equal(flagged.length, 2, JSON.stringify(rows));
});

// Picks `metric` in the vs step view's combo with the mouse.
async function chooseMetric(page, metric) {
  await click(page, 'metric');
  await click(page, metric);
  await waitFrames(page, 2);
}

test('vs step: an accuracy starts on a linear axis, a loss on a log one; the checkbox overrides', T, async () => {
  const { page } = pg;
  await runPreset(page, /03-sectors-adam/, (s) => {
    s.schedule.steps = 40;
    s.sweep.width = [16, 64];
  });
  await click(page, 'vs step');
  await chooseMetric(page, 'test_accuracy');
  let [plot] = await plots(page, /^test_accuracy vs step/);
  assert.equal(plot.y.log, false, 'test_accuracy on a log axis');
  assert.equal((await findItem(page, 'log y')).checked, false);
  assertLabelled(plot.y);
  const curves = (await call('muplay_view_curves', 'step', 'test_accuracy', 0)).curves;
  assertInside(plot, curves);
  await screenshot(page, 'plot-axes-vs-step-accuracy');

  await chooseMetric(page, 'train_loss');
  [plot] = await plots(page, /^train_loss vs step/);
  assert.equal(plot.y.log, true, 'train_loss on a linear axis');
  assertLabelled(plot.y);
  const box = (await findItem(page, 'log y')).rect;
  await clickImGui(page, centre(box).x, centre(box).y);
  [plot] = await plots(page, /^train_loss vs step/);
  assert.equal(plot.y.log, false, 'the checkbox did not switch the axis');
  assertLabelled(plot.y);
  await screenshot(page, 'plot-axes-vs-step');
  assert.deepEqual(pg.errors, []);
});
