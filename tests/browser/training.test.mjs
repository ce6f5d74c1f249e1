// A newcomer's path through the page: pick a preset, run it, watch one loss curve per width fall;
// a garbage spec shows an error and the page keeps working.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, screenshot, stepOnce } from './harness.mjs';
import { plots } from './ui_driver.mjs';

const T = { timeout: 600_000 };
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const call = (name, ...args) => pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);

test('presets from examples/ are listed and the first one is loaded', T, async () => {
  const presets = JSON.parse(await call('muplay_list_presets'));
  assert.ok(presets.length >= 3, `${presets.length} presets`);
  assert.ok(presets.every((p) => p.valid), JSON.stringify(presets));
  const spec = JSON.parse(await call('muplay_get_spec'));
  assert.equal(spec.name, presets[0].name);
  assert.equal(await call('muplay_state'), 'idle');
});

test('a preset runs in the page and every width\'s loss falls', T, async () => {
  // A shortened copy of the first preset, so the test stays quick; the page trains it in frame-sized slices. 40 steps
  // of three widths take seconds of training here: in one go, they would freeze the page that long.
  const spec = JSON.parse(await call('muplay_get_spec'));
  spec.schedule.steps = 40;
  spec.sweep.width = [32, 64, 128];
  const loaded = JSON.parse(await call('muplay_load_spec', JSON.stringify(spec)));
  assert.deepEqual(loaded, { ok: true, errors: [] });
  const started = Date.now();
  await call('muplay_run');
  const fpsProbe = await pg.page.evaluate(async () => {
    // Frames keep coming while training: count them over one second.
    const f0 = window.muplay.muplay_frame_count();
    await new Promise((r) => setTimeout(r, 1000));
    return window.muplay.muplay_frame_count() - f0;
  });
  // A loaded machine draws few frames a second; a page that did not yield would draw none in this second.
  assert.ok(fpsProbe >= 1, `only ${fpsProbe} frames in 1 s while training`);
  // Training is sliced: 10 ms per frame where drawing is fast, up to 50 ms where the rest of the frame is slow (as in
  // headless Chromium's software GL); a step of these small widths overruns a slice by a few ms at most on an idle
  // machine, but a loaded one stretches wall time by as much as the other processes take.
  const stats = JSON.parse(await call('muplay_frame_stats'));
  console.log(`while training: ${fpsProbe} frames/s in headless Chromium, frame work ${stats.frame_work_ms.toFixed(1)} ms ` +
              `(training ${stats.train_ms.toFixed(1)} ms)`);
  assert.ok(stats.train_ms < 250, `training took ${stats.train_ms} ms per frame: it is not sliced`);
  await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 120_000 });
  console.log(`the run took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  assert.equal(await call('muplay_total_steps'), 3 * 40);
  const results = JSON.parse(await call('muplay_get_results'));
  assert.equal(results.schema, 'muplay-result');
  assert.deepEqual(results.runs.map((r) => r.width), [32, 64, 128]);
  for (const run of results.runs) {
    const loss = run.series.train_loss;
    assert.equal(run.status, 'finished');
    assert.ok(loss.at(-1) < 0.5 * loss[0], `width ${run.width}: loss ${loss[0]} -> ${loss.at(-1)}`);
  }
  // The plot draws each run's curve through every record to its last loss (read from the frame trace).
  await screenshot(pg.page, 'training-finished');
  const [plot] = await plots(pg.page, /^train_loss vs step/);
  const loss = (r) => r.series.train_loss;
  assert.deepEqual(plot.curves.filter((c) => /^n=\d+ /.test(c.name)).map((c) => [c.name.split(' ')[0], c.points,
    c.last_x, c.last_y]), results.runs.map((r) => [`n=${r.width}`, loss(r).length, r.recorded_steps[loss(r).length - 1],
    loss(r).at(-1)]));
});

test('the same spec and seed give the same numbers again (deterministic)', T, async () => {
  const first = JSON.parse(await call('muplay_get_results'));
  assert.equal(await call('muplay_reset'), 1);
  await call('muplay_run');
  await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 120_000 });
  const second = JSON.parse(await call('muplay_get_results'));
  assert.deepEqual(second.runs.map((r) => r.series), first.runs.map((r) => r.series));
});

test('a garbage spec shows an error and leaves the page working', T, async () => {
  const before = await call('muplay_get_spec');
  const garbage = JSON.parse(await call('muplay_load_spec', '{"version": 1, "model": {"widths": [8, 0]'));
  assert.equal(garbage.ok, false);
  assert.match(garbage.errors[0], /not valid JSON/);
  assert.equal(await call('muplay_get_spec'), before, 'the editor lost the previous spec');

  const invalid = JSON.parse(await call('muplay_load_spec', '{"version": 1, "model": {"widths": [8, 0]}, "colour": 1}'));
  assert.equal(invalid.ok, false);
  assert.ok(invalid.errors.includes('model.widths[1]: 0 is not in [1, 16384]'), invalid.errors.join('\n'));
  assert.ok(invalid.errors.includes('colour: unknown field'), invalid.errors.join('\n'));
  const shown = JSON.parse(await call('muplay_get_errors'));
  assert.equal(shown.spec.length, 2);
  await screenshot(pg.page, 'garbage-spec');

  // Still alive: frames advance, and a preset loads and steps.
  const f0 = await call('muplay_frame_count');
  await pg.page.waitForFunction((f) => window.muplay.muplay_frame_count() > f + 5, f0);
  assert.equal(await call('muplay_load_preset', 1), 1);
  await stepOnce(pg.page);
  assert.equal(await call('muplay_total_steps'), 1);
  assert.deepEqual(pg.errors, []);
});

test('keyboard: Space runs and pauses, R resets', T, async () => {
  await call('muplay_load_preset', 0);
  await pg.page.mouse.click(900, 500);  // on the plot, away from any text field
  await pg.page.keyboard.press('Space');
  await pg.page.waitForFunction(() => window.muplay.muplay_total_steps() > 0);
  await pg.page.keyboard.press('Space');
  await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'paused');
  await pg.page.keyboard.press('KeyR');
  await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'idle' && window.muplay.muplay_total_steps() === 0);
});

test('backend webgpu where there is no WebGPU adapter: the run trains on the CPU and a notice says why', T, async () => {
  // This browser runs without --enable-unsafe-webgpu: no adapter. The run is rebuilt once the page has heard so.
  const spec = { version: 1, name: 'forced webgpu', schedule: { steps: 3 }, backend: 'webgpu' };
  assert.equal(JSON.parse(await call('muplay_load_spec', JSON.stringify(spec))).ok, true);
  await pg.page.waitForFunction(() => !/not started yet/.test(JSON.parse(window.muplay.muplay_backend()).note), null,
                                { timeout: 120_000 });
  const backend = JSON.parse(await call('muplay_backend'));
  assert.equal(backend.gpu_runs, 0);
  assert.match(backend.note, /^WebGPU was asked for but .*: training on the CPU instead, in float32 as WebGPU would \(the numbers differ from a WebGPU run's by about 1e-4\)\.$/);
  await pg.page.waitForSelector('#notice:not([hidden])', { timeout: 120_000 });
  assert.match(await pg.page.textContent('#notice-text'), /WebGPU was asked for/);
  await stepOnce(pg.page);
  assert.equal(await call('muplay_total_steps'), 1);
  await screenshot(pg.page, 'webgpu-unavailable');
  await pg.page.click('#notice-close');
});
