// WebGPU in headless Chromium (SwiftShader: correctness only, never speed), in one browser so that each kernel
// compiles once (SwiftShader takes seconds per GEMM variant):
// 1. every WGSL kernel of shaders/ against a float64 reference on random inputs of awkward sizes (not multiples of
//    the GEMM's 64×64 tile, nor of the 256-wide workgroups), through web/webgpu_backend.js's plan executor. Error
//    measure per output buffer: the normwise relative error max|gpu − ref| / max|ref|, at most 1e-4 (float32 vs
//    float64);
// 2. the page trains an MLP sweep on WebGPU (float32) and matches the same sweep on the CPU (float64);
// 3. backend auto never picks the software adapter, and says so;
// 4. a device destroyed mid-run: the run goes on on the CPU from the last step that came back, with a notice.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { WEBGPU_ARGS, openPlayground, screenshot } from './harness.mjs';

const T = { timeout: 60_000 };
const TOLERANCE = 1e-4;
let pg;
before(async () => {
  pg = await openPlayground({ args: WEBGPU_ARGS });
  // page.js opens WebGPU beside the app and hands it over as window.muplayGpu.
  await pg.page.waitForFunction(() => window.muplayGpu !== undefined, null, { timeout: 30_000 });
  const adapter = await pg.page.evaluate(() => window.muplayGpu.adapter);
  console.log(`WebGPU adapter: ${adapter.name}${adapter.isFallback ? ' (software fallback)' : ''}`);
}, T);
after(async () => { await pg?.close(); });

// Runs one kernel on the GPU: inputs are the plan's buffers (arrays, or a size for a zeroed output); returns the
// buffers listed in `read`.
async function gpuRun(kernel, inputs, ints, floats, read) {
  const buffers = inputs.map((b) => (typeof b === 'number' ? b : Array.from(b)));
  const out = await pg.page.evaluate(async ([kernel, buffers, ints, floats, read]) => {
    const gpu = window.muplayGpu;
    const id = gpu.createPlan({ buffers: buffers.map((b) => (typeof b === 'number' ? b : b.length)),
                                phases: [[{ kernel, buffers: buffers.map((_, i) => i), ints, floats }]] });
    buffers.forEach((b, i) => { if (typeof b !== 'number') gpu.write(id, i, new Float32Array(b)); });
    gpu.run(id, 0);
    const data = await gpu.read(id, read);
    gpu.releasePlan(id);
    if (gpu.errors.length) throw new Error(gpu.errors.join('\n'));
    return data.map((d) => Array.from(d));
  }, [kernel, buffers, ints, floats, read]);
  return out;
}

// Deterministic float32 inputs in [lo, hi).
function random(seed) {
  let s = seed >>> 0;
  const next = () => {  // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return (n, lo = -1, hi = 1) => Float32Array.from({ length: n }, () => lo + (hi - lo) * next());
}

function relError(gpu, ref) {
  let err = 0, scale = 0;
  for (let i = 0; i < ref.length; i++) {
    err = Math.max(err, Math.abs(gpu[i] - ref[i]));
    scale = Math.max(scale, Math.abs(ref[i]));
  }
  return scale > 0 ? err / scale : err;
}

function check(name, gpu, refs) {
  refs.forEach((ref, i) => {
    assert.equal(gpu[i].length, ref.length, `${name} output ${i}: length`);
    assert.ok(gpu[i].every(Number.isFinite), `${name} output ${i}: not finite`);
    const e = relError(gpu[i], ref);
    assert.ok(e <= TOLERANCE, `${name} output ${i}: relative error ${e.toExponential(2)} > ${TOLERANCE}`);
  });
}

// ---- float64 references (the formulas of engine/kernels.cpp, activation.cpp, loss.cpp, optimizer.cpp) ----

function gemmRef(A, B, m, n, k, alpha, transA, transB) {
  const C = new Float64Array(m * n);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) {
    let s = 0;
    for (let p = 0; p < k; p++) s += (transA ? A[p * m + i] : A[i * k + p]) * (transB ? B[j * k + p] : B[p * n + j]);
    C[i * n + j] = alpha * s;
  }
  return C;
}

