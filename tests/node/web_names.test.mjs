// The page keeps no second list of the engine's names: the spec editor's combo boxes take them from the engine
// (spec_field_choices, engine/spec/spec.hpp), which takes them from the enums' tables. For task kinds, activations,
// presets and optimizers, web/ may hold neither a string literal equal to one of their names (as `muplay names`
// prints them) nor a braced list of two or more of their values ({Activation::relu, Activation::tanh}), except the
// few in ALLOWED_*, each with its reason.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MUPLAY = path.join(ROOT, 'build', 'native', 'engine', 'muplay');
const GUARDED = ['task.kind', 'model.activation', 'parametrization.preset', 'optimizer.kind'];
const GUARDED_ENUMS = ['TaskKind', 'Activation', 'Preset', 'OptimizerKind'];

// {file, value, line}: a literal allowed where its line contains `line`, and why.
const ALLOWED_LITERALS = [
  { file: 'web/app/view_tab.cpp', value: 'anchor', line: '{ViewTab::anchor, "anchor", translatable("anchor")}' },  // the tab's name, title
  { file: 'web/app/ui.cpp', value: 'custom', line: 'param.set("custom", layers)' },  // the field parametrization.custom
  { file: 'web/views/phenomena_view.cpp', value: 'linear', line: 'dim, tr("linear"))' },  // a region of the phase map
];
// {file, list}: a braced list of enum values allowed as it stands, and why.
const ALLOWED_LISTS = [
  // The abc explorer's buttons: the presets that are abc tables (custom, normal and two_layer_gamma are not).
  { file: 'web/views/abc_explorer.cpp', list: '{Preset::sp, Preset::sp_lr_over_n, Preset::ntp, Preset::mfp, Preset::mup}' },
];

// The string literals of C++ or JavaScript source, with their line numbers; comments are skipped.
export function stringLiterals(source) {
  const out = [];
  let line = 1;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\n') line++;
    else if (c === '/' && source[i + 1] === '/') {
      while (i + 1 < source.length && source[i + 1] !== '\n') i++;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? source.length : end + 1;
      line += (source.slice(i, stop).match(/\n/g) ?? []).length;
      i = stop;
    } else if (c === '"' || c === "'" || c === '`') {
      let value = '';
      const start = line;
      for (i++; i < source.length && source[i] !== c; i++) {
        if (source[i] === '\\') value += source[++i];
        else value += source[i];
        if (source[i] === '\n') line++;
      }
      out.push({ value, line: start });
    }
  }
  return out;
}

// The braced lists of source that hold two or more values of one of `enums`: {Activation::relu, Activation::gelu}.
export function enumValueLists(source, enums) {
  return [...source.matchAll(/\{[^{}]*\}/g)].map((m) => m[0]).filter((list) => enums.some((e) =>
    new Set(list.match(new RegExp(`\\b${e}::\\w+`, 'g'))).size >= 2));
}

// Every source of web/ and its folders.
function webSources(dir = 'web') {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? webSources(`${dir}/${e.name}`) : /\.(cpp|hpp|js)$/.test(e.name) ? [`${dir}/${e.name}`] : []);
}

function guardedNames() {
  assert.ok(existsSync(MUPLAY), `${MUPLAY} is missing: build first (bash scripts/build)`);
  const r = spawnSync(MUPLAY, ['names'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const fields = JSON.parse(r.stdout);
  return new Set(GUARDED.flatMap((field) => {
    assert.ok(fields[field]?.length, `muplay names has no ${field}`);
    return fields[field];
  }));
}

test('no string literal in web/ repeats an engine name of a task, activation, preset or optimizer', () => {
  const names = guardedNames();
  const found = [];
  for (const file of webSources()) {
    const source = readFileSync(path.join(ROOT, file), 'utf8');
    const lines = source.split('\n');
    for (const { value, line } of stringLiterals(source)) {
      if (!names.has(value)) continue;
      const text = lines[line - 1];
      if (ALLOWED_LITERALS.some((a) => a.file === file && a.value === value && text.includes(a.line))) continue;
      found.push(`${file}:${line}: "${value}" in ${text.trim()}`);
    }
  }
  assert.deepEqual(found, [], 'take the name from the engine (spec_field_choices or the enum\'s *_name())');
});

test('no braced list in web/ enumerates task kinds, activations, presets or optimizers', () => {
  const found = webSources().flatMap((file) =>
    enumValueLists(readFileSync(path.join(ROOT, file), 'utf8'), GUARDED_ENUMS)
      .filter((list) => !ALLOWED_LISTS.some((a) => a.file === file && a.list === list))
      .map((list) => `${file}: ${list.replace(/\s+/g, ' ')}`));
  assert.deepEqual(found, [], 'ask the engine for the values (spec_field_choices or the enum\'s table)');
});

test('every allowed exception is still there (a stale one would hide a new literal or list)', () => {
  for (const a of ALLOWED_LITERALS) {
    const source = readFileSync(path.join(ROOT, a.file), 'utf8');
    assert.ok(source.split('\n').some((text) => text.includes(a.line)), `${a.file} no longer has ${a.line}`);
  }
  for (const a of ALLOWED_LISTS)
    assert.ok(readFileSync(path.join(ROOT, a.file), 'utf8').includes(a.list), `${a.file} no longer has ${a.list}`);
});

test('the literal scanner skips comments and reads escapes', () => {
  const src = '// "relu" in a comment\nf("sgd", \'a\\\'b\');\n/* "mup"\n */ g(`tanh`);';
  assert.deepEqual(stringLiterals(src),
                   [{ value: 'sgd', line: 2 }, { value: "a'b", line: 2 }, { value: 'tanh', line: 4 }]);
});

test('the list finder sees a list of two values of one enum, not one value or two enums', () => {
  const src = 'for (Activation a : {Activation::relu,\n Activation::tanh}) f({Preset::mup});' +
              ' g({TaskKind::anchor, Preset::sp});';
  assert.deepEqual(enumValueLists(src, GUARDED_ENUMS), ['{Activation::relu,\n Activation::tanh}']);
});
