#!/usr/bin/env node
// Every preset (examples/*.json) run to its end as a student would: in headless Chromium from the page (the time
// loading it took, wall seconds, and the page's frames per second meanwhile: the mean, the slowest second, and the
// frames drawn), and, for comparison, the same engine compiled to wasm (the CLI under node: the page's engine
// without the page) and natively (wall and CPU seconds). Training steps count every member's steps, including the
// preset's own measurements (its record steps).
// Prints one line per preset and run, writes build/bench/page.json (merged with its earlier presets' numbers) and
// replaces its section of tests/bench/RESULTS.md with this run's table (the presets the pattern matched).
// Usage: node scripts/bench-page.mjs [pattern]   (after scripts/build; pattern filters preset file names)
//   env LIMIT_S (default 1200): seconds per preset in Chromium; NATIVE=0: Chromium only (no CLI, native or wasm);
//   SETTLE_MS (default 2000): ms from loading the preset to Run
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { openPlayground, ROOT, waitForPlayground } from '../tests/browser/harness.mjs';
import { commandLine, loadNow, writeResults } from './bench-results.mjs';

const filter = new RegExp(process.argv[2] ?? '.');
const LIMIT_S = Number(process.env.LIMIT_S ?? 1200);  // per preset in Chromium
const SETTLE_MS = Number(process.env.SETTLE_MS ?? 2000);  // from the preset's load to Run (pageRun)
const files = readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.json') && filter.test(f)).sort();
const loadBefore = loadNow();

// Members × steps of a preset: the steps the page and the CLI train.
function totalSteps(spec) {
  const s = spec.sweep ?? {};
  const axis = (a) => Math.max(a?.length ?? 0, 1);
  return spec.schedule.steps * axis(s.width) * axis(s.depth) * axis(s.lr) * axis(s.seeds) * axis(s.gamma) *
    axis(s.weight_decay);
}

// One CLI run of `file`: wall seconds and the CPU seconds of the process (user + system, GNU time), which a loaded
// machine disturbs less than the wall clock. `command` is the CLI's argv before "run", given the scratch folder.
function timedRun(command, file) {
  const tmp = mkdtempSync(path.join(tmpdir(), 'muplay-bench-page-'));
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', ...command(tmp), 'run', file, '--out',
    path.join(tmp, 'result.json'), '--quiet'], { encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const [user, system] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  rmSync(tmp, { recursive: true, force: true });
  return { seconds, cpu_seconds: user + system, exit_status: r.status };
}

const native = (file) => timedRun(() => [path.join(ROOT, 'build', 'native', 'engine', 'muplay')], file);

// The wasm CLI (build/web/engine/muplay_cli.js, one thread) under node; it is copied to .cjs because the
// project's package.json says "type": "module".
const wasm = (file) => timedRun((tmp) => {
  const cli = path.join(tmp, 'muplay_cli.cjs');
  copyFileSync(path.join(ROOT, 'build', 'web', 'engine', 'muplay_cli.js'), cli);
  return [process.execPath, cli];
}, file);

// The CLI runs of one preset (unless NATIVE=0), native then wasm, into its record `r`. They run just before the
// preset's page run: timed minutes apart, the page / wasm ratio would also measure how the machine's speed drifts.
function cliRuns(r) {
  if (process.env.NATIVE === '0') return;
  for (const [kind, measure] of [['native', native], ['wasm', wasm]]) {
    const m = measure(path.join(ROOT, 'examples', r.preset));
    r[kind] = { ...m, steps_per_cpu_second: r.steps / m.cpu_seconds };
    console.log(`${kind} ${r.preset}: ${r.steps} steps, ${m.seconds.toFixed(1)} s wall, ` +
                `${m.cpu_seconds.toFixed(1)} s CPU, ${(r.steps / m.cpu_seconds).toFixed(1)} steps/s (CPU)`);
  }
}

const results = files.map((name) => ({
  preset: name, steps: totalSteps(JSON.parse(readFileSync(path.join(ROOT, 'examples', name), 'utf8'))) }));