const GELU_K = Math.sqrt(2 / Math.PI), GELU_C = 0.044715;
const ACTS = ['relu', 'tanh', 'gelu', 'linear', 'sigmoid'];  // codes 0..4, enum class Activation's order
function actForward(code, h) {
  switch (code) {
    case 0: return Math.max(h, 0);
    case 1: return Math.tanh(h);
    case 2: return 0.5 * h * (1 + Math.tanh(GELU_K * (h + GELU_C * h ** 3)));
    case 4: return 1 / (1 + Math.exp(-h));
    default: return h;
  }
}
function actBackward(code, dx, h, x) {
  switch (code) {
    case 0: return h > 0 ? dx : 0;
    case 1: return dx * (1 - x * x);
    case 2: {
      const t = Math.tanh(GELU_K * (h + GELU_C * h ** 3));
      return dx * (0.5 * (1 + t) + 0.5 * h * (1 - t * t) * GELU_K * (1 + 3 * GELU_C * h * h));
    }
    case 4: return dx * x * (1 - x);
    default: return dx;
  }
}

const rowsOf = (a, rows, cols) => Array.from({ length: rows }, (_, r) => a.slice(r * cols, (r + 1) * cols));

// ---- tests ----

test('GEMM NN, NT, TN (tiled, 4x4 outputs per invocation) match on sizes that are not multiples of the tile', T, async () => {
  const rnd = random(1);
  for (const [m, n, k] of [[67, 45, 131], [1, 130, 7], [129, 3, 66]]) {
    for (const [kernel, ta, tb] of [['gemm_nn', false, false], ['gemm_nt', false, true], ['gemm_tn', true, false]]) {
      const A = rnd(m * k), B = rnd(k * n), alpha = 0.37;
      const out = await gpuRun(kernel, [A, B, m * n], [m, n, k], [alpha], [2]);
      check(`${kernel} ${m}x${n}x${k}`, out, [gemmRef(A, B, m, n, k, alpha, ta, tb)]);
    }
  }
});

test('fused bias + activation, forward and backward, every activation', T, async () => {
  const rnd = random(2);
  const rows = 37, cols = 29, n = rows * cols;
  for (let code = 0; code < ACTS.length; code++) {
    const h = rnd(n, -3, 3), bias = rnd(cols), dx = rnd(n);
    const hb = Array.from(h, (v, i) => Math.fround(v + bias[i % cols]));  // the kernel adds the bias in float32
    const fwd = await gpuRun('bias_act_forward', [bias, h, n], [rows, cols, code, 1], [], [1, 2]);
    check(`bias_act_forward ${ACTS[code]}`, fwd, [hb, hb.map((v) => actForward(code, v))]);
    const x = hb.map((v) => Math.fround(actForward(code, v)));
    const bwd = await gpuRun('bias_act_backward', [dx, hb, x, n], [rows, cols, code], [], [3]);
    check(`bias_act_backward ${ACTS[code]}`, bwd, [hb.map((v, i) => actBackward(code, dx[i], v, x[i]))]);
  }
});

test('reductions: the sum into a step slot, and column sums', T, async () => {
  const rnd = random(3);
  const v = rnd(10007, 0, 1);
  const out = await gpuRun('reduce_sum', [v, [3], 6], [v.length, 1], [0.25], [2]);
  const total = v.reduce((a, b) => a + b, 0);
  check('reduce_sum', out, [[0, 0, 0, 0, 0.25 * total, 0]]);
  const rows = 301, cols = 37, m = rnd(rows * cols);
  const cs = await gpuRun('reduce_rows', [m, cols], [rows, cols], [], [1]);
  check('reduce_rows', cs, [Array.from({ length: cols }, (_, c) => rowsOf(m, rows, cols).reduce((a, r) => a + r[c], 0))]);
});

test('gather rows, MSE and cross-entropy with their gradients', T, async () => {
  const rnd = random(4);
  const src = rnd(53 * 19), index = [52, 0, 7, 7, 30];
  const g = await gpuRun('gather_rows', [src, index, 5 * 19], [5, 19], [], [2]);
  check('gather_rows', g, [index.flatMap((i) => Array.from(src.slice(i * 19, (i + 1) * 19)))]);

  const rows = 45, cols = 3, f = rnd(rows * cols, -2, 2), y = rnd(rows * cols);
  const mse = await gpuRun('mse', [f, y, rows * cols, rows * cols], [rows, cols], [], [2, 3]);
  check('mse', mse, [Array.from(f, (v, i) => (v - y[i]) / rows), Array.from(f, (v, i) => (v - y[i]) ** 2 / (2 * rows))]);

  const classes = 10, z = rnd(rows * classes, -4, 4), labels = Array.from({ length: rows }, (_, i) => (i * 7) % classes);
  const ce = await gpuRun('cross_entropy', [z, labels, rows * classes, rows], [rows, classes], [], [2, 3]);
  const dout = [], terms = [];
  for (const [i, row] of rowsOf(z, rows, classes).entries()) {
    const mx = Math.max(...row), lse = Math.log(row.reduce((a, v) => a + Math.exp(v - mx), 0)) + mx;
    terms.push((lse - row[labels[i]]) / rows);
    row.forEach((v, k) => dout.push((Math.exp(v - lse) - (k === labels[i] ? 1 : 0)) / rows));
  }
  check('cross_entropy', ce, [dout, terms]);
});

