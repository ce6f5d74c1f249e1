// Runs the benchmark (scripts/bench builds first, then calls this): native GEMM/MLP (SSE and AVX2 builds), every
// preset with the native CLI, then the same workloads in headless Chromium beside TensorFlow.js-wasm. Prints a
// table and writes build/bench/results.json, results.md and the table's section of tests/bench/RESULTS.md.
//   node tests/bench/run_bench.mjs [--quick] [--no-presets] [--isolated] [--table]
//     --quick       fewer repetitions and no float32 preset pass (a smoke run: its command heads its results)
//     --table       measure nothing: print the table of the last build/bench/results.json again
//     --no-presets  skip the preset wall times (native and browser)
//     --isolated    serve the page cross-origin isolated (COOP/COEP), as scripts/serve --isolated does
//     --threads-only  only the parallel sweeps below; writes build/bench/threads.json and its own results section
// Parallel sweeps: the playground page itself (build/site, staged by scripts/build) runs sweep presets to the end,
// served plainly (muplay.js, one thread) and cross-origin isolated (muplay-threads.js, every core), in one Chromium;
// the native CLI runs them with --threads 1 and with every core.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { commandLine, writeResults } from '../../scripts/bench-results.mjs';
import { startServer } from '../../scripts/static-server.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = path.join(ROOT, 'build', 'bench');
const SITE = path.join(OUT, 'site');
const args = new Set(process.argv.slice(2));
const quick = args.has('--quick');
const withPresets = !args.has('--no-presets');
const isolated = args.has('--isolated');

const log = (...a) => console.error('bench:', ...a);
// scripts/bench, which builds and then runs this file, names itself; run directly, this file is the command.
const command = process.env.BENCH_COMMAND ?? commandLine();

function native(binary) {
  const exe = path.join(ROOT, 'build', 'native', 'tests', 'bench', binary);
  return JSON.parse(execFileSync(exe, quick ? ['--quick'] : [], { encoding: 'utf8' }));
}

// A preset run by the native CLI: wall seconds, CPU seconds (user + system: what the run costs on a loaded machine)
// and peak resident memory (GNU time's %M, KiB).
// One thread unless told: the browser's preset column (bench page) is single-threaded too.
function nativePreset(file, precision, threads = 1) {
  const tmp = mkdtempSync(path.join(tmpdir(), 'muplay-bench-'));
  let spec = file;
  if (precision) {
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.precision = precision;
    spec = path.join(tmp, path.basename(file));
    writeFileSync(spec, JSON.stringify(doc));
  }
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M %U %S', path.join(ROOT, 'build', 'native', 'engine', 'muplay'), 'run', spec,
    '--out', path.join(tmp, 'result.json'), '--quiet', '--threads', String(threads)], { encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const [kib, user, system] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  rmSync(tmp, { recursive: true, force: true });
  // exit status 1: a member diverged (the preset shows it on purpose), still a complete run
  return { seconds, cpu_seconds: user + system, peak_rss_bytes: kib * 1024, exit_status: r.status };
}

function stageSite() {
  rmSync(SITE, { recursive: true, force: true });
  mkdirSync(SITE, { recursive: true });
  const files = [
    ['tests/bench/bench.html', 'index.html'], ['tests/bench/bench_page.js'],
    ['build/web/tests/bench/muplay_bench.js'], ['build/web/tests/bench/muplay_bench.wasm'],
    ['node_modules/@tensorflow/tfjs/dist/tf.min.js'],
    ['node_modules/@tensorflow/tfjs-backend-wasm/dist/tf-backend-wasm.min.js'],
  ];
  const wasmDir = 'node_modules/@tensorflow/tfjs-backend-wasm/dist';
  for (const f of readdirSync(path.join(ROOT, wasmDir))) if (f.endsWith('.wasm')) files.push([`${wasmDir}/${f}`]);
  for (const [from, to] of files) copyFileSync(path.join(ROOT, from), path.join(SITE, to ?? path.basename(from)));
}

