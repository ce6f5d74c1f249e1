// parametrization.readout_init "zero" in the page: the coordinate-check preset (10, muP) with a zero readout, opened
// from its share link in a fresh page, shows the field in the Fields editor, trains in the page, and its runs start
// with output 0 at every width while the hidden layers start random; the first step moves only the readout. The
// vs-width view shows act_delta_rms at step 2. Screenshot: build/screenshots/readout-zero-vs-width.png.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { openPlayground, runPreset, screenshot, waitFrames } from './harness.mjs';
import { findItem, scrollIntoView } from './ui_driver.mjs';

const T = { timeout: 600_000 };
const pages = [];
after(async () => { for (const pg of pages) await pg.close(); });

test('a zero readout opens from its link, trains, and starts with output 0 at every width', T, async () => {
  const first = await openPlayground();
  pages.push(first);
  const result = await runPreset(first.page, /10-coord-check-mup/, (spec) => {
    spec.parametrization.readout_init = 'zero';
    spec.schedule.steps = 2;
    spec.sweep.seeds = [0];
  });
  const link = await first.page.evaluate(() => window.muplay.muplay_share_link());
  assert.match(link, /^s=1\./);  // the fragment, as Copy link puts it after the page's address
  for (const run of result.runs) {
    assert.equal(run.series['act_rms/f'][0], 0, `n=${run.width}: the output at init`);
    assert.ok(run.series['act_rms/h1'][0] > 0.1, `n=${run.width}: the hidden layer starts random`);
    assert.ok(run.series['act_rms/f'][1] > 0, `n=${run.width}: step 1 moves the readout`);
    assert.equal(run.series['act_delta_rms/h1'][1], 0, `n=${run.width}: and not the features`);
    assert.ok(run.series['act_delta_rms/h1'][2] > 0, `n=${run.width}: which move at step 2`);
  }

  // A reader opens the link in a fresh browser: the same spec, the field in the editor, the same numbers.
  const second = await openPlayground({ suffix: `#${link}` });
  pages.push(second);
  const { page } = second;
  const spec = JSON.parse(await page.evaluate(() => window.muplay.muplay_get_spec()));
  assert.equal(spec.parametrization.readout_init, 'zero');
  const field = await scrollIntoView(page, '##parametrization.readout_init', { window: 'fields' });
  assert.equal(field.value, 'zero');
  await page.evaluate(() => window.muplay.muplay_run());
  await page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 200_000 });
  const again = JSON.parse(await page.evaluate(() => window.muplay.muplay_get_results()));
  assert.deepEqual(again.runs.map((r) => r.series['act_rms/f']), result.runs.map((r) => r.series['act_rms/f']));
  const applied = JSON.parse(await page.evaluate(() => window.muplay.muplay_apply_view('width;quantity=act_delta_rms;record=2')));
  assert.equal(applied.ok, true, JSON.stringify(applied));
  await waitFrames(page, 4);
  await findItem(page, 'vs width');
  await screenshot(page, 'readout-zero-vs-width');
  assert.deepEqual(first.errors, []);
  assert.deepEqual(second.errors, []);
});
