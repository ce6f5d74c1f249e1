// The Transformer μP presets as shipped, in the page: each is picked from the preset list, trained to its end, and what
// the view draws is checked against the numbers its description quotes (tests/unit/test_preset_quotes.cpp checks the
// same numbers on a native run):
// - 46, the Transformer coordinate check: *vs width* opens on transformer_coords; at step 5 the slopes against
//   d_model of the attention logits', the last stream's and the output's change are +1.48, +1.38, +0.38 under SP and
//   −0.57, +0.02, −0.03 under μP;
// - 45, width transfer under μP: *vs learning rate* draws η* per d_model at 2^−4.09, 2^−4.07, 2^−4.11.
// Screenshots: build/screenshots/preset-46-*.png, preset-45-*.png. The page's training times are logged.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { clickImGui, openPlayground, runPreset, screenshot, waitFrames } from './harness.mjs';
import { centre, click, findItem, plots } from './ui_driver.mjs';

const T = { timeout: 900_000 };
const QUOTED = 0.005;  // the descriptions quote two decimals
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const widthView = async () => JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_width_view()));
const slopeOf = (view, series) => {
  const curve = view.curves.find((c) => c.label.startsWith(`transformer_coords/${series} `));
  assert.ok(curve, `${series}: ${JSON.stringify(view.curves.map((c) => c.label))}`);
  return Number(curve.label.match(/slope ([+-]\d+\.\d+)$/)[1]);
};

for (const [rule, quoted] of [
  ['sp', { attn_logits_delta: 1.48, stream_delta: 1.38, output_delta: 0.38 }],
  ['mup', { attn_logits_delta: -0.57, stream_delta: 0.02, output_delta: -0.03 }],
]) {
  test(`46 (${rule}): vs width opens on transformer_coords; at step 5 the slopes are the quoted ones`, T, async () => {
    const { page } = pg;
    await runPreset(page, new RegExp(`46-transformer-coord-check-${rule}`), () => {});
    await click(page, 'vs width', { window: 'right' });
    await waitFrames(page, 3);
    assert.equal((await widthView()).quantity, 'transformer_coords');
    const slider = await findItem(page, 'record');  // to its right end: the last record, step 5
    await clickImGui(page, slider.rect[2] - 2, centre(slider.rect).y);
    await waitFrames(page, 3);
    const view = await widthView();
    assert.equal(view.step, 5);
    assert.deepEqual(view.curves[0].x, [32, 64, 128, 256]);
    for (const [series, slope] of Object.entries(quoted)) {
      const drawn = slopeOf(view, series);
      console.log(`46 ${rule} step 5: ${series} slope ${drawn}`);
      assert.ok(Math.abs(drawn - slope) <= QUOTED, `${rule} ${series}: ${drawn}, quoted ${slope}`);
    }
    await screenshot(page, `preset-46-transformer-coord-check-${rule}`);
    assert.deepEqual(pg.errors, []);
  });
}

test('45 (mup): vs learning rate draws eta* per d_model at the quoted rates', T, async () => {
  const { page } = pg;
  await runPreset(page, /45-transformer-width-transfer-mup/, () => {});
  await click(page, 'vs learning rate', { window: 'right' });
  await waitFrames(page, 3);
  const [plot] = await plots(page, /vs learning rate \(dot: eta\*\)$/);
  assert.ok(plot, 'the vs learning rate plot');
  const quoted = { 32: -4.09, 64: -4.07, 128: -4.11 };
  for (const [width, log2Eta] of Object.entries(quoted)) {
    const dot = plot.curves.find((c) => c.name === `n=${width} eta* (parabola vertex)`);
    assert.ok(dot, `d_model ${width}: ${JSON.stringify(plot.curves.map((c) => c.name))}`);
    const drawn = Math.log2(dot.x[0]);
    console.log(`45 mup d_model ${width}: log2 eta* ${drawn.toFixed(3)}`);
    assert.ok(Math.abs(drawn - log2Eta) <= QUOTED, `d_model ${width}: ${drawn}, quoted ${log2Eta}`);
  }
  await screenshot(page, 'preset-45-transformer-width-transfer-mup');
  assert.deepEqual(pg.errors, []);
});