test('softmax and LayerNorm, forward and backward, rows longer than a workgroup', T, async () => {
  const rnd = random(5);
  const rows = 13, cols = 77, x = rnd(rows * cols, -3, 3), dy = rnd(rows * cols);
  const y = rowsOf(x, rows, cols).flatMap((r) => {
    const mx = Math.max(...r), e = Array.from(r, (v) => Math.exp(v - mx)), s = e.reduce((a, b) => a + b, 0);
    return e.map((v) => v / s);
  });
  check('softmax_forward', await gpuRun('softmax_forward', [x, rows * cols], [rows, cols], [], [1]), [y]);
  const y32 = Float32Array.from(y);
  const dx = [];
  for (let r = 0; r < rows; r++) {
    let d = 0;
    for (let c = 0; c < cols; c++) d += dy[r * cols + c] * y32[r * cols + c];
    for (let c = 0; c < cols; c++) dx.push(y32[r * cols + c] * (dy[r * cols + c] - d));
  }
  check('softmax_backward', await gpuRun('softmax_backward', [y32, dy, rows * cols], [rows, cols], [], [2]), [dx]);

  const lr = 19, lc = 150, eps = 1e-5, lx = rnd(lr * lc, -2, 3), gamma = rnd(lc, 0.5, 1.5), beta = rnd(lc), ldy = rnd(lr * lc);
  const mean = [], rstd = [], ly = [], xhat = [];
  for (const row of rowsOf(lx, lr, lc)) {
    const mu = row.reduce((a, b) => a + b, 0) / lc;
    const r = 1 / Math.sqrt(row.reduce((a, v) => a + (v - mu) ** 2, 0) / lc + eps);
    mean.push(mu);
    rstd.push(r);
    row.forEach((v, c) => { xhat.push((v - mu) * r); ly.push((v - mu) * r * gamma[c] + beta[c]); });
  }
  const fwd = await gpuRun('layernorm_forward', [lx, gamma, beta, lr * lc, lr, lr], [lr, lc], [eps], [3, 4, 5]);
  check('layernorm_forward', fwd, [ly, mean, rstd]);
  const m32 = Float32Array.from(mean), r32 = Float32Array.from(rstd);
  const ldx = [];
  for (let r = 0; r < lr; r++) {
    let sg = 0, sgx = 0;
    for (let c = 0; c < lc; c++) {
      const g = ldy[r * lc + c] * gamma[c], xh = (lx[r * lc + c] - m32[r]) * r32[r];
      sg += g;
      sgx += g * xh;
    }
    for (let c = 0; c < lc; c++) {
      const xh = (lx[r * lc + c] - m32[r]) * r32[r];
      ldx.push(r32[r] * (ldy[r * lc + c] * gamma[c] - sg / lc - xh * sgx / lc));
    }
  }
  check('layernorm_backward', await gpuRun('layernorm_backward', [lx, gamma, ldy, m32, r32, lr * lc], [lr, lc], [], [5]), [ldx]);
  const dgamma = new Array(lc).fill(0), dbeta = new Array(lc).fill(0);
  for (let r = 0; r < lr; r++) for (let c = 0; c < lc; c++) {
    dgamma[c] += ldy[r * lc + c] * (lx[r * lc + c] - m32[r]) * r32[r];
    dbeta[c] += ldy[r * lc + c];
  }
  check('layernorm_param_grad', await gpuRun('layernorm_param_grad', [lx, ldy, m32, r32, lc, lc], [lr, lc], [], [4, 5]),
        [dgamma, dbeta]);
});

