// The page's "vs width" view reads the coordinate check correctly (experiment E3, a browser-sized version):
// after one SGD step the change of h1 and h2 is flat in width under μP, while under SP h1's change shrinks like
// n^-1/2 and h2's grows like n^+1/2. Widths 64-512, seeds 0-1, η = 0.5, the presets' toy; tolerance ±0.2
// (8-seed native references: μP −0.01/−0.02, SP −0.51/+0.47, tests/unit/test_width_scaling.cpp).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, screenshot } from './harness.mjs';

const T = { timeout: 600_000 };
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

async function slopesAfterOneStep(presetPattern) {
  const presets = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_list_presets()));
  const index = presets.findIndex((p) => presetPattern.test(p.path));
  assert.ok(index >= 0, `no preset matches ${presetPattern}`);
  await pg.page.evaluate((i) => window.muplay.muplay_load_preset(i), index);
  const spec = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_get_spec()));
  spec.schedule.steps = 1;
  spec.sweep.width = [64, 128, 256, 512];
  spec.sweep.seeds = [0, 1];
  const loaded = JSON.parse(await pg.page.evaluate((t) => window.muplay.muplay_load_spec(t), JSON.stringify(spec)));
  assert.equal(loaded.ok, true, loaded.errors.join('\n'));
  await pg.page.evaluate(() => window.muplay.muplay_run());
  await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 150_000 });
  const slopes = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_width_slopes('act_delta_rms', 1)));
  console.log(presetPattern.source, JSON.stringify(slopes));
  return slopes;
}

test('muP: the change of every hidden layer is flat in width', T, async () => {
  const s = await slopesAfterOneStep(/10-coord-check-mup/);
  assert.ok(Math.abs(s['act_delta_rms/h1']) < 0.2, JSON.stringify(s));
  assert.ok(Math.abs(s['act_delta_rms/h2']) < 0.2, JSON.stringify(s));
});

test('SP: h1 changes like n^-1/2, h2 like n^+1/2', T, async () => {
  const s = await slopesAfterOneStep(/11-coord-check-sp/);
  assert.ok(Math.abs(s['act_delta_rms/h1'] + 0.5) < 0.2, JSON.stringify(s));
  assert.ok(Math.abs(s['act_delta_rms/h2'] - 0.5) < 0.2, JSON.stringify(s));
});

// The width-∞ curve beside the finite widths (E7 in the page): the linear preset draws the exact limit, and its
// widest nets' loss curves lie closer to it than the narrowest (4 seeds; n^-1/2 predicts a factor 16 from 64 to
// 16384, native test_limit_curve measures 7.8 from 64 to 4096). The screenshot shows the white ∞ curve.
test('linear preset: the n=inf curve is drawn and wide nets approach it', T, async () => {
  const presets = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_list_presets()));
  const index = presets.findIndex((p) => /13-linear-infinite-width/.test(p.path));
  assert.ok(index >= 0);
  await pg.page.evaluate((i) => window.muplay.muplay_load_preset(i), index);
  const limits = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_limit_curves()));
  assert.equal(limits.curves.length, 1, limits.why);
  assert.equal(limits.curves[0].label, 'n=inf (exact linear limit)');
  await pg.page.evaluate(() => window.muplay.muplay_run());
  await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 150_000 });
  const results = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_get_results()));
  const limit = limits.curves[0].train_loss;
  const distance = {};  // width → RMS over seeds of max_t |L_n − L_∞|
  for (const run of results.runs) {
    const loss = run.series.train_loss;
    assert.equal(loss.length, limit.length);
    const worst = Math.max(...loss.map((l, t) => Math.abs(l - limit[t])));
    (distance[run.width] ??= []).push(worst * worst);
  }
  const rms = (w) => Math.sqrt(distance[w].reduce((a, b) => a + b) / distance[w].length);
  console.log('max |L_n - L_inf|', Object.keys(distance).map((w) => `n=${w}: ${rms(w).toPrecision(3)}`).join(', '));
  assert.ok(rms(16384) < rms(64) / 4, `${rms(16384)} vs ${rms(64)}`);
  await screenshot(pg.page, 'limit-curve-linear');
});

test('NTP preset: the kernel curve names the width whose tangent kernel it uses', T, async () => {
  const presets = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_list_presets()));
  const index = presets.findIndex((p) => /12-kernel-regime-ntp/.test(p.path));
  await pg.page.evaluate((i) => window.muplay.muplay_load_preset(i), index);
  const limits = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_limit_curves()));
  assert.equal(limits.curves.length, 1, limits.why);
  assert.equal(limits.curves[0].label, 'kernel GD, NTK at init of n=512');
  assert.ok(limits.curves[0].train_loss.at(-1) < limits.curves[0].train_loss[0] / 2);
});

// E9 in the page: the "embeddings" view of the word-embedding presets. Under muP (seed 0, widths 16-1024) the
// cluster separation of the embeddings' PCA grows from the narrowest to the widest net and is largest at n = ∞;
// under NTP it stays near the level of shuffled labels (native test, 4 seeds: NTP 0.14 against a chance 95th
// percentile of 0.32; muP 2.4 at n = 1024).
async function embeddingPanels(stem) {
  const index = await pg.page.evaluate((s) => window.muplay.muplay_find_preset(s), stem);
  assert.ok(index >= 0, stem);
  await pg.page.evaluate((i) => window.muplay.muplay_load_preset(i), index);
  await pg.page.evaluate(() => window.muplay.muplay_run());
  await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 150_000 });
  const panels = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_embedding_panels()));
  console.log(stem, panels.map((p) => p.title).join(' | '));
  return panels;
}

test('word embeddings: muP separates the clusters, more with width; NTP does not', T, async () => {
  const mup = await embeddingPanels('16-word-embedding-mup');
  assert.equal(mup.length, 5);
  assert.match(mup[4].title, /^n=inf, step 20/);
  assert.ok(mup[3].separation > 2 * mup[0].separation, JSON.stringify(mup));
  assert.ok(mup[4].separation > 1.5, JSON.stringify(mup));
  const ntp = await embeddingPanels('16-word-embedding-ntp');
  assert.equal(ntp.length, 4);  // no n = ∞ panel: NTP is not the mean-field form
  for (const p of ntp) assert.ok(p.separation < 0.5, JSON.stringify(ntp));
});
