// Training in a Web Worker (web/app/remote_training.hpp): the page's runs train there, and what the page shows and saves
// is the command line's result to the bit; Pause and Step stay exact; without the worker the page trains itself.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { openPlayground, ROOT } from './harness.mjs';

const T = { timeout: 600_000 };
// The page runs one worker per core but one (web/js/trainer_client.js): this page says it has three cores, so that its
// runs split between two workers, on any machine.
const CORES = 3;
const withCores = (cores) => (page) =>
  page.addInitScript(`Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => ${cores} })`);
let pg;
before(async () => { pg = await openPlayground({ beforeLoad: withCores(CORES) }); }, T);
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

// [preset, steps, record every, the workers its run splits between]
for (const [file, steps, every, workers] of [['14-lr-transfer-toy-sp.json', 60, 10, 2],
                                              ['30-anchor-identity.json', 40, 10, 1]]) {
  test(`${file}: trained in the worker, the page's result file is the command line's, bit for bit`, T, async () => {
    const spec = shortPreset(file, steps, every);
    await load(spec);
    // The worker loads beside the page (a run built before it is ready moves there once it is, until it starts).
    await pg.page.waitForFunction(() => window.muplay.muplay_trains_in_worker() > 0, null, { polling: 50 });
    await call('muplay_run');
    assert.equal(await call('muplay_trains_in_worker'), workers);
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

// Each worker takes a core, and one is left to the page: where the workers took every core, a page drawn in
// software waited behind training for a core at every frame (web/js/trainer_client.js).
test('the page starts one training worker per core but one, at least one and at most four', T, async () => {
  const counts = await pg.page.evaluate(async () => {
    const { workerCount } = await import('./trainer_client.js');
    return [1, 2, 3, 4, 8, 64].map(workerCount);
  });
  assert.deepEqual(counts, [1, 1, 2, 3, 4, 4]);
  assert.equal(await pg.page.evaluate(() => window.muplayTrainer.workers), CORES - 1);
});
