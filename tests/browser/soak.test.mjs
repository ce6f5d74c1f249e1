// Soak: the page trains a sweep again and again, many thousands of steps in all, in headless Chromium. The wasm heap
// in use, the wasm memory and the JS heap (after a forced garbage collection) must stay flat from the second round
// on (the first one warms up allocators and caches), and frames must keep coming, so the page stays interactive.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground } from './harness.mjs';

const T = { timeout: 600_000 };
const ROUNDS = 4;
const SPEC = { version: 1, name: 'soak', model: { widths: [32] }, task: { train_size: 64, test_size: 64 },
               schedule: { steps: 2500, record_every: 100 }, sweep: { width: [16, 32, 64] } };
// Tolerances, from the second round to the last: malloc'd wasm heap 64 KiB, wasm memory not at all, JS heap 512 KiB.
const WASM_HEAP_TOLERANCE = 64 * 1024, JS_HEAP_TOLERANCE = 512 * 1024;

let pg, cdp;
before(async () => {
  pg = await openPlayground();
  cdp = await pg.context.newCDPSession(pg.page);
}, T);
after(async () => { await pg?.close(); });

const call = (name, ...args) => pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);

async function measure() {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const wasm = await pg.page.evaluate(() => [window.muplay.muplay_heap_bytes(), window.Module.HEAPU8.length]);
  return { wasmHeap: wasm[0], wasmMemory: wasm[1], jsHeap: usedSize };
}

test(`${ROUNDS} rounds of a 3-member sweep of ${SPEC.schedule.steps} steps: memory stays flat, frames keep coming`, T, async () => {
  const { page } = pg;
  await page.waitForSelector('#run:not([disabled])');
  // Interactive while training: the toolbar pauses and resumes a run (a long one: a click takes a while to land
  // while the page trains, and a short sweep can finish first).
  const long = { ...SPEC, name: 'soak pause', schedule: { steps: 100000, record_every: 1000 } };
  assert.equal(JSON.parse(await call('muplay_load_spec', JSON.stringify(long))).ok, true);
  await call('muplay_run');
  await page.waitForFunction(() => window.muplay.muplay_total_steps() > 200);
  await page.click('#run');
  await page.waitForFunction(() => window.muplay.muplay_state() === 'paused', null, { timeout: 120_000 });
  await page.click('#run');
  await page.waitForFunction(() => window.muplay.muplay_state() === 'running', null, { timeout: 120_000 });
  await call('muplay_pause');
  const rounds = [];
  const started = Date.now();
  for (let round = 0; round < ROUNDS; round++) {
    assert.equal(JSON.parse(await call('muplay_load_spec', JSON.stringify({ ...SPEC, name: `soak ${round}` }))).ok, true);
    const frames0 = await call('muplay_frame_count'), t0 = Date.now();
    await call('muplay_run');
    await page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 200_000, polling: 100 });
    const fps = (await call('muplay_frame_count') - frames0) / ((Date.now() - t0) / 1000);
    assert.equal(await call('muplay_total_steps'), 3 * SPEC.schedule.steps);
    rounds.push({ ...await measure(), fps });
  }
  const seconds = (Date.now() - started) / 1000;
  const steps = ROUNDS * 3 * SPEC.schedule.steps;
  console.log(`soak: ${steps} steps in ${seconds.toFixed(1)} s; per round (wasm heap in use, wasm memory, JS heap, fps):\n` +
              rounds.map((r) => `  ${r.wasmHeap} B, ${r.wasmMemory} B, ${r.jsHeap} B, ${r.fps.toFixed(1)} fps`).join('\n'));
  const [second, last] = [rounds[1], rounds.at(-1)];
  assert.ok(last.wasmHeap - second.wasmHeap <= WASM_HEAP_TOLERANCE, `wasm heap grew ${last.wasmHeap - second.wasmHeap} B`);
  assert.equal(last.wasmMemory, second.wasmMemory, 'wasm memory grew');
  assert.ok(last.jsHeap - second.jsHeap <= JS_HEAP_TOLERANCE, `JS heap grew ${last.jsHeap - second.jsHeap} B`);
  // Headless Chromium draws with software GL, a few frames a second on a loaded machine. A round lasts
  // seconds; a page that trained it without yielding would draw about one frame in it, so 0.5 fps still tells.
  for (const r of rounds) assert.ok(r.fps >= 0.5, `only ${r.fps.toFixed(1)} frames/s while training`);
  assert.deepEqual(pg.errors, []);
});