// Each preset in a fresh page of one browser, as a reader who opens its link; the page is blank while the CLI runs,
// so that it takes no core from them (a page showing a finished run still builds its frames, 60 a second). The
// preset loaded, the bench waits SETTLE_MS before Run, as a reader reads its description: a run started at once
// would share the cores with the browser compiling the page's hot code again with its optimizing compiler, and
// its first seconds would time that compilation, not the page.
async function pageRun(pg, r) {
  await pg.page.goto(pg.url);
  await waitForPlayground(pg.page);
  const presets = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_list_presets()));
  const i = presets.findIndex((p) => p.path.endsWith(`/${r.preset}`));
  // Loading builds the page's replica of the sweep (its models' parameters), on the page's thread.
  const loadMs = await pg.page.evaluate((k) => {
    const start = performance.now();
    window.muplay.muplay_load_preset(k);
    return performance.now() - start;
  }, i);
  await pg.page.waitForFunction(() => window.muplay.muplay_trains_in_worker() > 0, null, { timeout: 10_000 })
    .catch(() => {});
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  // Run to the end, sampling the frame count about every 50 ms: the slowest second (the worst window of a second,
  // wherever it starts) is the page at its least fluid.
  // Frames are the page's ImGui frames (its answers to input and data); drawn frames, those of them that differed
  // from the frame before and were drawn on the canvas (web/draw/frame_fingerprint.hpp).
  const page = await pg.page.evaluate(async (limitMs) => {
    const m = window.muplay;
    const start = performance.now();
    const drawn0 = m.muplay_drawn_frame_count();
    const samples = [[start, m.muplay_frame_count()]];  // [time, frame count], about every 50 ms
    m.muplay_run();
    while (m.muplay_state() !== 'finished' && performance.now() - start < limitMs) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      samples.push([performance.now(), m.muplay_frame_count()]);
    }
    const seconds = (performance.now() - start) / 1000;
    // The slowest window of a second or more: from each sample to the first one a second later, frames over the
    // time between them (a stalled page, whose timers fire late too, counts over the whole stall).
    let slowest = null, slowestAt = null;
    for (let i = 0, j = 0; i < samples.length; i++) {
      while (j < samples.length && samples[j][0] - samples[i][0] < 1000) j++;
      if (j === samples.length) break;
      const fps = ((samples[j][1] - samples[i][1]) * 1000) / (samples[j][0] - samples[i][0]);
      if (slowest === null || fps < slowest) slowest = fps, slowestAt = (samples[i][0] - start) / 1000;
    }
    return { seconds, finished: m.muplay_state() === 'finished', steps: m.muplay_total_steps(),
             workers: m.muplay_trains_in_worker(),
             fps: (m.muplay_frame_count() - samples[0][1]) / seconds,
             slowest_second_fps: slowest === null ? null : Math.round(slowest),
             slowest_second_at_s: slowestAt,  // where that window starts, in seconds after Run
             drawn_fps: (m.muplay_drawn_frame_count() - drawn0) / seconds };
  }, LIMIT_S * 1000);
  // A run past the limit is recorded (with the steps it had done), not dropped: on a loaded machine it happens.
  if (!page.finished) await pg.page.evaluate(() => window.muplay.muplay_pause());
  await pg.page.goto('about:blank');
  return { ...page, load_ms: loadMs, steps_per_second: page.steps / page.seconds };
}

const pg = await openPlayground();
const browser = pg.context.browser()?.version() ?? '';
try {
  await pg.page.goto('about:blank');
  for (const r of results) {
    cliRuns(r);
    const page = await pageRun(pg, r);
    r.chromium = page;
    if (r.wasm) r.chromium.over_wasm = page.seconds / r.wasm.seconds;
    console.log(`chromium ${r.preset}: loaded in ${page.load_ms.toFixed(0)} ms, ${page.steps} steps, ` +
                `${page.seconds.toFixed(1)} s wall` +
                `${r.wasm ? ` (${r.chromium.over_wasm.toFixed(2)}x the wasm CLI)` : ''}, ` +
                `${page.fps.toFixed(1)} fps (slowest second ${page.slowest_second_fps ?? '-'}` +
                `${page.slowest_second_at_s === null ? '' : ` from ${page.slowest_second_at_s.toFixed(1)} s`}, ` +
                `${page.drawn_fps.toFixed(1)} drawn/s), ` +
                `${page.workers ? `${page.workers} worker(s)` : 'page thread'}` +
                `${page.finished ? '' : ` (NOT finished within ${LIMIT_S} s)`}`);
  }
  if (pg.errors.length) console.log('page errors:', pg.errors.join(' | '));
} finally {
  await pg.close();
}
// Merged into the last results by preset, so a run of a few presets (a pattern) keeps the others' numbers.
const file = path.join(ROOT, 'build', 'bench', 'page.json');
const last = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).presets : [];
const measured = { date: new Date().toISOString(), load_after: loadavg(), browser, settle_ms: SETTLE_MS };
const merged = last.filter((p) => !results.some((r) => r.preset === p.preset));
for (const r of results) merged.push({ ...r, ...measured });
merged.sort((a, b) => a.preset.localeCompare(b.preset));
const doc = { schema: 'muplay-bench-page', version: 1, machine: { cores: cpus().length, cpu: cpus()[0]?.model },
  presets: merged };
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, JSON.stringify(doc, null, 2) + '\n');
console.log('wrote build/bench/page.json');

const fmt = (x, digits = 1) => (x === undefined || x === null || !Number.isFinite(x) ? '—' : x.toFixed(digits));
const table = [
  `Chromium ${browser} headless; Run ${SETTLE_MS} ms after loading; at most ${LIMIT_S} s a preset. *page s*: wall ` +
  'seconds from Run to finished; *load ms*: `muplay_load_preset`; *fps*: the page\'s frames a second, mean / slowest ' +
  'window of a second (seconds after Run where it starts); *drawn/s*: frames that differed and were drawn; ' +
  '*page / wasm*: the page against the wasm CLI (one thread).',
  '',
  '| preset | steps | page s | load ms | workers | fps mean / slowest (s after Run) | drawn/s | wasm CLI s | native s | page / wasm |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...results.map((r) => {
    const c = r.chromium;
    const slowest = c.slowest_second_fps === null ? '—' : `${c.slowest_second_fps} (${fmt(c.slowest_second_at_s)})`;
    return `| ${r.preset.replace(/\.json$/, '')} | ${r.steps} | ${fmt(c.seconds)}${c.finished ? '' : ' (not finished)'} | ` +
      `${fmt(c.load_ms, 0)} | ${c.workers} | ${fmt(c.fps, 0)} / ${slowest} | ${fmt(c.drawn_fps, 0)} | ` +
      `${fmt(r.wasm?.seconds)} | ${fmt(r.native?.seconds)} | ${fmt(c.over_wasm, 2)} |`;
  }),
].join('\n');
writeResults('scripts/bench-page.mjs', commandLine(['LIMIT_S', 'NATIVE', 'SETTLE_MS']), table, loadBefore);
