#!/usr/bin/env node
// Where the CPU goes while the page trains a preset (or rests): headless Chromium opens the page, loads the preset,
// presses Run, and after a few seconds reads every Chromium thread's CPU time from /proc twice, T seconds apart.
// Prints the cores each thread used (renderer/DedicatedWorker: a training worker; gpu-process/Thread<NN>: the
// software GL's rasterizer) and the page's frames, drawn frames and steps per second over the same window; the same
// as a table in its section of tests/bench/RESULTS.md.
// Usage: node scripts/page-cpu.mjs [preset substring] [url suffix]   (after scripts/build; Linux only)
//   env T (default 15): seconds measured; W (default 3000): ms after Run before measuring; NORUN=1: the page at rest
//   e.g. node scripts/page-cpu.mjs 33-anchor '?embed=1&panels=controls,status'
import { readdirSync, readFileSync } from 'node:fs';
import { openPlayground } from '../tests/browser/harness.mjs';
import { commandLine, loadNow, writeResults } from './bench-results.mjs';

const preset = process.argv[2] ?? '33-anchor';
const suffix = process.argv[3] ?? '';
const T = Number(process.env.T ?? 15);
const loadBefore = loadNow();

// CPU ticks (1/100 s) of every Chromium thread, summed by process type and thread name.
function cpuTicks() {
  const out = new Map();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let cmd;
    try { cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { continue; }
    if (!cmd.includes('chromium')) continue;
    const type = (cmd.match(/--type=([a-z-]+)/) || [, 'browser'])[1];
    let tids;
    try { tids = readdirSync(`/proc/${pid}/task`); } catch { continue; }
    for (const tid of tids) {
      try {
        const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
        const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
        const key = `${type}/${name}`;
        out.set(key, (out.get(key) ?? 0) + Number(fields[11]) + Number(fields[12]));  // utime + stime
      } catch { /* the thread ended meanwhile */ }
    }
  }
  return out;
}

const counts = (page) => page.evaluate(() => ({ frames: window.muplay.muplay_frame_count(),
  drawn: window.muplay.muplay_drawn_frame_count(), steps: window.muplay.muplay_total_steps() }));

const pg = await openPlayground({ suffix });
try {
  const presets = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_list_presets()));
  const i = presets.findIndex((p) => p.path.includes(preset));
  if (i < 0) throw new Error(`no preset matches ${preset}`);
  await pg.page.evaluate((k) => window.muplay.muplay_load_preset(k), i);
  await pg.page.waitForFunction(() => window.muplay.muplay_trains_in_worker() > 0, null, { timeout: 10_000 })
    .catch(() => {});
  if (!process.env.NORUN) await pg.page.evaluate(() => window.muplay.muplay_run());
  await new Promise((r) => setTimeout(r, Number(process.env.W ?? 3000)));
  const [a, ca] = [cpuTicks(), await counts(pg.page)];
  await new Promise((r) => setTimeout(r, T * 1000));
  const [b, cb] = [cpuTicks(), await counts(pg.page)];
  const rows = [...b].map(([k, v]) => [k, (v - (a.get(k) ?? 0)) / 100 / T]).filter(([, c]) => c > 0.01)
    .sort((x, y) => y[1] - x[1]);
  for (const [k, c] of rows) console.log(c.toFixed(2), k);
  const total = rows.reduce((s, [, c]) => s + c, 0);
  const summary = `total cores ${total.toFixed(2)}, frames/s ${(cb.frames - ca.frames) / T}, ` +
                  `drawn/s ${(cb.drawn - ca.drawn) / T}, steps/s ${(cb.steps - ca.steps) / T}`;
  console.log(summary);
  const table = [`Preset ${presets[i].path}${process.env.NORUN ? ' loaded, not run' : ' training'}; ` +
    `each Chromium thread's CPU over ${T} s: ${summary}.`, '', '| cores | process type / thread |', '|---|---|',
    ...rows.map(([k, c]) => `| ${c.toFixed(2)} | ${k} |`)].join('\n');
  writeResults('scripts/page-cpu.mjs', commandLine(['T', 'W', 'NORUN']), table, loadBefore);
} finally {
  await pg.close();
}
