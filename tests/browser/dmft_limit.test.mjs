// The two-hidden-layer width-∞ curve in the page (experiment E10): a μP spec with two tanh hidden layers, 4 train
// points and 20 steps gets the DMFT curve (engine/analysis/dmft.hpp) drawn as n=inf on the vs-step view, and the
// wider net's loss curve lies nearer to it than the narrower one's (2 seeds; n^-1/2 predicts 4x from 64 to 1024,
// native test_limit_curve measures 4.6). The screenshot shows the white ∞ curve among the widths.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, screenshot } from './harness.mjs';

const T = { timeout: 600_000 };
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

test('two hidden layers, muP: the DMFT curve is drawn as n=inf and the wider net approaches it', T, async () => {
  const index = await pg.page.evaluate(() => window.muplay.muplay_find_preset('01-sp-vs-mup-toy'));
  assert.ok(index >= 0);
  await pg.page.evaluate((i) => window.muplay.muplay_load_preset(i), index);
  const spec = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_get_spec()));
  spec.model.activation = 'tanh';
  spec.task.train_size = 4;
  spec.optimizer.lr = 1;
  spec.schedule = { steps: 20, record_every: 1 };
  spec.sweep.width = [64, 1024];
  spec.sweep.seeds = [0, 1];
  spec.metrics = ['train_loss'];
  const loaded = JSON.parse(await pg.page.evaluate((t) => window.muplay.muplay_load_spec(t), JSON.stringify(spec)));
  assert.equal(loaded.ok, true, loaded.errors.join('\n'));
  const limits = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_limit_curves()));
  assert.equal(limits.curves.length, 1, limits.why);
  assert.match(limits.curves[0].label, /^n=inf \(DMFT, \d+ samples\)$/);
  await pg.page.evaluate(() => window.muplay.muplay_run());
  await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 300_000 });
  const results = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_get_results()));
  const limit = limits.curves[0].train_loss;
  const distance = {};  // width → squares over seeds of max_t |L_n − L_∞|
  for (const run of results.runs) {
    const loss = run.series.train_loss;
    assert.equal(loss.length, limit.length);
    const worst = Math.max(...loss.map((l, t) => Math.abs(l - limit[t])));
    (distance[run.width] ??= []).push(worst * worst);
  }
  const rms = (w) => Math.sqrt(distance[w].reduce((a, b) => a + b) / distance[w].length);
  console.log('max |L_n - L_inf|', Object.keys(distance).map((w) => `n=${w}: ${rms(w).toPrecision(3)}`).join(', '));
  assert.ok(rms(1024) < rms(64) / 2, `${rms(1024)} vs ${rms(64)}`);
  await screenshot(pg.page, 'limit-curve-dmft');
});
