// The "vs depth" tab (web/views/depth_view.hpp) and the explorer's depth exponents (web/views/depth_exponents.hpp), driven as a
// person would: each residual-MLP spec is opened with the page's file picker, trained with the Run button, and the
// tabs, radio buttons, combo boxes and the record slider are clicked with the mouse (tests/browser/ui_driver.mjs).
// What the page drew is read from its frame trace (web/draw/drawn.hpp) and checked against the result document of the
// same runs (window.muplay.muplay_get_results): the curves' points, the slopes in the legend, the η* dots and their
// parabolas, the rings of η* at a grid's edge. On the sin toy at n = 32, L = 2 … 16, SGD:
// - quantity vs L (a depth sweep, 2 seeds, 3 steps at η 0.5): the last stream's change at the last step is the
//   geometric mean over seeds of act_delta_rms/h{L+1} at each depth; under Depth-μP it is flat (|slope| < 0.2, D2's
//   shape; measured −0.01);
// - η* vs L (a depth × lr sweep, an octave grid 1/8 … 4, 40 steps of batch 16, one seed): the page trains Depth-μP,
//   and the standard rule's result file (trained first, by the same page) is imported beside it. Depth-μP's η* stays
//   put (|slope| ≤ 0.3; measured +0.06), the standard rule's falls (slope ≤ −0.5; measured −1.44), and its deepest
//   net's minimum is at the grid's first learning rate: ringed, and named in the plot's note.
// Screenshots: build/screenshots/depth-*.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { clickImGui, loglogSlope, openPlayground, screenshot, waitFrames } from './harness.mjs';
import { centre, click, drawn, findItem, plots, typeInto } from './ui_driver.mjs';

const T = { timeout: 600_000 };
const DEPTHS = [2, 4, 8, 16];
const LRS = [0.125, 0.25, 0.5, 1, 2, 4];
const FIELDS = { window: 'fields' };
const COMBO = { window: '##Combo' };

const residual = (name, rule, rest) => ({
  version: 1, name, model: { kind: 'residual_mlp', widths: [32], depth: 2 },
  parametrization: { preset: 'mup', depth_rule: rule }, optimizer: { kind: 'sgd', lr: 0.5 }, ...rest,
});
const COORD = residual('Depth view: coordinate check', 'depth_mup', {
  task: { train_size: 32, test_size: 16 }, schedule: { steps: 3, record_every: 1 },
  sweep: { depth: DEPTHS, seeds: [0, 1] }, metrics: ['train_loss', 'act_rms', 'act_delta_rms'],
});
const transfer = (rule) => residual(`Depth view: eta* vs L, ${rule}`, rule, {
  task: { train_size: 64, test_size: 16 }, schedule: { steps: 40, record_every: 20, batch_size: 16 },
  sweep: { depth: DEPTHS, lr: LRS, seeds: [0] }, metrics: ['train_loss', 'batch_loss_mean', 'act_delta_rms'],
});

let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const json = async (name) => JSON.parse(await pg.page.evaluate((n) => window.muplay[n](), name));
const pick = (name, value) => pg.page.setInputFiles('#import-file',
  { name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(value)) });

// Opens `spec` with the file picker, trains it with the Run button and returns its result document.
async function openAndRun(spec) {
  await pick(`${spec.name.replace(/\W+/g, '-')}.json`, spec);
  await pg.page.waitForFunction((n) => JSON.parse(window.muplay.muplay_get_spec()).name === n, spec.name);
  assert.equal(await pg.page.evaluate(() => window.muplay.muplay_state()), 'idle');
  const start = Date.now();
  await click(pg.page, 'Run (Space)');
  await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 200_000 });
  console.log(`${spec.name}: ${((Date.now() - start) / 1000).toFixed(1)} s`);
  return json('muplay_get_results');
}

// --- The view's arithmetic, redone from the result document -------------------------------------------------------

