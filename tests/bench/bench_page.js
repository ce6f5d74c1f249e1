// The browser half of the benchmark (scripts/bench drives it in headless Chromium; it also works opened by hand,
// see bench.html). It measures, in one page and one run, the engine's wasm build (muplay_bench.js, from
// tests/bench/bench.cpp) beside TensorFlow.js with its wasm backend (XNNPACK). Every function returns plain JSON.
//
// Timing under load: the two sides are measured in alternating rounds and each keeps its best round, so a burst
// of load on the machine hits both rather than one.
/* global createBench, tf */

let engine = null;  // the muplay_bench module used for GEMM and MLP (presets get a fresh one each)

function now() { return performance.now() / 1000; }

async function environment() {
  const gpu = { available: !!navigator.gpu, adapter: null };
  if (navigator.gpu) {
    try {
      const adapter = await navigator.gpu.requestAdapter();
      if (adapter) {
        const info = adapter.info ?? {};
        gpu.adapter = { vendor: info.vendor ?? '', architecture: info.architecture ?? '', description: info.description ?? '',
          fallback: !!(adapter.isFallbackAdapter || info.isFallbackAdapter) };
      }
    } catch (e) {
      gpu.error = String(e);
    }
  }
  return { userAgent: navigator.userAgent, crossOriginIsolated: self.crossOriginIsolated,
    hardwareConcurrency: navigator.hardwareConcurrency, webgpu: gpu };
}

async function setup() {
  engine = await createBench();
  tf.wasm.setWasmPaths(new URL('./', location.href).href);
  tf.wasm.setThreadsCount(1);  // single thread, like the engine (only used where threads exist at all)
  await tf.setBackend('wasm');
  await tf.ready();
  const env = await environment();
  return { ...env, kernel: engine.ccall('bench_kernel_name', 'string', [], []), tfjs: {
    version: tf.version.tfjs, backend: tf.getBackend(), simd: await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT'),
    threads: await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT'), threadsCount: tf.wasm.getThreadsCount() } };
}

// ~`seconds` of repeated 256³ products on both sides, so V8 has tiered both modules up to optimized code.
function warmUp(seconds) {
  const t0 = now();
  const a = tf.randomNormal([256, 256]), b = tf.randomNormal([256, 256]);
  while (now() - t0 < seconds) {
    engine._bench_gemm_seconds(0, 256, 1, 2);
    const c = tf.matMul(a, b);
    c.dataSync();
    c.dispose();
  }
  a.dispose();
  b.dispose();
}

// Best seconds of one n×n·n×n f32 product: the engine's kernel (0), Eigen (1), the engine's float64 kernel (2),
// TF.js-wasm's tf.matMul (tfjs: including its dataSync read-back, O(n²) against O(n³)). Each round times `inner`
// products in a row, ~2 ms at 20 GFLOP/s: short enough to often run between two preemptions on a loaded machine,
// 20× the clock's 0.1 ms tick. The sides alternate round by round for `seconds`; each keeps its best round.
function gemm(n, seconds) {
  const flop = 2 * n ** 3;
  const inner = Math.max(1, Math.round(4e7 / flop));
  const best = { own_f32: Infinity, eigen_f32: Infinity, tfjs_wasm: Infinity, engine_f64: Infinity };
  const a = tf.randomNormal([n, n]), b = tf.randomNormal([n, n]);
  const tfjs = () => {
    const t0 = now();
    for (let i = 0; i < inner; i++) {
      const c = tf.matMul(a, b);
      c.dataSync();
      c.dispose();
    }
    return (now() - t0) / inner;
  };
  const start = now();
  for (let r = 0; r < 3 || now() - start < seconds; r++) {
    best.own_f32 = Math.min(best.own_f32, engine._bench_gemm_seconds(0, n, inner, 1));
    best.tfjs_wasm = Math.min(best.tfjs_wasm, tfjs());
    best.eigen_f32 = Math.min(best.eigen_f32, engine._bench_gemm_seconds(1, n, inner, 1));
    if (n <= 512 && r < 3) best.engine_f64 = Math.min(best.engine_f64, engine._bench_gemm_seconds(2, n, 1, 1));
  }
  a.dispose();
  b.dispose();
  const out = { n };
  for (const [k, t] of Object.entries(best)) if (Number.isFinite(t)) out[k] = flop / t / 1e9;
  return out;
}

// The MLP workload in TF.js: 784-512-512-10 ReLU, no biases (as the engine's Mlp), batch 128, Adam, softmax
// cross-entropy; one step = tf.train.adam().minimize with the loss read back, as a training loop would.
// Returns the rate of the fastest single step and the sustained rate, as the engine's bench_mlp_* do.
function tfjsMlp(steps) {
  const model = tf.sequential({ layers: [
    tf.layers.dense({ units: 512, activation: 'relu', useBias: false, inputShape: [784] }),
    tf.layers.dense({ units: 512, activation: 'relu', useBias: false }),
    tf.layers.dense({ units: 10, useBias: false }),
  ] });
  const opt = tf.train.adam(1e-3);
  const x = tf.randomNormal([128, 784]);
  const y = tf.oneHot(tf.randomUniform([128], 0, 10, 'int32'), 10);
  const step = () => {
    const cost = opt.minimize(() => tf.losses.softmaxCrossEntropy(y, model.apply(x)), true);
    const loss = cost.dataSync()[0];
    cost.dispose();
    return loss;
  };
  step();
  let best = Infinity, loss = 0;
  const start = now();
  for (let s = 0; s < steps; s++) {
    const t0 = now();
    loss = step();
    best = Math.min(best, now() - t0);
  }
  const sustained = steps / (now() - start);
  x.dispose();
  y.dispose();
  opt.dispose();
  model.dispose();
  return { best: 1 / best, sustained, loss };
}

// Steps/s of each side (fastest single step, and sustained), `steps` steps per round; the sides alternate round by
// round and each keeps its best.
function mlp(steps, rounds) {
  const out = { engine_f64: 0, engine_f32: 0, tfjs_wasm: 0, engine_f64_sustained: 0, engine_f32_sustained: 0,
    tfjs_wasm_sustained: 0 };
  const keep = (key, best, sustained) => {
    out[key] = Math.max(out[key], best);
    out[`${key}_sustained`] = Math.max(out[`${key}_sustained`], sustained);
  };
  for (let r = 0; r < rounds; r++) {
    keep('engine_f32', engine._bench_mlp_steps_per_second(1, steps), engine._bench_mlp_sustained());
    out.engine_f32_loss = engine._bench_mlp_last_loss();
    const t = tfjsMlp(steps);
    keep('tfjs_wasm', t.best, t.sustained);
    out.tfjs_loss = t.loss;
    keep('engine_f64', engine._bench_mlp_steps_per_second(0, Math.max(2, steps >> 2)), engine._bench_mlp_sustained());
  }
  return out;
}

function presets() {
  return engine.FS.readdir('/examples').filter((f) => f.endsWith('.json')).sort();
}

// One preset in a fresh module instance (wasm memory only grows, so its final size is this run's peak).
// precision: -1 as written, 0 float64, 1 float32.
async function preset(name, precision) {
  const m = await createBench();
  const seconds = m.ccall('bench_preset_seconds', 'number', ['string', 'string', 'number'],
                          [`/examples/${name}`, '/data/fashion-mnist', precision]);
  return { name, seconds, peak_wasm_memory_bytes: m.HEAPU8.buffer.byteLength };
}

window.bench = { setup, warmUp, gemm, mlp, presets, preset };
