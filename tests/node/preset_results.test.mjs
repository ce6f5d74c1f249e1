// Every preset's numbers stay the same to the bit: each preset of examples/, cut to a few steps (recording at the
// first and the last), runs through the native `muplay`; the result file's SHA-256 must match tests/fixtures/preset_results.json,
// and the same CLI compiled to wasm (run by node) must write the same bytes. A refactor that changes a single bit of
// any preset's result fails here, natively or in wasm.
//
// When a change is meant to alter numbers (a fixed bug, a new default), regenerate the file and say why in the commit:
//   UPDATE_PRESET_RESULTS=1 node --test tests/node/preset_results.test.mjs
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NATIVE = path.join(ROOT, 'build', 'native', 'engine', 'muplay');
const WASM = path.join(ROOT, 'build', 'web', 'engine', 'muplay_cli.js');
const GOLDEN = path.join(ROOT, 'tests', 'fixtures', 'preset_results.json');
const STEPS = 12;
const update = process.env.UPDATE_PRESET_RESULTS === '1';

// The preset with its schedule cut to STEPS steps, recorded at step 0 and at its last step: every metric is computed
// at both (a metric of change is nonzero at the last), and a record's cost is a pass over the training and test
// sets, which for most presets costs more than the steps between.
function cutPreset(file) {
  const spec = JSON.parse(readFileSync(path.join(ROOT, 'examples', file), 'utf8'));
  const steps = Math.min(spec.schedule?.steps ?? 200, STEPS);
  spec.schedule = { ...(spec.schedule ?? {}), steps, record_every: steps };
  return spec;
}

// Runs `muplay run` (native binary or the wasm CLI under node); a diverged member exits 1 but still writes its file.
function runCli(command, args, specPath, outPath) {
  const r = spawnSync(command, [...args, 'run', specPath, '--out', outPath, '--quiet', '--threads', '1'],
                      { encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, `${command} exited ${r.status}: ${r.stderr}`);
  return readFileSync(outPath, 'utf8');
}

const presets = readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.json')).sort();
const golden = update ? {} : JSON.parse(readFileSync(GOLDEN, 'utf8'));

test('every preset has a stored result hash', { skip: update }, () => {
  assert.deepEqual(Object.keys(golden).sort(), presets);
});

for (const file of presets) {
  test(`preset results unchanged, native and wasm: ${file}`, { timeout: 300_000 }, () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'muplay-preset-'));
    const specPath = path.join(dir, 'spec.json');
    writeFileSync(specPath, JSON.stringify(cutPreset(file)));
    const native = runCli(NATIVE, [], specPath, path.join(dir, 'native.json'));
    const hash = createHash('sha256').update(native).digest('hex');
    if (update) golden[file] = hash;
    else assert.equal(hash, golden[file], `${file}: the native result file changed`);
    // .cjs: the project's package.json says "type": "module", and emscripten's node output is CommonJS.
    const wasmCli = path.join(dir, 'muplay_cli.cjs');
    copyFileSync(WASM, wasmCli);
    const wasm = runCli(process.execPath, [wasmCli], specPath, path.join(dir, 'wasm.json'));
    assert.equal(wasm, native, `${file}: the wasm CLI's result differs from the native one`);
  });
}

after(() => {
  if (update) writeFileSync(GOLDEN, JSON.stringify(golden, null, 1) + '\n');
});