const geometricMean = (values) => Math.exp(values.reduce((a, v) => a + Math.log(v), 0) / values.length);
const near = (a, b, rel, what) => assert.ok(Math.abs(a - b) <= rel * Math.abs(b), `${what}: drawn ${a}, data ${b}`);

// Per depth, the geometric mean over seeds of the series `at(L)` at record `record`.
function quantityVsDepth(results, at, record) {
  return DEPTHS.map((L) => geometricMean(results.runs.filter((r) => r.depth === L).map((r) => r.series[at(L)][record])));
}

// η* per depth as engine/analysis/lr_transfer.cpp finds it: the final batch_loss_mean per lr (+inf for a run that did
// not finish), the grid minimum, and the vertex of the parabola in log2(lr) through it and its two neighbours.
function etaPerDepth(results) {
  return DEPTHS.map((L) => {
    const runs = results.runs.filter((r) => r.depth === L).sort((a, b) => a.lr - b.lr);
    const lrs = runs.map((r) => r.lr);
    const losses = runs.map((r) => {
      const v = r.series.batch_loss_mean.at(-1);
      return r.status === 'finished' && Number.isFinite(v) ? v : Infinity;
    });
    const min = losses.indexOf(Math.min(...losses));
    const fit = { depth: L, lrs, losses, min, bestLr: lrs[min], bestLoss: losses[min], bracketed: false,
                  edge: min === 0 || min === lrs.length - 1 };
    if (fit.edge || !Number.isFinite(losses[min - 1]) || !Number.isFinite(losses[min + 1])) return fit;
    const x = [min - 1, min, min + 1].map((i) => Math.log2(lrs[i])), y = [min - 1, min, min + 1].map((i) => losses[i]);
    const d01 = (y[1] - y[0]) / (x[1] - x[0]), d12 = (y[2] - y[1]) / (x[2] - x[1]), d2 = (d12 - d01) / (x[2] - x[0]);
    if (!(d2 > 0)) return fit;
    const vx = 0.5 * (x[0] + x[1]) - d01 / (2 * d2);
    return { ...fit, bestLr: 2 ** vx, bestLoss: y[0] + d01 * (vx - x[0]) + d2 * (vx - x[0]) * (vx - x[1]), bracketed: true };
  });
}

// The slope a legend row prints ("depth_mup n=32 lr=0.5  slope -0.03").
function legendSlope(plot, start) {
  const row = plot.legend.find((r) => r.startsWith(`${start}  `));
  assert.ok(row, `no legend row for ${start}: ${JSON.stringify(plot.legend)}`);
  const m = /slope ([+-]\d+\.\d+)/.exec(row);
  assert.ok(m, `no slope in ${row}`);
  return { row, slope: Number(m[1]) };
}

const SLOPE_PRINTED = 0.0051;  // two decimals

async function depthPlot() {
  const [plot] = await plots(pg.page, / vs depth L \(geometric mean over seeds\)$/);
  assert.ok(plot, 'no quantity-vs-L plot drawn');
  return plot;
}

// --- The tests ---------------------------------------------------------------------------------------------------

