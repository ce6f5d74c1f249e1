#!/usr/bin/env node
// The page's WebGPU kernels (shaders/, run by web/js/webgpu_backend.js) outside the browser, through Dawn for node (npm
// `webgpu`), to measure them on a machine with a real GPU:
//   node scripts/gpu-bench.mjs [--sizes 256,1024,2048] [--reps 20] [--plan PLAN.json] [--out build/bench/gpu-bench.json]
// It checks each GEMM variant (NN, NT, TN; scalar and vec4 loads) against a float64 reference first, then times
// C = A·B at each size (a warm-up, then `reps` dispatches in one submission, waited on with onSubmittedWorkDone)
// and prints GFLOP/s (2·m·n·k per dispatch) with the adapter's name; the same numbers go to the JSON file and to
// its section of tests/bench/RESULTS.md.
// --plan times a whole training step (both phases) of a plan written by `muplay gpu-plan SPEC.json --out PLAN.json`
// (the engine's plan, random parameters and data; an MLP or a Transformer spec, e.g. examples/30-anchor-identity.json):
// steps/s, and GFLOP/s of its matrix products.
//
// `webgpu` (Dawn, ~130 MB of prebuilt binaries) is not a dependency of the project: install it in the folder you run
// this from (`npm install --no-save webgpu`; found through that folder's node_modules, else this checkout's). With no
// usable adapter it says so and exits 2; a software adapter is reported as such, and its numbers say nothing about a
// GPU. Without a GPU, Chromium's SwiftShader can stand in to check that the kernels run and are right:
//   LD_LIBRARY_PATH=/usr/lib/chromium VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/gpu-bench.mjs
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { commandLine, loadNow, writeResults } from './bench-results.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function options(argv) {
  const o = { sizes: [256, 1024, 2048], reps: 20, out: path.join(ROOT, 'build', 'bench', 'gpu-bench.json') };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--sizes') o.sizes = argv[++i].split(',').map(Number);
    else if (argv[i] === '--reps') o.reps = Number(argv[++i]);
    else if (argv[i] === '--out') o.out = argv[++i];
    else if (argv[i] === '--plan') o.plan = argv[++i];
    else throw new Error(`unknown argument ${argv[i]} (see the comment at the top of scripts/gpu-bench.mjs)`);
  }
  return o;
}

// Dawn from the current folder's node_modules (or this checkout's): `cd` where `webgpu` is installed.
async function dawn() {
  try {
    const where = createRequire(path.join(process.cwd(), 'index.js')).resolve('webgpu');
    const { create, globals } = await import(pathToFileURL(where).href);
    Object.assign(globalThis, globals);
    return create([]);
  } catch (e) {
    console.error(`gpu-bench: npm package "webgpu" not found (${e.code ?? e.message}); install it with ` +
                  '`npm install --no-save webgpu` (Dawn for node) and run again.');
    process.exit(2);
  }
}

function randomMatrix(n, seed) {
  let s = seed;
  return Float32Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 1073741824 - 1;
  });
}

// One GEMM through the page's plan executor; returns the plan id.
function gemmPlan(gpu, kernel, m, n, k) {
  return gpu.createPlan({ buffers: [m * k, k * n, m * n], phases: [[{ kernel, buffers: [0, 1, 2], ints: [m, n, k], floats: [1] }]] });
}

// [m, n, k]: 67x45x131 runs the scalar-load kernel, 68x44x132 the vec4-load one (what the timed sizes use).
async function checkVariant(gpu, kernel, [m, n, k]) {
  const A = randomMatrix(m * k, 1), B = randomMatrix(k * n, 2);
  const id = gemmPlan(gpu, kernel, m, n, k);
  gpu.write(id, 0, A);
  gpu.write(id, 1, B);
  gpu.run(id, 0);
  const [C] = await gpu.read(id, [2]);
  gpu.releasePlan(id);
  const ta = kernel === 'gemm_tn', tb = kernel === 'gemm_nt';
  let err = 0, scale = 0;
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) {
    let s = 0;
    for (let p = 0; p < k; p++) s += (ta ? A[p * m + i] : A[i * k + p]) * (tb ? B[j * k + p] : B[p * n + j]);
    err = Math.max(err, Math.abs(C[i * n + j] - s));
    scale = Math.max(scale, Math.abs(s));
  }
  return err / scale;
}

async function timeGemm(gpu, kernel, size, reps) {
  const id = gemmPlan(gpu, kernel, size, size, size);
  gpu.write(id, 0, randomMatrix(size * size, 3));
  gpu.write(id, 1, randomMatrix(size * size, 4));
  gpu.run(id, 0, 2);  // warm-up (pipeline creation, first-use costs)
  await gpu.device.queue.onSubmittedWorkDone();
  const t0 = performance.now();
  gpu.run(id, 0, reps);
  await gpu.device.queue.onSubmittedWorkDone();
  const seconds = (performance.now() - t0) / 1000;
  gpu.releasePlan(id);
  return (2 * size ** 3 * reps) / seconds / 1e9;
}

