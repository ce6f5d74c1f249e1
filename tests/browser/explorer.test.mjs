// The parametrization tab's abc explorer shows the rule of model.biases: two read-only rows under the weight
// matrices, taking the input row's (a, b, c) because a bias is an input weight with fan-in 1 (examples/README.md,
// "Biases").
// μP (the tab's default, SGD): hidden biases learn at η n (exponent 1), the readout's bias at Θ(η); after the "sp"
// button both hidden rows and the bias rows learn at η (exponent 0). Screenshots: build/screenshots/explorer-mup.png,
// explorer-sp.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, screenshot } from './harness.mjs';
import { click } from './ui_driver.mjs';

const T = { timeout: 300_000 };
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const rows = async () => JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_explorer_rows()));
const exponents = (rs) => Object.fromEntries(rs.map((r) => [r.layer, r.lr_exponent]));

test('the explorer lists the bias rows with the input layer\'s rule, and follows a preset button', T, async () => {
  const mup = await rows();
  assert.deepEqual(exponents(mup), { input: 1, 'hidden 1': 0, output: -1, 'hidden biases': 1, 'output bias': 0 });
  const hiddenBiases = mup.find((r) => r.layer === 'hidden biases');
  assert.deepEqual([hiddenBiases.a, hiddenBiases.b, hiddenBiases.c, hiddenBiases.bias], [-0.5, 0.5, 0, true]);
  await click(pg.page, 'parametrization', { window: 'right' });  // the tab, not the spec editor's field
  await screenshot(pg.page, 'explorer-mup');
  await click(pg.page, 'sp');  // the first preset button
  await screenshot(pg.page, 'explorer-sp');
  const sp = exponents(await rows());
  assert.deepEqual(sp, { input: 0, 'hidden 1': 0, output: 0, 'hidden biases': 0, 'output bias': 0 });
  assert.deepEqual(pg.errors, []);
});
