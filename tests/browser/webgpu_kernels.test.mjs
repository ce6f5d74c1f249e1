// WebGPU in headless Chromium (SwiftShader: correctness only, never speed), in one browser so that each kernel
// compiles once (SwiftShader takes seconds per GEMM variant):
// 1. every WGSL kernel of shaders/ against a float64 reference on random inputs of awkward sizes (not multiples of
//    the GEMM's 64×64 tile, nor of the 256-wide workgroups), through web/js/webgpu_backend.js's plan executor. Error
//    measure per output buffer: the normwise relative error max|gpu − ref| / max|ref|, at most 1e-4 (float32 vs
//    float64);
// 2. the page trains an MLP sweep (without and with model.biases) and a small Transformer preset on WebGPU (float32)
//    and matches the same runs on the CPU (float64);
// 3. backend auto never picks the software adapter, and says so;
// 4. a device destroyed mid-run: the run goes on on the CPU from the last step that came back, with a notice.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { WEBGPU_ARGS, openPlayground, screenshot } from './harness.mjs';

const T = { timeout: 600_000 };
const TOLERANCE = 1e-4;
let pg;
before(async () => {
  pg = await openPlayground({ args: WEBGPU_ARGS });
  // page.js opens WebGPU beside the app and hands it over as window.muplayGpu.
  await pg.page.waitForFunction(() => window.muplayGpu !== undefined, null, { timeout: 120_000 });
  const adapter = await pg.page.evaluate(() => window.muplayGpu.adapter);
  console.log(`WebGPU adapter: ${adapter.name}${adapter.isFallback ? ' (software fallback)' : ''}`);
}, T);
after(async () => { await pg?.close(); });

// Runs kernels on the GPU in one plan and one round trip (each with its own buffers): every run is { kernel,
// inputs (arrays, or a size for a zeroed output), ints, floats, read (indices into its inputs) }. Returns, per run,
// the buffers it reads.
async function gpuBatch(runs) {
  const buffers = [], ops = [], reads = [];
  for (const r of runs) {
    const ids = r.inputs.map((b) => buffers.push(typeof b === 'number' ? b : Array.from(b)) - 1);
    ops.push({ kernel: r.kernel, buffers: ids, ints: r.ints, floats: r.floats });
    reads.push(r.read.map((i) => ids[i]));
  }
  const flat = await pg.page.evaluate(async ([buffers, ops, read]) => {
    const gpu = window.muplayGpu;
    const id = gpu.createPlan({ buffers: buffers.map((b) => (typeof b === 'number' ? b : b.length)), phases: [ops] });
    buffers.forEach((b, i) => { if (typeof b !== 'number') gpu.write(id, i, new Float32Array(b)); });
    gpu.run(id, 0);
    const data = await gpu.read(id, read);
    gpu.releasePlan(id);
    if (gpu.errors.length) throw new Error(gpu.errors.join('\n'));
    return data.map((d) => Array.from(d));
  }, [buffers, ops, reads.flat()]);
  let next = 0;
  return reads.map((r) => r.map(() => flat[next++]));
}

const gpuRun = async (kernel, inputs, ints, floats, read) => (await gpuBatch([{ kernel, inputs, ints, floats, read }]))[0];

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

// ---- float64 references (the formulas of engine/kernels/kernels.cpp, activation.cpp, loss.cpp, optimizer.cpp) ----

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
  // The last size has rows aligned to vec4: it runs the vec4-load variants (gemm_vec4.wgsl).
  const cases = [];
  for (const [m, n, k] of [[67, 45, 131], [1, 130, 7], [129, 3, 66], [68, 44, 132]]) {
    for (const [kernel, ta, tb] of [['gemm_nn', false, false], ['gemm_nt', false, true], ['gemm_tn', true, false]]) {
      const A = rnd(m * k), B = rnd(k * n), alpha = 0.37;
      cases.push({ name: `${kernel} ${m}x${n}x${k}`, kernel, inputs: [A, B, m * n], ints: [m, n, k], floats: [alpha],
                   read: [2], ref: gemmRef(A, B, m, n, k, alpha, ta, tb) });
    }
  }
  const outs = await gpuBatch(cases);
  cases.forEach((c, i) => check(c.name, outs[i], [c.ref]));
  const compiled = await pg.page.evaluate(() => [...window.muplayGpu.pipelines.keys()].filter((k) => k.startsWith('gemm')));
  assert.deepEqual(compiled.sort(), ['gemm_nn', 'gemm_nn_vec4', 'gemm_nt', 'gemm_nt_vec4', 'gemm_tn', 'gemm_tn_vec4']);
});

