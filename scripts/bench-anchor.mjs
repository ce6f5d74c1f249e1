#!/usr/bin/env node
// Speed of the anchor-function Transformer presets (examples/3*-anchor-*.json), run to the end as a student would:
// natively with the CLI (wall and CPU seconds), the same engine compiled to wasm (the CLI under node: the page's
// training speed without its frames, which software rendering makes slow here) and in headless Chromium from the
// page (wall seconds). Training steps per second count every member's steps, and include the preset's own
// measurements (its record steps).
// Prints one line per preset and writes build/bench/anchor.json (merged with its earlier presets' numbers).
// Usage: node scripts/bench-anchor.mjs [pattern]   (after scripts/build; pattern filters preset file names)
//   env LIMIT_S (default 1200): seconds per preset in Chromium; NATIVE=0: Chromium only (no CLI, native or wasm)
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { openPlayground, ROOT } from '../tests/browser/harness.mjs';

const filter = new RegExp(process.argv[2] ?? '^3\\d-anchor-');
const LIMIT_S = Number(process.env.LIMIT_S ?? 1200);  // per preset in Chromium
const files = readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.json') && filter.test(f)).sort();

// Members × steps of a preset: the steps the page and the CLI train.
function totalSteps(spec) {
  const s = spec.sweep ?? {};
  const axis = (a) => Math.max(a?.length ?? 0, 1);
  return spec.schedule.steps * axis(s.width) * axis(s.lr) * axis(s.seeds) * axis(s.gamma) * axis(s.weight_decay);
}

// One CLI run of `file`: wall seconds and the CPU seconds of the process (user + system, GNU time), which a loaded
// machine disturbs less than the wall clock. `command` is the CLI's argv before "run", given the scratch folder.
function timedRun(command, file) {
  const tmp = mkdtempSync(path.join(tmpdir(), 'muplay-bench-anchor-'));
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

const results = [];
for (const name of files) {
  const spec = JSON.parse(readFileSync(path.join(ROOT, 'examples', name), 'utf8'));
  const steps = totalSteps(spec);
  if (process.env.NATIVE === '0') {
    results.push({ preset: name, steps });
    continue;
  }
  const r = { preset: name, steps };
  for (const [kind, measure] of [['native', native], ['wasm', wasm]]) {
    const m = measure(path.join(ROOT, 'examples', name));
    r[kind] = { ...m, steps_per_cpu_second: steps / m.cpu_seconds };
    console.log(`${kind} ${name}: ${steps} steps, ${m.seconds.toFixed(1)} s wall, ${m.cpu_seconds.toFixed(1)} s CPU, ` +
                `${(steps / m.cpu_seconds).toFixed(1)} steps/s (CPU)`);
  }
  results.push(r);
}

const pg = await openPlayground();
let browser = '';
try {
  browser = pg.context.browser()?.version() ?? '';
  const presets = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_list_presets()));
  for (const r of results) {
    const i = presets.findIndex((p) => p.path.endsWith(`/${r.preset}`));
    await pg.page.evaluate((k) => window.muplay.muplay_load_preset(k), i);
    const start = Date.now();
    await pg.page.evaluate(() => window.muplay.muplay_run());
    // A run past the limit is recorded (with the steps it had done), not dropped: on a loaded machine it happens.
    const finished = await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null,
                                                   { timeout: LIMIT_S * 1000, polling: 250 }).then(() => true, () => false);
    const seconds = (Date.now() - start) / 1000;
    const steps = await pg.page.evaluate(() => window.muplay.muplay_total_steps());
    // The page trains a slice of each frame (web/main.cpp: 10-50 ms): its frame rate and slice explain its speed.
    const frame = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_frame_stats()));
    if (!finished) await pg.page.evaluate(() => window.muplay.muplay_pause());
    r.chromium = { seconds, steps, steps_per_second: steps / seconds, finished, frame };
    console.log(`chromium ${r.preset}: ${steps} steps, ${seconds.toFixed(1)} s wall, ` +
                `${(steps / seconds).toFixed(1)} steps/s${finished ? '' : ` (NOT finished within ${LIMIT_S} s)`}`);
  }
  if (pg.errors.length) console.log('page errors:', pg.errors.join(' | '));
} finally {
  await pg.close();
}
// Merged into the last results by preset, so a run of a few presets (a pattern) keeps the others' numbers.
const file = path.join(ROOT, 'build', 'bench', 'anchor.json');
const last = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).presets : [];
const measured = { date: new Date().toISOString(), load_after: loadavg(), browser };
const merged = last.filter((p) => !results.some((r) => r.preset === p.preset));
for (const r of results) merged.push({ ...r, ...measured });
merged.sort((a, b) => a.preset.localeCompare(b.preset));
const doc = { schema: 'muplay-bench-anchor', version: 1, machine: { cores: cpus().length, cpu: cpus()[0]?.model },
  presets: merged };
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, JSON.stringify(doc, null, 2) + '\n');
console.log('wrote build/bench/anchor.json');