test('quantity vs L: the last stream\'s change at the last step, a curve per net, its slope from the data', T, async () => {
  const { page } = pg;
  const results = await openAndRun(COORD);
  await click(page, 'vs depth', { window: 'right' });
  await waitFrames(page, 3);
  let plot = await depthPlot();
  await screenshot(page, 'depth-quantity');
  assert.equal(plot.title, 'act_delta_rms: last stream (h_{L+1}) at step 3 vs depth L (geometric mean over seeds)');
  assert.deepEqual([plot.x.label, plot.x.log, plot.y.log], ['depth L (residual blocks)', true, true]);
  assert.deepEqual(plot.x.ticks, DEPTHS.map(String));
  assert.equal(plot.curves.length, 1, 'one width and one learning rate: one curve');
  const [curve] = plot.curves;
  assert.equal(curve.name, 'depth_mup n=32 lr=0.5');
  const want = quantityVsDepth(results, (L) => `act_delta_rms/h${L + 1}`, 3);
  assert.deepEqual(curve.x, DEPTHS);
  curve.y.forEach((y, i) => near(y, want[i], 1e-9, `L=${DEPTHS[i]}`));
  const { slope } = legendSlope(plot, 'depth_mup n=32 lr=0.5');
  assert.ok(Math.abs(slope - loglogSlope(DEPTHS, want)) <= SLOPE_PRINTED, `${slope} vs ${loglogSlope(DEPTHS, want)}`);
  assert.ok(Math.abs(slope) < 0.2, `Depth-muP: the last stream's change is flat in L (slope ${slope})`);
  assert.ok(plot.notes.some((n) => /^last stream h_\{L\+1\}: the residual stream after the last of the L blocks/.test(n)),
    JSON.stringify(plot.notes));
  console.log(`act_delta_rms last stream at step 3: ${want.map((v) => v.toPrecision(3)).join(', ')}, slope ${slope}`);

  // Another quantity from the combo box, at the first record (the slider's left end): the stream itself at init.
  await click(page, 'quantity##depth');
  await click(page, 'act_rms: last stream (h_{L+1})', COMBO);
  const slider = await findItem(page, 'record##depth');
  await clickImGui(page, slider.rect[0] + 2, centre(slider.rect).y);
  assert.equal((await findItem(page, 'record##depth')).value, 'step 0');
  plot = await depthPlot();
  await screenshot(page, 'depth-quantity-act-rms-step0');
  assert.match(plot.title, /^act_rms: last stream \(h_\{L\+1\}\) at step 0 /);
  const init = quantityVsDepth(results, (L) => `act_rms/h${L + 1}`, 0);
  plot.curves[0].y.forEach((y, i) => near(y, init[i], 1e-9, `act_rms L=${DEPTHS[i]}`));
  const atInit = legendSlope(plot, 'depth_mup n=32 lr=0.5').slope;
  assert.ok(Math.abs(atInit - loglogSlope(DEPTHS, init)) <= SLOPE_PRINTED);

  // Without a learning-rate sweep, the η* picture says what it needs.
  await click(page, 'eta* vs L');
  const d = await drawn(page);
  assert.ok(d.texts.includes('hint: eta* against L needs a sweep over learning rates as well as depths (sweep.lr with 2 '
    + 'or more values), here or in an imported result file.'), JSON.stringify(d.texts));
  assert.equal(d.plots.length, 0);
  await click(page, 'quantity vs L');
  assert.deepEqual(pg.errors, []);
});

test('the explorer shows the depth rule\'s alpha and gamma and each depth\'s block factors; an edited rule at once',
  T, async () => {
    const { page } = pg;
    await click(page, 'parametrization', { window: 'right' });
    const lines = async () => (await drawn(page)).texts.filter((t) => t.startsWith('explorer depth'));
    const check = async (rule, alpha, gamma) => {
      const [head, ...factors] = await lines();
      assert.equal(head, `explorer depth: depth rule ${rule} (sgd): α = ${alpha}, γ = ${gamma}`);
      assert.equal(factors.length, DEPTHS.length);
      for (const [i, L] of DEPTHS.entries()) {
        const m = /^explorer depth factors: L=(\d+): branch ([\d.e+-]+), block lr ([\d.e+-]+)$/.exec(factors[i]);
        assert.ok(m, factors[i]);
        assert.equal(Number(m[1]), L);
        near(Number(m[2]), L ** -alpha, 1e-5, `branch at L=${L}`);
        near(Number(m[3]), L ** -gamma, 1e-5, `block lr at L=${L}`);
      }
    };
    await check('depth_mup', 0.5, 0);  // Depth-muP with SGD: alpha 1/2, gamma 0
    await screenshot(page, 'depth-explorer');
    await click(page, '##parametrization.depth_rule', FIELDS);
    await click(page, 'completep', COMBO);
    await check('completep', 1, -1);  // CompleteP with SGD: the blocks learn L times faster
    assert.deepEqual(pg.errors, []);
  });