test('causal multi-head attention, forward and backward', T, async () => {
  const rnd = random(6);
  const batch = 3, L = 7, heads = 2, D = 5, C = heads * D, scale = 1 / Math.sqrt(D);
  const q = rnd(batch * L * C), k = rnd(batch * L * C), v = rnd(batch * L * C), dO = rnd(batch * L * C);
  const at = (a, b, t, h, d) => a[(b * L + t) * C + h * D + d];
  const P = new Float64Array(batch * heads * L * L), o = new Float64Array(batch * L * C);
  const dS = new Float64Array(P.length), dQ = new Float64Array(o.length), dK = new Float64Array(o.length), dV = new Float64Array(o.length);
  for (let b = 0; b < batch; b++) for (let h = 0; h < heads; h++) for (let i = 0; i < L; i++) {
    const row = ((b * heads + h) * L + i) * L;
    const s = Array.from({ length: i + 1 }, (_, j) => {
      let dot = 0;
      for (let d = 0; d < D; d++) dot += at(q, b, i, h, d) * at(k, b, j, h, d);
      return scale * dot;
    });
    const mx = Math.max(...s), e = s.map((x) => Math.exp(x - mx)), z = e.reduce((a, x) => a + x, 0);
    e.forEach((x, j) => { P[row + j] = x / z; });
    for (let d = 0; d < D; d++) for (let j = 0; j <= i; j++) o[(b * L + i) * C + h * D + d] += P[row + j] * at(v, b, j, h, d);
    const dP = Array.from({ length: i + 1 }, (_, j) => {
      let dot = 0;
      for (let d = 0; d < D; d++) dot += at(dO, b, i, h, d) * at(v, b, j, h, d);
      return dot;
    });
    const sum = dP.reduce((a, x, j) => a + x * P[row + j], 0);
    dP.forEach((x, j) => { dS[row + j] = P[row + j] * (x - sum); });
    for (let j = 0; j <= i; j++) for (let d = 0; d < D; d++) {
      dQ[(b * L + i) * C + h * D + d] += scale * dS[row + j] * at(k, b, j, h, d);
      dK[(b * L + j) * C + h * D + d] += scale * dS[row + j] * at(q, b, i, h, d);
      dV[(b * L + j) * C + h * D + d] += P[row + j] * at(dO, b, i, h, d);
    }
  }
  const dims = [batch, L, heads, D];
  const fwd = await gpuRun('attention_forward', [q, k, v, P.length, o.length], dims, [scale], [3, 4]);
  check('attention_forward', fwd, [P, o]);
  const P32 = Float32Array.from(fwd[0]);
  const bq = await gpuRun('attention_backward_q', [k, v, P32, dO, P.length, o.length], dims, [scale], [4, 5]);
  check('attention_backward_q', bq, [dS, dQ]);
  const bkv = await gpuRun('attention_backward_kv', [q, P32, Float32Array.from(bq[0]), dO, o.length, o.length], dims, [scale], [4, 5]);
  check('attention_backward_kv', bkv, [dK, dV]);
});

test('optimizer updates: SGD with momentum and weight decay, Adam, AdamW', T, async () => {
  const rnd = random(7);
  const n = 1031, g = rnd(n), w = rnd(n), m = rnd(n), v = rnd(n, 0, 0.01);
  const lr = 0.05, mu = 0.9, wd = 0.01;
  const sgd = await gpuRun('sgd', [g, w, m], [n, 1], [lr, mu, wd], [1, 2]);
  const mNew = Array.from(g, (gi, i) => mu * m[i] + gi + wd * w[i]);
  check('sgd', sgd, [Array.from(w, (wi, i) => wi - lr * mNew[i]), mNew]);
  const plain = await gpuRun('sgd', [g, w, [0]], [n, 0], [lr, 0, 0], [1]);
  check('sgd without momentum', plain, [Array.from(w, (wi, i) => wi - lr * g[i])]);

  const b1 = 0.9, b2 = 0.999, eps = 1e-8, t = 3, bias = [0, 1 - b1 ** t, 1 - b2 ** t];
  for (const decoupled of [0, 1]) {
    const out = await gpuRun('adam', [g, Float32Array.from(bias), w, m, v], [n, decoupled], [lr, b1, b2, eps, wd], [2, 3, 4]);
    const rw = [], rm = [], rv = [];
    for (let i = 0; i < n; i++) {
      const gi = decoupled ? g[i] : g[i] + wd * w[i];
      rm.push(b1 * m[i] + (1 - b1) * gi);
      rv.push(b2 * v[i] + (1 - b2) * gi * gi);
      const u = (rm[i] / bias[1]) / (Math.sqrt(rv[i] / bias[2]) + eps);
      rw.push(w[i] - lr * (decoupled ? u + wd * w[i] : u));
    }
    check(decoupled ? 'adamw' : 'adam', out, [rw, rm, rv]);
  }
});

// ---- training in the page ----

const call = (name, ...args) => pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);

// A small sweep: two widths, 20 full-batch steps, recorded every 5 (each record reads the state back).
const TRAIN_SPEC = {
  version: 1, name: 'webgpu check', model: { widths: [32, 32], activation: 'tanh' },
  task: { kind: 'sin_regression', input_dim: 8, train_size: 64, test_size: 128 },
  optimizer: { kind: 'sgd', lr: 0.5 }, schedule: { steps: 20, record_every: 5 },
  sweep: { width: [16, 40] }, metrics: ['train_loss', 'test_loss', 'act_rms'],
};

