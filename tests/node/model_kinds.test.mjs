// Code outside the models asks a model kind its facts (engine/spec/model_kind.hpp: is_transformer,
// has_residual_blocks, is_plain_mlp) rather than naming a kind, so a new kind is one row there and its model. The
// only places that name a value are that file and the spec's default (ModelSpec::kind).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ALLOWED = new Set(['engine/spec/model_kind.hpp', 'engine/spec/experiment_spec.hpp']);

function sourceFiles(dir) {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) return sourceFiles(rel);
    return /\.(hpp|cpp)$/.test(name) ? [rel] : [];
  });
}

// "file:line: text" for every line naming a ModelKind value outside the allowed files.
export function namedKinds(files, read) {
  return files.filter((f) => !ALLOWED.has(f)).flatMap((f) => read(f).split('\n')
    .map((line, i) => (/ModelKind::\w/.test(line) ? `${f}:${i + 1}: ${line.trim()}` : null)).filter(Boolean));
}

test('engine/ and web/ name a model kind only in its table and the spec default', () => {
  const files = [...sourceFiles('engine'), ...sourceFiles('web')];
  const named = namedKinds(files, (f) => readFileSync(path.join(ROOT, f), 'utf8'));
  assert.deepEqual(named, []);
});

test('the check finds a kind named in a view', () => {
  const named = namedKinds(['web/views/v.cpp', 'engine/spec/model_kind.hpp'],
                           (f) => (f.startsWith('web') ? 'int a;\nif (k == ModelKind::transformer) {}' : 'ModelKind::mlp'));
  assert.deepEqual(named, ['web/views/v.cpp:2: if (k == ModelKind::transformer) {}']);
});