test('vs depth says what it needs (a depth sweep), and is there only for a residual MLP', T, async () => {
  const { page } = pg;
  const hint = async () => (await drawn(page)).texts.filter((t) => t.startsWith('hint: '));
  const oneDepth = residual('Depth view: one depth', 'depth_mup', { schedule: { steps: 2 }, task: { train_size: 16, test_size: 16 } });
  await pick('one-depth.json', oneDepth);
  await page.waitForFunction((n) => JSON.parse(window.muplay.muplay_get_spec()).name === n, oneDepth.name);
  await click(page, 'vs depth', { window: 'right' });
  assert.deepEqual(await hint(), ['hint: This view needs a sweep over depths (sweep.depth with 2 or more values).']);
  const mlp = { version: 1, name: 'Depth view: a plain MLP', model: { widths: [16, 16] }, schedule: { steps: 2 } };
  await pick('mlp.json', mlp);
  await page.waitForFunction((n) => JSON.parse(window.muplay.muplay_get_spec()).name === n, mlp.name);
  await waitFrames(page, 3);
  const d = await drawn(page);
  const row = d.items.find((i) => i.label === 'vs step' && /right_/.test(i.window));
  const tabs = d.items.filter((i) => i.window === row.window && i.rect[1] === row.rect[1]).map((i) => i.label);
  assert.ok(!tabs.includes('vs depth'), `a plain MLP shows no vs depth tab: ${tabs}`);
  assert.deepEqual(pg.errors, []);
});