async function train(spec) {
  const loaded = JSON.parse(await call('muplay_load_spec', JSON.stringify(spec)));
  assert.deepEqual(loaded, { ok: true, errors: [] });
  const backend = JSON.parse(await call('muplay_backend'));
  await call('muplay_run');
  await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 40_000 });
  return { backend, results: JSON.parse(await call('muplay_get_results')) };
}

// Largest |a − b| / max(|b|, 1e-3) over every recorded value of every run and series.
function maxRelDiff(a, b) {
  let worst = 0;
  a.runs.forEach((run, i) => {
    assert.deepEqual(run.recorded_steps, b.runs[i].recorded_steps);
    for (const [name, values] of Object.entries(run.series)) {
      values.forEach((v, j) => {
        const ref = b.runs[i].series[name][j];
        worst = Math.max(worst, Math.abs(v - ref) / Math.max(Math.abs(ref), 1e-3));
      });
    }
  });
  return worst;
}

let cpuResults;

test('an MLP sweep trained on WebGPU (float32) matches the CPU (float64) within 1e-4', T, async () => {
  const gpu = await train({ ...TRAIN_SPEC, backend: 'webgpu' });
  assert.equal(gpu.backend.gpu_runs, 2, JSON.stringify(gpu.backend));
  assert.match(gpu.backend.note, /software adapter/);  // forced onto SwiftShader: the note says so
  await screenshot(pg.page, 'webgpu-trained');
  const cpu = await train({ ...TRAIN_SPEC, backend: 'cpu' });
  assert.equal(cpu.backend.gpu_runs, 0);
  cpuResults = cpu.results;
  const diff = maxRelDiff(gpu.results, cpu.results);
  console.log(`WebGPU vs CPU, 2 widths x 20 steps: max relative difference ${diff.toExponential(2)}`);
  assert.ok(diff <= TOLERANCE, `relative difference ${diff}`);
  for (const run of gpu.results.runs) {
    const loss = run.series.train_loss;
    assert.equal(run.status, 'finished');
    assert.ok(loss.at(-1) < 0.5 * loss[0], `width ${run.width}: loss ${loss[0]} -> ${loss.at(-1)}`);
  }
  assert.equal(await call('muplay_total_steps'), 2 * 20);
});

test('backend auto does not pick the software adapter, and says why', T, async () => {
  const loaded = JSON.parse(await call('muplay_load_spec', JSON.stringify(TRAIN_SPEC)));
  assert.equal(loaded.ok, true);
  const backend = JSON.parse(await call('muplay_backend'));
  assert.equal(backend.requested, 'auto');
  assert.equal(backend.gpu_runs, 0);
  assert.equal(backend.fallback, true);
  assert.match(backend.note, /software fallback/);
  assert.equal(await pg.page.isVisible('#notice'), false, 'auto staying on the CPU is no problem to alert about');
  await screenshot(pg.page, 'webgpu-auto-fallback');
});

test('a device lost mid-run: training goes on on the CPU from the last step that came back, with a notice', T, async () => {
  const spec = { ...TRAIN_SPEC, backend: 'webgpu' };
  assert.equal(JSON.parse(await call('muplay_load_spec', JSON.stringify(spec))).ok, true);
  await call('muplay_run');
  await pg.page.waitForFunction(() => window.muplay.muplay_total_steps() >= 16, null, { timeout: 30_000 });
  await pg.page.evaluate(() => window.muplayGpu.device.destroy());
  await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 40_000 });
  const backend = JSON.parse(await call('muplay_backend'));
  assert.equal(backend.moved_to_cpu, true, JSON.stringify(backend));
  assert.match(backend.note, /lost .* at step \d+: continued on the CPU from step \d+/);
  await pg.page.waitForSelector('#notice:not([hidden])', { timeout: 5_000 });
  assert.match(await pg.page.textContent('#notice-text'), /continued on the CPU/);
  await screenshot(pg.page, 'webgpu-device-lost');
  const results = JSON.parse(await call('muplay_get_results'));
  for (const run of results.runs) assert.equal(run.steps_done, 20);
  const diff = maxRelDiff(results, cpuResults);
  console.log(`after the loss, vs the CPU run: max relative difference ${diff.toExponential(2)}`);
  assert.ok(diff <= TOLERANCE, `relative difference ${diff}`);
  // The next run asks for WebGPU again and is told it is gone.
  assert.equal(await call('muplay_reset'), 1);
  assert.match(JSON.parse(await call('muplay_backend')).note, /WebGPU was asked for but the WebGPU device was lost/);
});
