// Same spec + seed → bit-identical results natively and in wasm: the native `muplay` and the same CLI compiled
// to wasm (build/web/engine/muplay_cli.js, run by node) must write byte-identical result files. The specs cover
// every transcendental the engine uses (tanh, GELU, sigmoid, softmax/log, Box-Muller), Adam and SGD, and the
// seeded mini-batch shuffling.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NATIVE = path.join(ROOT, 'build', 'native', 'engine', 'muplay');
const WASM = path.join(ROOT, 'build', 'web', 'engine', 'muplay_cli.js');

const specs = {
  'gelu-adam-sectors': {
    version: 1, name: 'determinism: gelu, adam, sectors, mini-batches',
    model: { widths: [24, 24], activation: 'gelu', input_bias: true },
    task: { kind: 'sectors', input_dim: 2, train_size: 96, test_size: 64, classes: 3, twist: 2 },
    optimizer: { kind: 'adam', lr: 0.01 }, schedule: { steps: 60, batch_size: 16, record_every: 5 },
    sweep: { width: [8, 24], seeds: [0, 3] }, metrics: ['train_loss', 'test_loss', 'test_accuracy'],
  },
  'tanh-sgd-sin': {
    version: 1, name: 'determinism: tanh and sigmoid, sgd, sin regression',
    model: { widths: [32, 32, 32], activation: 'tanh' }, parametrization: { preset: 'ntp' },
    optimizer: { kind: 'sgd', lr: 0.5, momentum: 0.9 }, schedule: { steps: 50 },
    sweep: { width: [16, 48], lr: [0.1, 0.3] }, metrics: ['train_loss', 'test_loss', 'act_rms', 'act_delta_rms'],
  },
  'sigmoid-adamw': {
    version: 1, name: 'determinism: sigmoid, adamw',
    model: { widths: [20], activation: 'sigmoid' }, parametrization: { preset: 'mfp' },
    optimizer: { kind: 'adamw', lr: 0.02, weight_decay: 0.1 }, schedule: { steps: 40 },
  },
  // float32 products (engine/kernels/gemm_f32.cpp: SSE natively, wasm_simd128 in wasm): a width above the 256-deep k block
  // and widths that leave partial 4x8 tiles.
  'float32-simd-gemm': {
    version: 1, name: 'determinism: float32 SIMD GEMM', precision: 'float32',
    model: { widths: [37, 300], activation: 'gelu' },
    task: { kind: 'sectors', input_dim: 2, train_size: 96, test_size: 64, classes: 3, twist: 2 },
    optimizer: { kind: 'adam', lr: 0.01 }, schedule: { steps: 30, batch_size: 24, record_every: 5 },
    metrics: ['train_loss', 'test_loss', 'act_rms'],
  },
  // The Transformer's float32 products: d_model 20 and 2 heads of 10 leave partial 4x8 tiles; d_ff 300 and the weight
  // gradients' 32 sequences x 9 positions = 288 rows cross the 256-deep k block.
  'float32-transformer': {
    version: 1, name: 'determinism: float32 Transformer', precision: 'float32',
    model: { kind: 'transformer',
      transformer: { layers: 2, d_model: 20, heads: 2, d_ff: 300, norm: 'post', activation: 'gelu', init: 'pytorch' } },
    task: { kind: 'anchor', train_size: 160, test_size: 40, seed: 1, anchor: { kind: 'identity' } },
    optimizer: { kind: 'adamw', lr: 0.01, weight_decay: 0.01 },
    schedule: { steps: 20, batch_size: 32, record_every: 5, clip_norm: 1 },
    metrics: ['train_loss', 'test_loss', 'train_accuracy', 'id_accuracy'],
  },
};

for (const [name, spec] of Object.entries(specs)) {
  test(`native and wasm give byte-identical results: ${name}`, { timeout: 120_000 }, () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'muplay-det-'));
    const specPath = path.join(dir, 'spec.json');
    writeFileSync(specPath, JSON.stringify(spec));
    execFileSync(NATIVE, ['run', specPath, '--out', path.join(dir, 'native.json'), '--quiet']);
    // .cjs: the project's package.json says "type": "module", and emscripten's node output is CommonJS.
    const wasmCli = path.join(dir, 'muplay_cli.cjs');
    copyFileSync(WASM, wasmCli);
    execFileSync(process.execPath, [wasmCli, 'run', specPath, '--out', path.join(dir, 'wasm.json'), '--quiet']);
    const native = readFileSync(path.join(dir, 'native.json'), 'utf8');
    const wasm = readFileSync(path.join(dir, 'wasm.json'), 'utf8');
    assert.ok(JSON.parse(native).runs.every((r) => r.status === 'finished'));
    assert.equal(wasm, native);
  });
}