test('eta* vs L: Depth-muP beside an imported standard-rule file, eta* and slopes from the data, edges ringed',
  T, async () => {
    const { page } = pg;
    const standard = await openAndRun(transfer('standard'));
    const mup = await openAndRun(transfer('depth_mup'));
    await pick('standard.result.json', standard);
    await page.waitForFunction(() => JSON.parse(window.muplay.muplay_imports()).length === 1);
    const [set] = await json('muplay_imports');
    assert.equal(set.drawn, true);

    await click(page, 'vs depth', { window: 'right' });
    await click(page, 'eta* vs L');
    await waitFrames(page, 3);
    await screenshot(page, 'depth-eta');
    await page.setViewportSize({ width: 1024, height: 768 });  // a projector: both plots still fit, side by side
    await waitFrames(page, 3);
    await screenshot(page, 'depth-eta-1024x768');
    const narrow = await plots(page, /^eta\* vs depth L| vs lr per depth /);
    const right = (await drawn(page)).windows.find((w) => /\/right_[0-9A-F]+$/.test(w.name));
    assert.equal(narrow.length, 2);
    for (const p of narrow) assert.ok(p.rect[0] >= right.rect[0] && p.rect[2] <= right.rect[2] + 0.5, `${p.title}: ${p.rect}`);
    assert.ok(narrow[0].rect[2] <= narrow[1].rect[0], 'eta* left of the loss curves');
    await page.setViewportSize({ width: 1280, height: 800 });
    await waitFrames(page, 3);
    const [eta] = await plots(page, /^eta\* vs depth L/);
    const [losses] = await plots(page, / vs lr per depth \(dot: eta\*\)$/);
    assert.ok(eta && losses, 'both eta* pictures drawn');
    assert.deepEqual([eta.x.log, eta.y.log, eta.x.ticks], [true, true, DEPTHS.map(String)]);

    const sources = [{ rule: 'depth_mup', prefix: '', fits: etaPerDepth(mup) },
                     { rule: 'standard', prefix: `${set.name}: `, fits: etaPerDepth(standard) }];
    const lines = eta.curves.filter((c) => !c.name.endsWith('(at grid edge)'));
    assert.equal(lines.length, 2, 'a curve per rule (one width each)');
    for (const s of sources) {
      const name = `${s.rule} n=32`;
      const curve = lines.find((c) => c.name === `${s.prefix}${name}`);
      assert.ok(curve, `no eta* curve ${s.prefix}${name}: ${JSON.stringify(eta.curves.map((c) => c.name))}`);
      assert.deepEqual(curve.x, DEPTHS);
      curve.y.forEach((y, i) => near(y, s.fits[i].bestLr, 1e-9, `${name} eta* at L=${DEPTHS[i]}`));
      const want = loglogSlope(DEPTHS, s.fits.map((f) => f.bestLr));
      const { row, slope } = legendSlope(eta, name);
      assert.ok(Math.abs(slope - want) <= SLOPE_PRINTED, `${row} vs ${want}`);
      const edges = s.fits.filter((f) => f.edge);
      const rings = eta.curves.filter((c) => c.name.startsWith(`${s.prefix}${name} L=`) && c.name.endsWith('(at grid edge)'));
      assert.deepEqual(rings.map((c) => c.x[0]), edges.map((f) => f.depth), `${name}: rings at the edges' depths`);
      const ringNote = eta.notes.find((n) => n.startsWith('ring: at grid edge ('));
      for (const f of edges) assert.ok(ringNote?.includes(`${name} L=${f.depth}`), `${name} L=${f.depth}: ${ringNote}`);
      console.log(`${row}; eta* ${s.fits.map((f) => f.bestLr.toPrecision(3)).join(', ')}`);
      s.slope = slope;
      s.edges = edges.length;
    }
    assert.ok(Math.abs(sources[0].slope) <= 0.3, `Depth-muP's eta* stays put: slope ${sources[0].slope}`);
    assert.ok(sources[1].slope <= -0.5, `the standard rule's eta* falls with depth: slope ${sources[1].slope}`);
    assert.ok(sources[1].edges >= 1, 'the standard rule\'s deepest net has its minimum at the grid\'s edge');
    assert.equal(eta.notes.find((n) => n.startsWith('ring: ')), 'ring: at grid edge (standard n=32 L=16): that depth\'s '
      + 'lowest loss is at the first or last lr of its grid, so its eta* may lie beyond it: widen the grid.');

    // Loss vs lr per depth: a curve, an eta* dot at (eta*, its loss) and, where the parabola found it, the parabola
    // through the grid minimum and its two neighbours, for each rule and depth.
    for (const s of sources) {
      for (const f of s.fits) {
        const net = `${s.prefix}${s.rule} n=32 L=${f.depth}`;
        const curve = losses.curves.find((c) => c.name === net);
        assert.ok(curve, `no loss curve ${net}`);
        assert.deepEqual(curve.x, f.lrs.filter((lr, i) => Number.isFinite(f.losses[i])));
        const dot = losses.curves.find((c) => c.name.startsWith(`${net} eta* (`));
        assert.ok(dot, `no eta* dot for ${net}`);
        near(dot.x[0], f.bestLr, 1e-9, `${net} dot lr`);
        near(dot.y[0], f.bestLoss, 1e-9, `${net} dot loss`);
        assert.equal(dot.name.endsWith('(at grid edge)'), f.edge, dot.name);
        const arc = losses.curves.find((c) => c.name === `${net} parabola`);
        assert.equal(Boolean(arc), f.bracketed, `${net}: a parabola exactly when it found eta*`);
        if (!arc) continue;
        near(arc.x[0], f.lrs[f.min - 1], 1e-9, `${net} parabola start`);
        near(arc.y[0], f.losses[f.min - 1], 1e-9, `${net} parabola through the left neighbour`);
        near(arc.y.at(-1), f.losses[f.min + 1], 1e-9, `${net} parabola through the right neighbour`);
        assert.ok(Math.min(...arc.y) >= f.bestLoss - 1e-12, `${net}: the vertex is the arc's lowest point`);
      }
    }
    const dots = losses.curves.filter((c) => / eta\* \(/.test(c.name));
    assert.equal(dots.length, 2 * DEPTHS.length, 'an eta* dot per rule and depth');
    assert.ok(losses.legend.some((r) => /^depth_mup n=32 L=8 {2}eta\*=/.test(r)), JSON.stringify(losses.legend));
    assert.ok(losses.legend.includes(set.name), 'the imported file is listed under its name');

    // Quantity vs L for the same runs at their last record (the slider's right end: the first test left it at 0): a
    // curve per (width, learning rate) and rule, each the data's.
    await click(page, 'quantity vs L');
    const slider = await findItem(page, 'record##depth');
    await clickImGui(page, slider.rect[2] - 2, centre(slider.rect).y);
    assert.equal((await findItem(page, 'record##depth')).value, 'step 40');
    const plot = await depthPlot();
    await screenshot(page, 'depth-quantity-side-by-side');
    // The first test chose act_rms, which these runs do not record: the view is back on the last stream's change.
    assert.match(plot.title, /^act_delta_rms: last stream \(h_\{L\+1\}\) at step 40 /);
    const names = plot.curves.map((c) => c.name);
    assert.deepEqual(names, [...LRS.map((lr) => `depth_mup n=32 lr=${lr}`), ...LRS.map((lr) => `${set.name}: standard n=32 lr=${lr}`)]);
    for (const [results, prefix, rule] of [[mup, '', 'depth_mup'], [standard, `${set.name}: `, 'standard']]) {
      // lr 1/8: every depth of both rules trains to the end (the standard rule's deepest net diverges at 1/4)
      const curve = plot.curves.find((c) => c.name === `${prefix}${rule} n=32 lr=0.125`);
      const runs = results.runs.filter((r) => r.lr === 0.125);
      assert.ok(runs.every((r) => r.status === 'finished'));
      const want = quantityVsDepth({ runs }, (L) => `act_delta_rms/h${L + 1}`, 2);
      curve.y.forEach((y, i) => near(y, want[i], 1e-9, `${rule} act_delta_rms at L=${DEPTHS[i]}`));
      const { slope } = legendSlope(plot, `${rule} n=32 lr=0.125`);
      assert.ok(Math.abs(slope - loglogSlope(DEPTHS, want)) <= SLOPE_PRINTED, `${rule}: ${slope}`);
      console.log(`${rule} lr=0.125: act_delta_rms last stream at step 40 vs L, slope ${slope}`);
    }
    assert.deepEqual(pg.errors, []);
  });

test('vs learning rate labels a residual net\'s curves by width and depth', T, async () => {
  const { page } = pg;
  await click(page, 'vs learning rate', { window: 'right' });
  await waitFrames(page, 3);
  const [plot] = await plots(page, /vs learning rate \(dot: eta\*\)$/);
  await screenshot(page, 'depth-vs-learning-rate');
  for (const L of DEPTHS) {
    const rows = plot.legend.filter((r) => r.startsWith(`n=32 L=${L}  eta*=`));
    assert.equal(rows.length, 2, `n=32 L=${L}: the page's row and the imported one: ${JSON.stringify(plot.legend)}`);
  }
  assert.ok(plot.curves.some((c) => c.name === 'n=32 L=16 eta* (at grid edge)') === false, 'Depth-muP: no edge');
  assert.ok(plot.curves.some((c) => c.name.endsWith('n=32 L=16 eta* (at grid edge)')), 'the standard rule\'s edge');
});

test('Fields offer a residual net\'s block options: the pre-norm box and the block depth take effect', T, async () => {
  const { page } = pg;
  const spec0 = residual('Depth view: block fields', 'depth_mup', { task: { train_size: 32, test_size: 16 } });
  await pick('block-fields.json', spec0);
  await page.waitForFunction((n) => JSON.parse(window.muplay.muplay_get_spec()).name === n, spec0.name);
  await click(page, 'Fields');
  await click(page, '##model.block_norm', FIELDS);
  await typeInto(page, '##model.block_depth', 2, FIELDS);
  const spec = JSON.parse(await page.evaluate(() => window.muplay.muplay_get_spec()));
  assert.deepEqual([spec.model.block_norm, spec.model.block_depth], [true, 2]);
  assert.deepEqual(pg.errors, []);
});
