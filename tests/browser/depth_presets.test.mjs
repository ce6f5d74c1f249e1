// The depth presets as shipped, in the page: each is picked from the preset list and trained to its end, and what
// the *vs depth* tab draws is checked against the numbers its description quotes (tests/unit/test_preset_quotes.cpp
// checks the same numbers on a native run):
// - 41, the coordinate check in depth: the last stream's change at step 5 against L, slope +2.5 under the standard
//   rule, +0.03 under Depth-μP; both drawn together (the standard rule's result file imported beside Depth-μP's run);
// - 42, depth transfer with SGD: η* per depth, 2^0.00 … 2^-7.45 (standard) against 2^0.21, 2^0.51, 2^0.45, 2^0.47
//   (Depth-μP), side by side in the same way;
// - 44, width and depth together (μP + Depth-μP): η* vs L, one line per width, every net between 2^-2.62 and 2^-2.24.
// Screenshots: build/screenshots/preset-41-*.png, preset-42-*.png, preset-44-*.png. The page's training times are
// logged.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loglogSlope, openPlayground, runPreset, screenshot, waitFrames } from './harness.mjs';
import { click, plots } from './ui_driver.mjs';

const T = { timeout: 900_000 };
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const imports = async () => JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_imports())).length;
const importResult = async (name, result) => {
  const before = await imports();
  await pg.page.setInputFiles('#import-file',
    { name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(result)) });
  await pg.page.waitForFunction((n) => JSON.parse(window.muplay.muplay_imports()).length > n, before);
};

// The page's curve named `name` (the page's own run) or `<import>: name` (the imported file's).
const curveNamed = (plot, name, imported) =>
  plot.curves.find((c) => (imported ? c.name.endsWith(`: ${name}`) : c.name === name));

test('41: the coordinate check in depth, standard beside Depth-muP', T, async () => {
  const { page } = pg;
  const standard = await runPreset(page, /41-depth-coord-check-standard/, () => {});
  await runPreset(page, /41-depth-coord-check-depth-mup/, () => {});
  await importResult('41-standard.result.json', standard);
  await click(page, 'vs depth', { window: 'right' });
  await waitFrames(page, 5);
  const [plot] = await plots(page, / vs depth L \(geometric mean over seeds\)$/);
  assert.ok(plot, 'the quantity-vs-L plot');
  const mine = plot.curves.find((c) => c.name.startsWith('depth_mup'));
  const theirs = plot.curves.find((c) => c.name.includes(': standard'));
  assert.ok(mine && theirs, JSON.stringify(plot.curves.map((c) => c.name)));
  assert.deepEqual(mine.x, [2, 4, 8, 16, 32]);
  const flat = loglogSlope(mine.x, mine.y), grows = loglogSlope(theirs.x, theirs.y);
  console.log(`41 at step 5: Depth-muP slope ${flat.toFixed(3)}, standard ${grows.toFixed(3)}`);
  assert.ok(Math.abs(flat - 0.03) <= 0.005, `Depth-muP slope ${flat}`);
  assert.ok(Math.abs(grows - 2.5) <= 0.05, `standard slope ${grows}`);
  await screenshot(page, 'preset-41-depth-coord-check');
  assert.deepEqual(pg.errors, []);
});

test('42: depth transfer with SGD, eta* per depth, standard beside Depth-muP', T, async () => {
  const { page } = pg;
  const standard = await runPreset(page, /42-depth-transfer-sgd-standard/, () => {});
  await runPreset(page, /42-depth-transfer-sgd-depth-mup/, () => {});
  await importResult('42-standard.result.json', standard);
  await click(page, 'vs depth', { window: 'right' });
  await click(page, 'eta* vs L');
  await waitFrames(page, 5);
  const [eta] = await plots(page, /^eta\* vs depth L/);
  assert.ok(eta, 'the eta* plot');
  const log2 = (c) => c.y.map((y) => Math.log2(y));
  const mine = curveNamed(eta, 'depth_mup n=128', false), theirs = curveNamed(eta, 'standard n=128', true);
  assert.ok(mine && theirs, JSON.stringify(eta.curves.map((c) => c.name)));
  const quoted = { mine: [0.21, 0.51, 0.45, 0.47], theirs: [0.00, null, null, -7.45] };
  log2(mine).forEach((v, i) => assert.ok(Math.abs(v - quoted.mine[i]) <= 0.005, `Depth-muP L=${mine.x[i]}: ${v}`));
  log2(theirs).forEach((v, i) => quoted.theirs[i] === null
    || assert.ok(Math.abs(v - quoted.theirs[i]) <= 0.005, `standard L=${theirs.x[i]}: ${v}`));
  console.log(`42 log2 eta*: Depth-muP ${log2(mine).map((v) => v.toFixed(2))}, standard ${log2(theirs).map((v) => v.toFixed(2))}`);
  await screenshot(page, 'preset-42-depth-transfer-sgd');
  assert.deepEqual(pg.errors, []);
});

test('44: width and depth together, eta* vs L one line per width, all six nets at one rate', T, async () => {
  const { page } = pg;
  await runPreset(page, /44-width-and-depth-mup/, () => {});
  await click(page, 'vs depth', { window: 'right' });
  await click(page, 'eta* vs L');
  await waitFrames(page, 5);
  const [eta] = await plots(page, /^eta\* vs depth L/);
  assert.ok(eta, 'the eta* plot');
  // Quoted: between 2^-2.62 and 2^-2.24 for all six, 2^-2.24 at (64, 2), 2^-2.62 at (128, 2), 2^-2.53 at (256, 8).
  const quoted = { '64,2': -2.24, '128,2': -2.62, '256,8': -2.53 };
  for (const width of [64, 128, 256]) {
    const line = curveNamed(eta, `depth_mup n=${width}`, false);
    assert.ok(line, JSON.stringify(eta.curves.map((c) => c.name)));
    assert.deepEqual(line.x, [2, 8]);
    line.y.forEach((y, i) => {
      const v = Math.log2(y), q = quoted[`${width},${line.x[i]}`];
      console.log(`44 n=${width} L=${line.x[i]}: log2 eta* ${v.toFixed(3)}`);
      assert.ok(v >= -2.62 - 0.005 && v <= -2.24 + 0.005, `n=${width} L=${line.x[i]}: ${v}`);
      if (q !== undefined) assert.ok(Math.abs(v - q) <= 0.005, `n=${width} L=${line.x[i]}: ${v}, quoted ${q}`);
    });
  }
  await screenshot(page, 'preset-44-width-and-depth');
  assert.deepEqual(pg.errors, []);
});
