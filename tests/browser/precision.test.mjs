// float32 mode in the page (engine/kernels/gemm_f32.cpp on wasm SIMD): a spec with "precision": "float32" trains to the end,
// close to the same spec in float64 but not identical (so the float32 kernels really ran); its share link carries
// the field, while a float64 spec's link does not mention it (links made before the field existed stay the same).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground } from './harness.mjs';

const T = { timeout: 600_000 };

let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const call = (name, ...args) => pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);
// "s=1.<base64url of the fields that differ from the defaults>&r=1" (engine/spec/link.hpp)
const linkFields = (link) => JSON.parse(Buffer.from(link.replace(/^#?s=\d+\./, '').replace(/&r=\d+$/, ''), 'base64url')
  .toString('utf8'));

// Widths 40 and 300: partial 4x8 register tiles, and a product deeper than the 256 k-block.
const SPEC = {
  version: 1, name: 'precision test', model: { widths: [40, 300], activation: 'gelu' },
  task: { kind: 'sectors', input_dim: 2, train_size: 64, test_size: 64, classes: 3, twist: 0 },
  optimizer: { kind: 'adam', lr: 0.03 }, schedule: { steps: 30, batch_size: 16, record_every: 5 },
};

async function trainToEnd(spec) {
  const loaded = JSON.parse(await call('muplay_load_spec', JSON.stringify(spec)));
  assert.equal(loaded.ok, true, JSON.stringify(loaded.errors));
  await call('muplay_run');
  await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 120_000 });
  return JSON.parse(await call('muplay_get_results'));
}

test('float32 spec trains in the page, tracks float64 closely, and only its link names the precision', T, async () => {
  await pg.page.waitForSelector('#run:not([disabled])');
  const r64 = await trainToEnd(SPEC);
  const link64 = await call('muplay_share_link');
  const r32 = await trainToEnd({ ...SPEC, precision: 'float32' });
  const link32 = await call('muplay_share_link');

  assert.equal(r32.spec.precision, 'float32');
  assert.equal(r64.spec.precision, undefined);
  const l64 = r64.runs[0].series.train_loss, l32 = r32.runs[0].series.train_loss;
  assert.equal(r32.runs[0].status, 'finished');
  assert.equal(l32.length, l64.length);
  assert.ok(l64.at(-1) < 0.9 * l64[0], `float64 did not train: ${l64[0]} -> ${l64.at(-1)}`);
  for (let t = 0; t < l64.length; t++)
    assert.ok(Math.abs(l32[t] - l64[t]) <= 1e-3 * l64[t], `record ${t}: float32 ${l32[t]} vs float64 ${l64[t]}`);
  assert.notEqual(l32.at(-1), l64.at(-1), 'float32 gave the float64 bits: its kernels did not run');

  assert.equal('precision' in linkFields(link64), false);
  assert.equal(linkFields(link32).precision, 'float32');
  assert.equal(JSON.parse(await call('muplay_decode_link', link32)).ok, true);
  assert.deepEqual(pg.errors, []);
});