test('fused bias + activation, forward and backward, every activation', T, async () => {
  const rnd = random(2);
  const rows = 37, cols = 29, n = rows * cols;
  const scale = 2.5;  // the bias's forward multiplier (μP: √width)
  const cases = [];
  for (let code = 0; code < ACTS.length; code++) {
    const h = rnd(n, -3, 3), bias = rnd(cols), dx = rnd(n);
    // the kernel adds the scaled bias in float32
    const hb = Array.from(h, (v, i) => Math.fround(v + Math.fround(scale * bias[i % cols])));
    const x = hb.map((v) => Math.fround(actForward(code, v)));
    cases.push({ name: `bias_act_forward ${ACTS[code]}`, kernel: 'bias_act_forward', inputs: [bias, h, n],
                 ints: [rows, cols, code, 1], floats: [scale], read: [1, 2],
                 refs: [hb, hb.map((v) => actForward(code, v))] });
    cases.push({ name: `bias_act_backward ${ACTS[code]}`, kernel: 'bias_act_backward', inputs: [dx, hb, x, n],
                 ints: [rows, cols, code], floats: [], read: [3], refs: [hb.map((v, i) => actBackward(code, dx[i], v, x[i]))] });
  }
  const outs = await gpuBatch(cases);
  cases.forEach((c, i) => check(c.name, outs[i], c.refs));
});

