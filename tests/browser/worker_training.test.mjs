// Training in a Web Worker (web/remote_training.hpp): the page's runs train there, and what the page shows and saves
// is the command line's result to the bit; Pause and Step stay exact; without the worker the page trains itself.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { openPlayground, ROOT } from './harness.mjs';

const T = { timeout: 600_000 };
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const call = (name, ...args) => pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);

// A preset of examples/ with fewer steps (recording every `recordEvery`).
function shortPreset(file, steps, recordEvery) {
  const spec = JSON.parse(readFileSync(path.join(ROOT, 'examples', file), 'utf8'));
  spec.schedule = { ...spec.schedule, steps, record_every: recordEvery };
  return spec;
}

// The native command line's result file of `spec` (one thread, as the worker).
function cliResult(spec) {
  const dir = mkdtempSync(path.join(tmpdir(), 'muplay-worker-'));
  writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(spec));
  const r = spawnSync(path.join(ROOT, 'build', 'native', 'engine', 'muplay'),
                      ['run', path.join(dir, 'spec.json'), '--out', path.join(dir, 'out.json'), '--quiet', '--threads', '1'],
                      { encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);  // 1: a member diverged, still a complete result
  return readFileSync(path.join(dir, 'out.json'), 'utf8');
}

async function load(spec) {
  assert.deepEqual(JSON.parse(await call('muplay_load_spec', JSON.stringify(spec))), { ok: true, errors: [] });
}

// Waits until the step count has not moved for `ms` (the worker's last message has arrived).
async function settledSteps(ms = 600) {
  let last = await call('muplay_total_steps');
  for (;;) {
    await new Promise((r) => setTimeout(r, ms));
    const now = await call('muplay_total_steps');
    if (now === last) return now;
    last = now;
  }
}

for (const [file, steps, every] of [['14-lr-transfer-toy-sp.json', 60, 10], ['30-anchor-identity.json', 40, 10]]) {
  test(`${file}: trained in the worker, the page's result file is the command line's, bit for bit`, T, async () => {
    const spec = shortPreset(file, steps, every);
    await load(spec);
    // The worker loads beside the page (a run built before it is ready moves there once it is, until it starts).
    await pg.page.waitForFunction(() => window.muplay.muplay_trains_in_worker() > 0, null, { polling: 50 });
    await call('muplay_run');
    await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { polling: 100 });
    const page = await call('muplay_result_file');
    assert.equal(page, cliResult(spec));
    assert.deepEqual(pg.errors, []);
  });
}

test('Pause stops the workers where they are, and each Step (the toolbar button) is one step', T, async () => {
  await load(shortPreset('14-lr-transfer-toy-mup.json', 400, 10));
  await call('muplay_run');
  await pg.page.waitForFunction(() => window.muplay.muplay_total_steps() > 50, null, { polling: 50 });
  await call('muplay_pause');
  const paused = await settledSteps();
  assert.equal(await call('muplay_state'), 'paused');
  assert.ok(paused < 400 * 32, `paused at ${paused} steps`);
  for (let k = 1; k <= 3; k++) {
    await pg.page.click('#step');
    await pg.page.waitForFunction((n) => window.muplay.muplay_total_steps() >= n, paused + k, { polling: 50 });
    assert.equal(await settledSteps(), paused + k, `step ${k}`);
  }
  assert.equal(await call('muplay_state'), 'paused');
});

test('without the worker (its script fails to load) the page trains on its own thread, to the same result', T,
  async () => {
    const spec = shortPreset('14-lr-transfer-toy-sp.json', 60, 10);
    const own = await openPlayground({ beforeLoad: (page) => page.route('**/trainer_worker.js', (r) => r.abort()) });
    try {
      const c = (name, ...args) => own.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);
      await own.page.waitForFunction(() => window.muplay.muplay_state() === 'idle');
      assert.deepEqual(JSON.parse(await c('muplay_load_spec', JSON.stringify(spec))), { ok: true, errors: [] });
      assert.equal(await c('muplay_trains_in_worker'), 0);
      await c('muplay_run');
      await own.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { polling: 100 });
      assert.equal(await c('muplay_result_file'), cliResult(spec));
    } finally {
      await own.close();
    }
  });

// Pacing (web/trainer_client.js): while a run's workers take every core, the page's frame rate sets how long each
// worker rests after a slice: longer under 24 fps (by 4 ms, to 20 at most), shorter over 40, unchanged between.
test('the workers rest longer while the page draws under 24 fps, and shorter over 40', T, async () => {
  const rests = await pg.page.evaluate(async () => {
    const { nextRestMs } = await import('./trainer_client.js');
    return { slowFromZero: nextRestMs(0, 15), slowAtMost: nextRestMs(20, 10), between: nextRestMs(8, 30),
             fast: nextRestMs(8, 55), fastAtZero: nextRestMs(0, 60) };
  });
  assert.deepEqual(rests, { slowFromZero: 4, slowAtMost: 20, between: 8, fast: 4, fastAtZero: 0 });
});