async function browser(presetNames) {
  stageSite();
  const server = await startServer({ root: SITE, port: 0, isolated });
  const profile = mkdtempSync(path.join(tmpdir(), 'muplay-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--disable-quic', '--enable-unsafe-webgpu'],
  });
  try {
    const page = context.pages()[0] ?? await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(server.url);
    const out = { chromium: context.browser()?.version() ?? null };
    out.setup = await page.evaluate(() => bench.setup());
    log(`chromium: kernel ${out.setup.kernel}, TF.js ${out.setup.tfjs.version} simd=${out.setup.tfjs.simd}`);
    await page.evaluate((s) => bench.warmUp(s), quick ? 0.5 : 3);
    out.gemm = [];
    for (const n of [64, 128, 256, 512, 1024]) {
      out.gemm.push(await page.evaluate(([n, r]) => bench.gemm(n, r), [n, quick ? 0.5 : 4]));
      log('chromium gemm', JSON.stringify(out.gemm.at(-1)));
    }
    out.mlp = await page.evaluate(([s, r]) => bench.mlp(s, r), quick ? [3, 1] : [15, 3]);
    log('chromium mlp', JSON.stringify(out.mlp));
    out.presets = [];
    for (const name of presetNames) {
      for (const precision of quick ? [-1] : [-1, 1]) {
        const r = await page.evaluate(([n, p]) => bench.preset(n, p), [name, precision]);
        r.precision = precision === 1 ? 'float32' : 'as written';
        out.presets.push(r);
        log('chromium preset', JSON.stringify(r));
      }
    }
    out.errors = errors;
    return out;
  } finally {
    await context.close();
    await server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

// A sweep preset run to the end on the playground page (what a student sees): wall seconds from Run to finished.
async function pageSweepSeconds(page, name) {
  return page.evaluate(async (n) => {
    const m = window.muplay;
    const index = JSON.parse(m.muplay_list_presets()).findIndex((p) => p.path.endsWith(n));
    if (index < 0 || !m.muplay_load_preset(index)) throw new Error(`no valid preset ${n}`);
    const t0 = performance.now();
    m.muplay_run();
    while (m.muplay_state() !== 'finished') await new Promise((r) => setTimeout(r, 20));
    return { seconds: (performance.now() - t0) / 1000, results: m.muplay_get_results() };
  }, name);
}

// The same sweep presets on the plain page (one thread) and the cross-origin isolated page (threaded build), pages
// in one Chromium, alternating, best of `reps`; and natively with --threads 1 and every core.
async function threadsBench(names, reps) {
  const plain = await startServer({ root: path.join(ROOT, 'build', 'site'), port: 0 });
  const isolatedServer = await startServer({ root: path.join(ROOT, 'build', 'site'), port: 0, isolated: true });
  const profile = mkdtempSync(path.join(tmpdir(), 'muplay-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--disable-quic'],
    viewport: { width: 1280, height: 800 },
  });
  try {
    const open = async (url) => {
      const page = await context.newPage();
      await page.goto(url);
      await page.evaluate(() => window.muplay.ready.then(() => true));
      const info = await page.evaluate(() => ({ build: window.muplay.build,
        threads: JSON.parse(window.muplay.muplay_frame_stats()).threads }));
      return { page, ...info };
    };
    // One page open at a time: an open page keeps drawing (WebGL on SwiftShader, CPU) and would take a core.
    const timed = async (url, name) => {
      const p = await open(url);
      try {
        return { ...await pageSweepSeconds(p.page, name), build: p.build, threads: p.threads };
      } finally {
        await p.page.close();
      }
    };
    const out = { cores: cpus().length, presets: [] };
    for (const name of names) {
      const r = { name, plain_s: Infinity, threaded_s: Infinity, same_results: true };
      for (let i = 0; i < reps; i++) {
        const a = await timed(plain.url + PAGE_VIEW, name), b = await timed(isolatedServer.url + PAGE_VIEW, name);
        log('threads', name, `plain ${a.seconds.toFixed(2)} s, threaded ${b.seconds.toFixed(2)} s`);
        Object.assign(out, { plain_threads: a.threads, threaded_threads: b.threads, threaded_build: b.build });
        r.plain_s = Math.min(r.plain_s, a.seconds);
        r.threaded_s = Math.min(r.threaded_s, b.seconds);
        r.same_results &&= a.results === b.results;
      }
      r.speedup = r.plain_s / r.threaded_s;
      const file = path.join(ROOT, 'examples', name);
      r.native_1_thread = nativePreset(file, undefined, 1);
      r.native_all_threads = nativePreset(file, undefined, cpus().length);
      r.native_speedup = r.native_1_thread.seconds / r.native_all_threads.seconds;
      out.presets.push(r);
      log('threads', JSON.stringify(r));
    }
    return out;
  } finally {
    await context.close();
    await plain.close();
    await isolatedServer.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

function cpuModel() {
  const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('model name'));
  return line ? line.split(':')[1].trim() : cpus()[0]?.model;
}

const fmt = (x, d = 1) => (x === undefined || x === null || !Number.isFinite(x) ? '–' : x.toFixed(d));

function table(r) {
  const lines = [];
  lines.push(`Date ${r.date.slice(0, 10)}, ${r.machine.cpu}, ${r.machine.cores} cores (load average ${r.machine.load_before.map((x) => x.toFixed(1)).join(' ')} at start), ` +
    `Chromium ${r.browser.chromium}, TensorFlow.js ${r.browser.setup.tfjs.version} (wasm, SIMD ${r.browser.setup.tfjs.simd ? 'on' : 'off'}, 1 thread). ` +
    `Engine kernel: ${r.browser.setup.kernel} (wasm), ${r.native.sse.kernel} (native).`);
  lines.push('');
  lines.push('GEMM, f32, C = A·B square, GFLOP/s (best of repeated runs; single thread):');
  lines.push('');
  lines.push('| n | wasm: own kernel | wasm: TF.js (XNNPACK) | own / TF.js | wasm: Eigen | wasm: engine f64 | native SSE: own | native AVX2 build: own | native SSE: Eigen | native AVX2: Eigen | wasm / native SSE (own) |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const g of r.browser.gemm) {
    const ns = (impl, build) => r.native[build].gemm.find((x) => x.n === g.n && x.impl === impl)?.gflops_cpu;
    lines.push(`| ${g.n} | ${fmt(g.own_f32)} | ${fmt(g.tfjs_wasm)} | ${fmt(g.own_f32 / g.tfjs_wasm, 2)} | ${fmt(g.eigen_f32)} | ${fmt(g.engine_f64)} | ` +
      `${fmt(ns('own_f32', 'sse'))} | ${fmt(ns('own_f32', 'avx'))} | ${fmt(ns('eigen_f32', 'sse'))} | ${fmt(ns('eigen_f32', 'avx'))} | ${fmt(g.own_f32 / ns('own_f32', 'sse'), 2)} |`);
  }
  lines.push('');
  lines.push('Native columns use the thread\'s CPU time (immune to preemption on a shared machine); browser columns are wall time.');
  lines.push('');
  const m = r.browser.mlp;
  const nm = (build, p) => r.native[build].mlp.find((x) => x.precision === p)?.steps_per_s_cpu;
  lines.push('Training steps/s, MLP 784-512-512-10, ReLU, batch 128, Adam, softmax cross-entropy (single thread):');
  lines.push('');
  lines.push('| | engine float64 | engine float32 | TF.js-wasm | engine float32 / TF.js |');
  lines.push('|---|---|---|---|---|');
  lines.push(`| Chromium (wasm), fastest step | ${fmt(m.engine_f64)} | ${fmt(m.engine_f32)} | ${fmt(m.tfjs_wasm)} | ${fmt(m.engine_f32 / m.tfjs_wasm, 2)} |`);
  lines.push(`| Chromium (wasm), sustained | ${fmt(m.engine_f64_sustained)} | ${fmt(m.engine_f32_sustained)} | ${fmt(m.tfjs_wasm_sustained)} | ${fmt(m.engine_f32_sustained / m.tfjs_wasm_sustained, 2)} |`);
  lines.push(`| native SSE (CPU time) | ${fmt(nm('sse', 'float64'))} | ${fmt(nm('sse', 'float32'))} | | |`);
  lines.push(`| native AVX2 build (CPU time) | ${fmt(nm('avx', 'float64'))} | ${fmt(nm('avx', 'float32'))} | | |`);
  if (r.presets) {
    lines.push('');
    lines.push('Presets (examples/), run to the end: wall seconds and peak memory (Chromium: wasm linear memory; native: RSS):');
    lines.push('');
    lines.push('| preset | Chromium s | Chromium float32 s | Chromium peak MB (float32) | native s (CPU s) | native float32 s (CPU s) | native peak RSS MB |');
    lines.push('|---|---|---|---|---|---|---|');
    for (const p of r.presets) {
      const nat = (x) => (x ? `${fmt(x.seconds)} (${fmt(x.cpu_seconds)})` : '–');
      lines.push(`| ${p.name} | ${fmt(p.browser?.seconds)} | ${fmt(p.browser_f32?.seconds)} | ${fmt(p.browser?.peak_wasm_memory_bytes / 2 ** 20, 0)} (${fmt(p.browser_f32?.peak_wasm_memory_bytes / 2 ** 20, 0)}) | ` +
        `${nat(p.native)} | ${nat(p.native_f32)} | ${fmt(p.native.peak_rss_bytes / 2 ** 20, 0)} |`);
    }
  }
  if (r.threads) lines.push('', threadsTable(r.threads));
  return lines.join('\n');
}

function threadsTable(t) {
  const lines = [];
  lines.push(`Parallel sweeps: presets run to the end on the playground page, plain (muplay.js, ${t.plain_threads} thread) ` +
    `beside cross-origin isolated (muplay-threads.js, ${t.threaded_threads} threads), same Chromium; native CLI ` +
    `--threads 1 vs ${t.cores}. Wall seconds, best of ${t.reps}:`);
  lines.push('');
  lines.push('| preset | page, 1 thread | page, threads | speed-up | same results | native, 1 thread | native, all cores | speed-up |');
  lines.push('|---|---|---|---|---|---|---|---|');
  for (const p of t.presets) {
    lines.push(`| ${p.name} | ${fmt(p.plain_s, 2)} | ${fmt(p.threaded_s, 2)} | ${fmt(p.speedup, 2)}× | ${p.same_results ? 'yes' : 'NO'} | ` +
      `${fmt(p.native_1_thread.seconds, 2)} | ${fmt(p.native_all_threads.seconds, 2)} | ${fmt(p.native_speedup, 2)}× |`);
  }
  return lines.join('\n');
}

// Only the run controls and the status bar (an embed's panels): headless Chromium draws WebGL with SwiftShader on the
// CPU, and the full page's plot of a 28-member sweep takes most of each frame (the page trains a 10-50 ms slice per
// frame), so with it the timing measures the drawing, not the training.
const PAGE_VIEW = '?embed=1&panels=controls,status';
const THREAD_PRESETS = ['14-lr-transfer-toy-mup.json', '10-coord-check-mup.json'];
async function measureThreads() {
  const reps = quick ? 1 : 2;
  return { reps, page: PAGE_VIEW, ...await threadsBench(THREAD_PRESETS, reps) };
}

if (args.has('--table')) {
  console.log(table(JSON.parse(readFileSync(path.join(OUT, 'results.json'), 'utf8'))));
  process.exit(0);
}

if (args.has('--threads-only')) {
  const t = { date: new Date().toISOString(), machine: { cpu: cpuModel(), cores: cpus().length, load_before: loadavg() },
    ...await measureThreads() };
  t.machine.load_after = loadavg();
  mkdirSync(OUT, { recursive: true });
  writeFileSync(path.join(OUT, 'threads.json'), JSON.stringify(t, null, 2) + '\n');
  console.log(threadsTable(t));
  log(`wrote ${path.relative(ROOT, path.join(OUT, 'threads.json'))}`);
  writeResults('scripts/bench --threads-only', command, threadsTable(t), t.machine.load_before[0]);
  process.exit(0);
}

const presetFiles = readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.json')).sort();
const result = { schema: 'muplay-bench', version: 1, date: new Date().toISOString(), quick, isolated,
  machine: { cpu: cpuModel(), cores: cpus().length, load_before: loadavg() }, node: process.version };
log('native SSE build');
result.native = { sse: native('bench_native') };
log('native AVX2 build');
result.native.avx = native('bench_native_avx');
if (withPresets) {
  result.presets = presetFiles.map((name) => {
    const file = path.join(ROOT, 'examples', name);
    const p = { name, native: nativePreset(file) };
    if (!quick) p.native_f32 = nativePreset(file, 'float32');
    log('native preset', JSON.stringify(p));
    return p;
  });
}
result.browser = await browser(withPresets ? presetFiles : []);
for (const p of result.presets ?? []) {
  p.browser = result.browser.presets.find((b) => b.name === p.name && b.precision === 'as written');
  p.browser_f32 = result.browser.presets.find((b) => b.name === p.name && b.precision === 'float32');
}
if (existsSync(path.join(ROOT, 'build', 'site', 'muplay-threads.js'))) {
  result.threads = await measureThreads();
} else {
  log('no build/site/muplay-threads.js (scripts/build stages it): parallel sweeps not measured');
}
result.machine.load_after = loadavg();
mkdirSync(OUT, { recursive: true });
writeFileSync(path.join(OUT, 'results.json'), JSON.stringify(result, null, 2) + '\n');
const md = table(result);
writeFileSync(path.join(OUT, 'results.md'), md + '\n');
console.log(md);
log(`wrote ${path.relative(ROOT, path.join(OUT, 'results.json'))} and results.md`);
writeResults('scripts/bench', command, md, result.machine.load_before[0]);
if (result.browser.errors.length) log('page errors:', result.browser.errors.join(' | '));