test('reductions: the sum into a step slot, and column sums', T, async () => {
  const rnd = random(3);
  const v = rnd(10007, 0, 1);
  const out = await gpuRun('reduce_sum', [v, [3], 6], [v.length, 1], [0.25], [2]);
  const total = v.reduce((a, b) => a + b, 0);
  check('reduce_sum', out, [[0, 0, 0, 0, 0.25 * total, 0]]);
  const rows = 301, cols = 37, m = rnd(rows * cols);
  const cs = await gpuRun('reduce_rows', [m, cols], [rows, cols], [1.5], [1]);  // scale: the bias's multiplier
  check('reduce_rows', cs, [Array.from({ length: cols },
                                       (_, c) => 1.5 * rowsOf(m, rows, cols).reduce((a, r) => a + r[c], 0))]);
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

test('LayerNorm, forward and backward, rows longer than a workgroup', T, async () => {
  const rnd = random(5);
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

test("the Transformer step's own kernels: embeddings, last position, residual add, clipping, scheduled Adam", T, async () => {
  const rnd = random(11);
  const batch = 3, T = 7, D = 37, n = batch * T;
  const wte = rnd(11 * D), wpe = rnd(T * D), g = rnd(n * D), me = 1.3, mp = 0.7;
  for (const vocab of [11, 5]) {  // more token rows than positions, and fewer
    const tokens = Float32Array.from({ length: n }, (_, i) => (i * 7 + 3) % vocab);
    const [[x], [dwte, dwpe]] = await gpuBatch([
      { kernel: 'embedding_forward', inputs: [tokens, wte, wpe, n * D], ints: [n, T, D], floats: [me, mp], read: [3] },
      { kernel: 'embedding_backward', inputs: [g, tokens, vocab * D, T * D], ints: [n, T, D, vocab], floats: [me, mp], read: [2, 3] },
    ]);
    const rx = Array.from({ length: n * D }, (_, e) => {
      const r = Math.floor(e / D), i = e % D;
      return me * wte[tokens[r] * D + i] + mp * wpe[(r % T) * D + i];
    });
    const rte = new Float64Array(vocab * D), rpe = new Float64Array(T * D);
    for (let r = 0; r < n; r++) for (let i = 0; i < D; i++) {
      rte[tokens[r] * D + i] += me * g[r * D + i];
      rpe[(r % T) * D + i] += mp * g[r * D + i];
    }
    check(`embedding_forward (vocab ${vocab})`, [x], [rx]);
    check(`embedding_backward (vocab ${vocab})`, [dwte, dwpe], [rte, rpe]);
  }
  const src = rnd(n * D), last = rnd(batch * D), y = rnd(1031), dx = rnd(1031);
  const [[taken], [put], [added]] = await gpuBatch([
    { kernel: 'take_last_rows', inputs: [src, batch * D], ints: [batch, T, D], read: [1] },
    { kernel: 'put_last_rows', inputs: [last, rnd(n * D)], ints: [batch, T, D], read: [1] },
    { kernel: 'add_into', inputs: [dx, y], ints: [1031], read: [1] },
  ]);
  check('take_last_rows', [taken], [Array.from({ length: batch * D }, (_, e) => src[((Math.floor(e / D) + 1) * T - 1) * D + e % D])]);
  check('put_last_rows', [put], [Array.from({ length: n * D }, (_, e) => {
    const r = Math.floor(e / D);
    return r % T === T - 1 ? last[Math.floor(r / T) * D + e % D] : 0;
  })]);
  check('add_into', [added], [Array.from(y, (v, i) => v + dx[i])]);

  const v = rnd(3093), sq = v.reduce((a, b) => a + b * b, 0);
  for (const accumulate of [0, 1]) {
    const out = await gpuRun('sum_squares', [v, [2.5]], [3093, accumulate], [], [1]);
    check(`sum_squares (accumulate ${accumulate})`, out, [[sq + (accumulate ? 2.5 : 0)]]);
  }
  for (const maxNorm of [0.5 * Math.sqrt(sq), 2 * Math.sqrt(sq)]) {  // clipped, and left alone
    const out = await gpuRun('clip_scale', [[sq], v], [3093], [maxNorm], [1]);
    const coef = Math.min(1, maxNorm / (Math.sqrt(sq) + 1e-6));
    check(`clip_scale (max ${maxNorm.toFixed(1)})`, out, [Array.from(v, (x) => x * coef)]);
  }

  const m = 1031, gr = rnd(m), w = rnd(m), m1 = rnd(m), v2 = rnd(m, 0, 0.01);
  const lr = 0.05, b1 = 0.9, b2 = 0.98, eps = 1e-8, wd = 0.01, factor = 0.37, t = 4;
  const step = [0, 1 - b1 ** t, 1 - b2 ** t, factor];
  const out = await gpuRun('adam', [gr, step, w, m1, v2], [m, 1, 1], [lr, b1, b2, eps, wd], [2]);
  check('adamw with a scheduled lr', out, [Array.from(w, (wi, i) => {
    const mi = b1 * m1[i] + (1 - b1) * gr[i], vi = b2 * v2[i] + (1 - b2) * gr[i] * gr[i];
    return wi - lr * factor * ((mi / step[1]) / (Math.sqrt(vi / step[2]) + eps) + wd * wi);
  })]);
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

async function train(spec, timeout = 40_000) {
  const loaded = JSON.parse(await call('muplay_load_spec', JSON.stringify(spec)));
  assert.deepEqual(loaded, { ok: true, errors: [] });
  const backend = JSON.parse(await call('muplay_backend'));
  await call('muplay_run');
  await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout });
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

// examples/30-anchor-identity.json (pre-LN, 2 layers, 2 heads, AdamW with warm-up, cosine and clipping) at a size
// SwiftShader trains in seconds: 256 sequences, 8 steps of 16 (2 of warm-up), recorded every 4. A step of this model
// is about 160 dispatches, each a software GPU's work on the CPU, hence so few.
const PRESET_30 = JSON.parse(readFileSync(new URL('../../examples/30-anchor-identity.json', import.meta.url), 'utf8'));
const TRANSFORMER_SPEC = {
  ...PRESET_30, name: 'webgpu transformer check',
  task: { ...PRESET_30.task, train_size: 256, test_size: 64 },
  schedule: { ...PRESET_30.schedule, steps: 8, batch_size: 16, record_every: 4, warmup_fraction: 0.25 },
};

// Tolerances: losses 1e-4 relative (float32 against float64), accuracies 0.05 (one argmax flip between near-equal
// logits moves an accuracy by 1/64 of the test set); the measured differences are printed.
test('an MLP with biases in every layer (model.biases, μP: multipliers √n) on WebGPU matches the CPU', T, async () => {
  const spec = { ...TRAIN_SPEC, model: { ...TRAIN_SPEC.model, biases: true } };
  const gpu = await train({ ...spec, backend: 'webgpu' });
  assert.equal(gpu.backend.gpu_runs, 2, JSON.stringify(gpu.backend));
  const cpu = await train({ ...spec, backend: 'cpu' });
  const diff = maxRelDiff(gpu.results, cpu.results);
  console.log(`WebGPU vs CPU with biases, 2 widths x 20 steps: max relative difference ${diff.toExponential(2)}`);
  assert.ok(diff <= TOLERANCE, `relative difference ${diff}`);
  const plain = cpuResults.runs[0].series.train_loss, biased = cpu.results.runs[0].series.train_loss;
  assert.notEqual(biased.at(-1), plain.at(-1));  // the biases took part
});

// A residual MLP (model.kind residual_mlp) on the MLP's plan: skips (add_into), two-weight blocks, the pre-norm (the
// LayerNorm kernels with a ones buffer as gain), the readout of the last stream; Depth-μP at L = 2 and 3.
test('a residual MLP (Depth-μP, two-weight blocks, pre-norm) on WebGPU matches the CPU', T, async () => {
  const spec = {
    ...TRAIN_SPEC, name: 'webgpu residual check',
    model: { kind: 'residual_mlp', widths: [32], depth: 2, block_depth: 2, block_norm: true, activation: 'tanh' },
    parametrization: { preset: 'mup', depth_rule: 'depth_mup' }, sweep: { depth: [2, 3] },
    metrics: ['train_loss', 'test_loss', 'act_rms', 'act_delta_rms'],
  };
  const gpu = await train({ ...spec, backend: 'webgpu' });
  assert.equal(gpu.backend.gpu_runs, 2, JSON.stringify(gpu.backend));
  const cpu = await train({ ...spec, backend: 'cpu' });
  const diff = maxRelDiff(gpu.results, cpu.results);
  console.log(`WebGPU vs CPU, residual MLP L = 2, 3 x 20 steps: max relative difference ${diff.toExponential(2)}`);
  assert.ok(diff <= TOLERANCE, `relative difference ${diff}`);
  for (const run of gpu.results.runs) {
    const loss = run.series.train_loss;
    assert.ok(loss.at(-1) < loss[0], `L=${run.depth}: loss ${loss[0]} -> ${loss.at(-1)}`);
  }
});

test('a Transformer preset trained on WebGPU (float32) matches the CPU (float64)', { timeout: 600_000 }, async () => {
  const gpu = await train({ ...TRANSFORMER_SPEC, backend: 'webgpu' }, 90_000);
  assert.equal(gpu.backend.gpu_runs, 1, JSON.stringify(gpu.backend));
  await screenshot(pg.page, 'webgpu-transformer');
  const cpu = await train({ ...TRANSFORMER_SPEC, backend: 'cpu' });
  assert.equal(cpu.backend.gpu_runs, 0);
  let lossDiff = 0, accuracyDiff = 0;
  const [g, c] = [gpu.results.runs[0], cpu.results.runs[0]];
  assert.deepEqual(g.recorded_steps, c.recorded_steps);
  assert.equal(g.status, 'finished');
  for (const [name, values] of Object.entries(c.series)) {
    values.forEach((ref, j) => {
      const d = Math.abs(g.series[name][j] - ref);
      if (name.endsWith('accuracy')) accuracyDiff = Math.max(accuracyDiff, d);
      else lossDiff = Math.max(lossDiff, d / Math.max(Math.abs(ref), 1e-3));
    });
  }
  console.log(`Transformer, WebGPU vs CPU over 8 steps: losses ${lossDiff.toExponential(2)} relative, accuracies ` +
              `${accuracyDiff} absolute`);
  assert.ok(lossDiff <= TOLERANCE, `loss relative difference ${lossDiff}`);
  assert.ok(accuracyDiff <= 0.05, `accuracy difference ${accuracyDiff}`);
  const loss = g.series.train_loss;
  assert.ok(loss.at(-1) < loss[0], `train loss ${loss[0]} -> ${loss.at(-1)}`);
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
  await pg.page.waitForFunction(() => window.muplay.muplay_total_steps() >= 16, null, { timeout: 120_000 });
  await pg.page.evaluate(() => window.muplayGpu.device.destroy());
  await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 120_000 });
  const backend = JSON.parse(await call('muplay_backend'));
  assert.equal(backend.moved_to_cpu, true, JSON.stringify(backend));
  assert.match(backend.note, /lost .* at step \d+: continued on the CPU from step \d+/);
  await pg.page.waitForSelector('#notice:not([hidden])', { timeout: 120_000 });
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
