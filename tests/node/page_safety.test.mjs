// The page's audit, kept: no source of the page inserts text as HTML or evaluates it as code (what comes from a link, a
// file or a message is only ever set as textContent, a value, or parsed as JSON), and the built muplay.js needs no
// eval (-sDYNAMIC_EXECUTION=0), so the Content-Security-Policy of index.html can forbid it.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SINKS = [/\.innerHTML\b/, /\.outerHTML\b/, /insertAdjacentHTML/, /document\.write/, /[^.\w]eval\s*\(/, /new Function\s*\(/,
               /setTimeout\s*\(\s*['"`]/, /setInterval\s*\(\s*['"`]/, /createContextualFragment/, /\.srcdoc\b/];
const sources = () => [
  'index.html', 'examples/lecture-notes.html', 'examples/lecture-notes.zh.html',
  ...readdirSync(path.join(ROOT, 'web', 'js')).filter((f) => f.endsWith('.js')).map((f) => `web/js/${f}`),
];

test('no page source inserts HTML or evaluates text', () => {
  const found = [];
  for (const file of sources()) {
    const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const sink of SINKS) if (sink.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(found, []);
});

test('the built muplay.js does not call eval or new Function', { skip: !existsSync(path.join(ROOT, 'build/web/muplay.js')) }, () => {
  const js = readFileSync(path.join(ROOT, 'build/web/muplay.js'), 'utf8');
  assert.doesNotMatch(js, /[^.\w]eval\s*\(|new Function\s*\(/);
});

test('the threaded build (muplay-threads.js and its worker) does not call eval or new Function',
     { skip: !existsSync(path.join(ROOT, 'build/web-threads/muplay-threads.js')) }, () => {
  for (const file of ['muplay-threads.js', 'muplay-threads.worker.js']) {
    const js = readFileSync(path.join(ROOT, 'build/web-threads', file), 'utf8');
    assert.doesNotMatch(js, /[^.\w]eval\s*\(|new Function\s*\(/, file);
  }
});
