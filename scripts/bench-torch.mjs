#!/usr/bin/env node
// The native engine against the PyTorch export on the same spec, side by side in one run: `muplay run --threads 2`
// and the exported `train.py --threads 2` (and, to show what each choice costs, train.py on one thread, and with
// OpenMP's spinning wait policy against train.py's passive one, alone and beside a process that keeps one core busy,
// as on a shared machine). Each variant runs ROUNDS times in alternation and keeps its best wall time (the
// round least disturbed by other processes); steps/s counts every member's steps. Prints a table with the ratios to
// train.py --threads 2 and writes build/bench/torch.json and its section of tests/bench/RESULTS.md.
// Usage: node scripts/bench-torch.mjs   (after scripts/build; needs Debian's python3-torch under /usr/bin/python3)
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandLine, loadNow, writeResults } from './bench-results.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MUPLAY = path.join(ROOT, 'build', 'native', 'engine', 'muplay');
const DATA = path.join(ROOT, 'build', 'native', 'data', 'fashion-mnist');
const PYTHON = '/usr/bin/python3';
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const work = mkdtempSync(path.join(tmpdir(), 'muplay-bench-torch-'));
const loadBefore = loadNow();

// The page-sized E2 preset (3 widths × 9 learning rates, 16 steps of batch 128) and one wide member of it, whose
// time is in its matrix products rather than in per-step overheads.
const preset = JSON.parse(readFileSync(path.join(ROOT, 'examples', '15-fashion-mnist-transfer-mup.json'), 'utf8'));
const wide = structuredClone(preset);
wide.name += ', one member at n = 1024';
wide.sweep = { ...wide.sweep, width: [1024], lr: [0.03125] };
const SPECS = { 'preset 15 (27 members, n = 32–128)': preset, 'preset 15 at n = 1024 (1 member)': wide };

const memberSteps = (spec) => (spec.sweep.width?.length || 1) * (spec.sweep.lr?.length || 1) *
  (spec.sweep.seeds?.length || 1) * spec.schedule.steps;

function variants(folder) {
  const train = (threads, env = {}, busy = false) => ({
    command: [PYTHON, 'train.py', '--quiet', '--threads', String(threads), '--data-dir', DATA, '--out', 'torch.json'],
    env, cwd: folder, busy });
  return {
    'muplay run --threads 2': { command: [MUPLAY, 'run', 'spec.json', '--quiet', '--threads', '2', '--out',
                                          'native.json'], env: {}, cwd: folder },
    'train.py --threads 2': train(2),
    'train.py --threads 1': train(1),
    'train.py --threads 2, OMP_WAIT_POLICY=ACTIVE': train(2, { OMP_WAIT_POLICY: 'ACTIVE' }),
    'train.py --threads 2, beside a busy core': train(2, {}, true),
    'train.py --threads 2, OMP_WAIT_POLICY=ACTIVE, beside a busy core': train(2, { OMP_WAIT_POLICY: 'ACTIVE' }, true),
  };
}

function seconds({ command, env, cwd, busy }) {
  const hog = busy ? spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }) : null;
  const start = process.hrtime.bigint();
  execFileSync(command[0], command.slice(1), { cwd, env: { ...process.env, ...env }, stdio: 'ignore' });
  const s = Number(process.hrtime.bigint() - start) / 1e9;
  hog?.kill();
  return s;
}

const rows = [];
for (const [label, spec] of Object.entries(SPECS)) {
  const folder = path.join(work, String(rows.length));
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'spec.json'), JSON.stringify(spec));
  execFileSync(MUPLAY, ['export', 'torch', 'spec.json', '--out', '.', '--force'], { cwd: folder, stdio: 'ignore' });
  const runs = variants(folder);
  const best = Object.fromEntries(Object.keys(runs).map((name) => [name, Infinity]));
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, run] of Object.entries(runs)) best[name] = Math.min(best[name], seconds(run));
  const reference = best['train.py --threads 2'];
  for (const [name, s] of Object.entries(best)) {
    const row = { spec: label, variant: name, seconds: s, steps_per_second: memberSteps(spec) / s,
                  speed_vs_train_py_2_threads: reference / s };
    rows.push(row);
    console.log(`${label.padEnd(36)} ${name.padEnd(68)} ${s.toFixed(2).padStart(7)} s ` +
                `${row.steps_per_second.toFixed(1).padStart(8)} steps/s  ` +
                `×${row.speed_vs_train_py_2_threads.toFixed(2)}`);
  }
}
mkdirSync(path.join(ROOT, 'build', 'bench'), { recursive: true });
writeFileSync(path.join(ROOT, 'build', 'bench', 'torch.json'), JSON.stringify(rows, null, 1) + '\n');
const torchVersion = execFileSync(PYTHON, ['-c', 'import torch; print(torch.__version__)'], { encoding: 'utf8' })
  .trim();
const table = [
  `Best of ${ROUNDS} alternating rounds, wall clock; float64 on both sides (the spec's precision); ` +
    `torch ${torchVersion}.` +
    ' Speed: train.py --threads 2\'s time over the variant\'s (above 1: faster).',
  '',
  '| spec | variant | seconds | member-steps/s | speed |',
  '|---|---|---:|---:|---:|',
  ...rows.map((r) => `| ${r.spec} | ${r.variant} | ${r.seconds.toFixed(2)} | ${r.steps_per_second.toFixed(1)} | ` +
              `${r.speed_vs_train_py_2_threads.toFixed(2)} |`),
].join('\n');
writeResults('scripts/bench-torch.mjs', commandLine(['ROUNDS']), table, loadBefore);
