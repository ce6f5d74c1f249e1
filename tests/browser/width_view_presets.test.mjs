// The "vs width" view after switching presets (issue #20): a lecturer runs the SP coordinate check (preset 11) with
// the view open, then loads and runs the muP one (preset 10). The view must draw the new run: its step, a finite
// slope per layer (μP: flat, where SP's h2 grows like n^+1/2), and the widths the preset sweeps; never "nan".
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, runPreset, screenshot, waitFrames } from './harness.mjs';
import { centre, click, findItem } from './ui_driver.mjs';

const T = { timeout: 600_000 };
const SWEPT = [64, 128, 256, 512, 1024];  // presets 10 and 11
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const drawn = async () => JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_width_view()));
const slopeOf = (label) => Number(label.match(/slope ([+-]\d+\.\d+)$/)?.[1]);

function assertDrawsTheRun(view, step) {
  assert.ok(view, 'the view drew nothing');
  assert.equal(view.step, step);
  assert.equal(view.quantity, 'act_delta_rms');
  assert.deepEqual(view.curves.map((c) => c.label.split(' ')[0]),
    ['act_delta_rms/h1', 'act_delta_rms/h2', 'act_delta_rms/f']);
  for (const c of view.curves) {
    assert.doesNotMatch(c.label, /nan|inf/i, c.label);
    assert.ok(Number.isFinite(slopeOf(c.label)), c.label);
    assert.deepEqual(c.x, SWEPT, `${c.label}: the width axis spans the swept widths`);
  }
}

test('vs width follows the run after switching from preset 11 to preset 10', T, async () => {
  await runPreset(pg.page, /11-coord-check-sp/, () => {});
  await click(pg.page, 'vs width');
  await waitFrames(pg.page, 3);
  const sp = await drawn();
  assertDrawsTheRun(sp, 1);
  const spH2 = slopeOf(sp.curves[1].label);
  assert.ok(Math.abs(spH2 - 0.5) < 0.25, sp.curves[1].label);

  // The view draws the fresh, empty run of preset 10 before Run: the frames that once clamped its record to step 0.
  await pg.page.evaluate(() => window.muplay.muplay_load_preset(window.muplay.muplay_find_preset('10-coord-check-mup')));
  await waitFrames(pg.page, 3);
  const fresh = await drawn();
  assert.equal(fresh.curves.length, 0, 'nothing recorded yet: no curves (the plot says "press Run")');
  await pg.page.evaluate(() => window.muplay.muplay_run());
  await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 200_000 });
  await waitFrames(pg.page, 3);
  const mup = await drawn();
  await screenshot(pg.page, 'vs-width-after-preset-switch');
  console.log(mup.curves.map((c) => c.label).join(' | '));
  assertDrawsTheRun(mup, 1);
  assert.ok(Math.abs(slopeOf(mup.curves[1].label)) < 0.25, `muP's h2 is flat: ${mup.curves[1].label}`);
});

// The record slider dragged to step 0 (right after init act_delta_rms is exactly 0 at every width, which a log axis
// cannot show): the legend says so in words, and dragging to the last step brings the slopes back.
// `end`: -1 drags past the slider's left end, +1 past its right end ("record", found in the page's frame trace).
async function dragRecordTo(end) {
  const slider = await findItem(pg.page, 'record');
  const c = centre(slider.rect);
  await pg.page.mouse.move(c.x, c.y);
  await waitFrames(pg.page, 2);
  await pg.page.mouse.down();
  await waitFrames(pg.page, 2);
  await pg.page.mouse.move(end < 0 ? slider.rect[0] - 100 : slider.rect[2] + 100, c.y, { steps: 4 });
  await waitFrames(pg.page, 2);
  await pg.page.mouse.up();
  await waitFrames(pg.page, 3);
}

test('vs width at step 0 says why there is no slope; the last step has slopes', T, async () => {
  await dragRecordTo(-1);
  const start = await drawn();
  await screenshot(pg.page, 'vs-width-step-0');
  assert.equal(start.step, 0);
  assert.equal(start.curves.length, 3);
  for (const c of start.curves) assert.match(c.label, /^act_delta_rms\/\w+ {2}no slope: zero or not finite at every width$/);
  await dragRecordTo(+1);
  const end = await drawn();
  assertDrawsTheRun(end, 10);
});
