// The threaded build: served cross-origin isolated (scripts/serve --isolated) the page loads muplay-threads.js and
// trains a sweep's members on every core, with the very numbers of the plain page; served plainly, the plain build
// runs on one thread.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPlayground, runPreset, screenshot } from './harness.mjs';

const T = { timeout: 600_000 };
// The coordinate check (15 members, widths 64-1024), shortened to 9 members of widths 64-256: seconds on one thread.
const shorten = (s) => { s.schedule.steps = 4; s.sweep.width = [64, 128, 256]; };

async function page(isolated) {
  const pg = await openPlayground({ isolated });
  const info = await pg.page.evaluate(() => ({
    isolated: self.crossOriginIsolated,
    build: window.muplay.build,
    cores: navigator.hardwareConcurrency,
    threads: JSON.parse(window.muplay.muplay_frame_stats()).threads,
  }));
  return { ...pg, info };
}

let plainResults;

test('a plain static host gets the plain build, on one thread', T, async () => {
  const pg = await page(false);
  try {
    assert.deepEqual(pg.info, { isolated: false, build: 'plain', cores: pg.info.cores, threads: 1 });
    plainResults = await runPreset(pg.page, /10-coord-check-mup/, shorten);
    assert.equal(plainResults.runs.length, 9);
    for (const run of plainResults.runs) assert.equal(run.status, 'finished');
    assert.deepEqual(pg.errors, []);
  } finally {
    await pg.close();
  }
});

test('a cross-origin isolated page loads the threaded build and gives the same numbers', T, async () => {
  const pg = await page(true);
  try {
    assert.equal(pg.info.isolated, true);
    assert.equal(pg.info.build, 'threads');
    assert.equal(pg.info.threads, Math.min(pg.info.cores, 8));
    assert.ok(pg.info.threads >= 2, `only ${pg.info.threads} thread(s) on ${pg.info.cores} core(s)`);
    const results = await runPreset(pg.page, /10-coord-check-mup/, shorten);
    await screenshot(pg.page, 'threads-isolated');  // the status bar reads "threads: N"
    assert.ok(plainResults, 'the plain page ran first');
    assert.deepEqual(results, plainResults);
    assert.deepEqual(pg.errors, []);
  } finally {
    await pg.close();
  }
});