// A training step of the engine's plan on random data: both phases `reps` times in one submission. A Transformer's
// plan ("kind": "transformer") gets valid token ids and labels for its training set.
async function timePlan(gpu, doc, reps) {
  const id = gpu.createPlan(doc.plan);
  const indices = new Set([doc.step, doc.batch_index, doc.train_tokens, doc.train_labels]);
  doc.plan.buffers.forEach((size, b) => {
    if (!indices.has(b)) gpu.write(id, b, randomMatrix(size, b + 7).map((x) => 0.02 * x));
  });
  if (doc.kind === 'transformer') {
    const ids = (n, below) => Float32Array.from({ length: n }, (_, i) => (i * 37 + 11) % below);
    gpu.write(id, doc.train_tokens, ids(doc.train_size * doc.seq_len, doc.vocab));
    gpu.write(id, doc.train_labels, ids(doc.train_size, doc.outputs));
  }
  gpu.write(id, doc.step, new Float32Array([0, 0.1, 0.001, 1]));  // loss slot, 1 − β1^t, 1 − β2^t, lr factor
  if (doc.ones >= 0) gpu.write(id, doc.ones, new Float32Array(doc.plan.buffers[doc.ones]).fill(1));  // a residual net's LN gain
  if (doc.batch_index >= 0) gpu.write(id, doc.batch_index, Float32Array.from({ length: doc.batch }, (_, i) => (i * 7) % doc.train_size));
  const steps = async (n) => {
    for (let t = 0; t < n; t++) {
      gpu.run(id, 0);
      gpu.run(id, 1);
    }
    await gpu.device.queue.onSubmittedWorkDone();
  };
  await steps(2);  // warm-up
  const t0 = performance.now();
  await steps(reps);
  const seconds = (performance.now() - t0) / 1000;
  gpu.releasePlan(id);
  return { steps_per_second: reps / seconds, gflops: (doc.flops_per_step * reps) / seconds / 1e9 };
}

async function main() {
  const o = options(process.argv.slice(2));
  const loadBefore = loadNow();
  const { openGpu } = await import(pathToFileURL(path.join(ROOT, 'web', 'js', 'webgpu_backend.js')).href);
  const gpuApi = await dawn();
  let gpu;
  try {
    gpu = await openGpu({ gpu: gpuApi, loadSource: async (name) => readFileSync(path.join(ROOT, 'shaders', name), 'utf8') });
  } catch (e) {
    console.error(`gpu-bench: ${e.message}`);
    process.exit(2);
  }
  const { name, isFallback } = gpu.adapter;
  console.log(`adapter: ${name}${isFallback ? ' (software fallback: these numbers say nothing about a GPU)' : ''}`);
  const result = { adapter: name, fallback: isFallback, check: {}, gflops: [] };
  for (const kernel of ['gemm_nn', 'gemm_nt', 'gemm_tn']) {
    for (const dims of [[67, 45, 131], [68, 44, 132]]) {
      const err = await checkVariant(gpu, kernel, dims);
      result.check[`${kernel} ${dims.join('x')}`] = err;
      console.log(`${kernel}: relative error ${err.toExponential(2)} on ${dims.join('x')} against float64`);
      if (!(err <= 1e-4)) throw new Error(`${kernel} is wrong on this device (relative error ${err})`);
    }
  }
  for (const size of o.sizes) {
    for (const kernel of ['gemm_nn', 'gemm_nt', 'gemm_tn']) {
      const gflops = await timeGemm(gpu, kernel, size, o.reps);
      result.gflops.push({ kernel, size, reps: o.reps, gflops });
      console.log(`${kernel} ${size}x${size}x${size}: ${gflops.toPrecision(3)} GFLOP/s`);
    }
  }
  if (o.plan) {
    const doc = JSON.parse(readFileSync(o.plan, 'utf8'));
    result.plan = { file: o.plan, batch: doc.batch, reps: o.reps, ...(await timePlan(gpu, doc, o.reps)) };
    result.plan.kind = doc.kind ?? 'mlp';
    console.log(`${result.plan.kind} training step of ${o.plan} (batch ${doc.batch}): ` +
                `${result.plan.steps_per_second.toPrecision(3)} steps/s, ${result.plan.gflops.toPrecision(3)} GFLOP/s ` +
                'in its matrix products');
  }
  mkdirSync(path.dirname(o.out), { recursive: true });
  writeFileSync(o.out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`written: ${o.out}`);
  const table = [`Adapter: ${name}${isFallback ? ' (software fallback: no GPU speed)' : ''}. ` +
    `GEMM C = A·B, square, f32, GFLOP/s, ${o.reps} dispatches in one submission:`, '',
    '| size | gemm_nn | gemm_nt | gemm_tn |', '|---|---|---|---|',
    ...o.sizes.map((size) => `| ${size} | ${['gemm_nn', 'gemm_nt', 'gemm_tn'].map((k) =>
      result.gflops.find((g) => g.kernel === k && g.size === size).gflops.toPrecision(3)).join(' | ')} |`)];
  if (result.plan) {
    table.push('', `${result.plan.kind} training step of ${o.plan} (batch ${result.plan.batch}): ` +
      `${result.plan.steps_per_second.toPrecision(3)} steps/s, ${result.plan.gflops.toPrecision(3)} GFLOP/s in its matrix products.`);
  }
  writeResults('scripts/gpu-bench.mjs', commandLine(), table.join('\n'), loadBefore);
  gpu.device.destroy();
}

main().catch((e) => {
  console.error(`gpu-bench: ${e.message}`);
  process.exit(1);
});
