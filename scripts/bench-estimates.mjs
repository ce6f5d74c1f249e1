#!/usr/bin/env node
// The time budget's estimate against the measured time, for every preset: `muplay validate` gives the estimate (the
// command line's assumed throughput, engine/spec/time_budget.hpp), `muplay run --threads 1` the wall time of the
// whole sweep on one core. Prints a table and writes build/bench/estimates.json and its section of
// tests/bench/RESULTS.md.
// Usage: node scripts/bench-estimates.mjs [pattern]   (after scripts/build; pattern filters preset file names)
// Run it on an otherwise idle machine: the ratio compares a FLOP count with a wall time.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandLine, loadNow, writeResults } from './bench-results.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MUPLAY = path.join(ROOT, 'build', 'native', 'engine', 'muplay');
const filter = new RegExp(process.argv[2] ?? '');
const out = mkdtempSync(path.join(tmpdir(), 'muplay-estimates-'));
const loadBefore = loadNow();

const rows = [];
for (const file of readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.json')).sort()) {
  if (!filter.test(file)) continue;
  const spec = path.join(ROOT, 'examples', file);
  const line = execFileSync(MUPLAY, ['validate', spec], { encoding: 'utf8' });
  const [, gflop, rate] = line.match(/about ([\d.e+]+) GFLOP, .* at an assumed ([\d.e+]+) GFLOP\/s/);
  const estimate = Number(gflop) / Number(rate);
  const start = process.hrtime.bigint();
  spawnSync(MUPLAY, ['run', spec, '--out', path.join(out, file), '--quiet', '--threads', '1']);
  const measured = Number(process.hrtime.bigint() - start) / 1e9;
  const ratio = estimate / measured;
  rows.push({ preset: file, estimate_s: estimate, measured_s: measured, ratio });
  const flag = ratio > 3 || ratio < 1 / 3 ? '  <-- outside 3x' : '';
  console.log(`${file.padEnd(44)} estimate ${estimate.toFixed(2).padStart(8)} s  measured ${measured.toFixed(2)
    .padStart(8)} s  ratio ${ratio.toFixed(2)}${flag}`);
}
const outside = rows.filter((r) => r.ratio > 3 || r.ratio < 1 / 3).length;
console.log(`${rows.length} presets, ${outside} outside 3x`);
mkdirSync(path.join(ROOT, 'build', 'bench'), { recursive: true });
writeFileSync(path.join(ROOT, 'build', 'bench', 'estimates.json'), JSON.stringify(rows, null, 1) + '\n');
const table = [
  `\`muplay validate\`'s estimate against the wall time of \`muplay run --threads 1\`: ${rows.length} presets, ` +
  `${outside} outside 3×.`,
  '',
  '| preset | estimate (s) | measured (s) | ratio |',
  '|---|---|---|---|',
  ...rows.map((r) => `| \`${r.preset.replace(/\.json$/, '')}\` | ${r.estimate_s.toFixed(2)} | ${r.measured_s.toFixed(2)} | ` +
    `${r.ratio.toFixed(2)} |`),
].join('\n');
writeResults('scripts/bench-estimates.mjs', commandLine(), table, loadBefore);
