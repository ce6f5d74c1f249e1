// The Chinese catalogue (web/i18n/zh.json) against every English text the page translates (tests/node/i18n_strings.mjs
// finds them): each has its Chinese, nothing in the catalogue is stale, and a translation keeps what the page or the
// science needs of the English: its printf directives and {placeholders} in order, every number it quotes (the
// presets' descriptions quote measured results: tests/node/preset_results.test.mjs keeps the English true), and the
// markup of a data-tr-html paragraph.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { allTexts, cppTexts, engineLiterals, fieldTexts, htmlTexts, isPattern, jsTexts, readCatalogue }
  from './i18n_strings.mjs';

const catalogue = readCatalogue();
const texts = allTexts();

const directives = (s) => s.match(/%[-+#0]*\d*(?:\.\d+)?[a-zA-Z%]/g) ?? [];
const placeholders = (s) => (s.match(/\{[a-z0-9_]+\}/g) ?? []).sort();
const numbers = (s) =>
  new Set(s.replace(/%[-+#0]*\d*(?:\.\d+)?[a-zA-Z]/g, '').match(/\d+(?:\.\d+)?(?:e-?\d+)?/g) ?? []);
const tags = (s) => (s.match(/<\/?[a-z]+[^>]*>/g) ?? []).map((t) => t.replace(/\s+/g, ' ')).sort();
const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;

test('the extraction finds texts in each kind of source', () => {
  assert.deepEqual(cppTexts('ImGui::Text(tr("Step %d" " of %d"), 1); tr_label("Run##main"); translatable("vs step");' +
                           ' trf("%d runs", n)'), ['Step %d of %d', 'Run', 'vs step', '%d runs']);
  assert.deepEqual(jsTexts("ui.notice(tr('Could not read {what}.', { what })); tr(`It\\'s`)"),
                   ['Could not read {what}.', "It's"]);
  assert.deepEqual(htmlTexts('<button id="run" data-tr>Run</button><p data-tr-html>Press <kbd>Space</kbd>.</p>' +
                             '<select aria-label="Preset" data-tr-aria></select>'),
                   ['Run', 'Press <kbd>Space</kbd>.', 'Preset']);
  assert.ok(fieldTexts() !== null, 'build/native/engine/muplay is not built: its table of fields is needed');
  for (const from of ['web/app/ui.cpp', 'index.html', 'examples/*.json', 'muplay fields']) {
    assert.ok(texts.some((t) => t.from === from), `no text found in ${from}`);
  }
});

test('every text the page translates has its Chinese', () => {
  const missing = [...new Set(texts.filter((t) => !catalogue[t.text]).map((t) => `${t.from}: ${t.text}`))];
  assert.deepEqual(missing, [], `${missing.length} texts lack a translation (node tests/node/i18n_strings.mjs lists them)`);
});

test('the catalogue holds no stale entry', () => {
  const used = new Set([...texts.map((t) => t.text), ...engineLiterals()]);
  const stale = Object.keys(catalogue).filter((k) => !used.has(k) && !isPattern(k));
  assert.deepEqual(stale, [], 'entries no text uses (node tests/node/i18n_strings.mjs --unused)');
});

test('each translation is Chinese and keeps the directives, placeholders, numbers and markup of its English', () => {
  const problems = [];
  for (const [english, chinese] of Object.entries(catalogue)) {
    const say = (what) => problems.push(`${JSON.stringify(english)}: ${what}`);
    if (typeof chinese !== 'string' || !chinese.trim()) { say('empty'); continue; }
    if (!CJK.test(chinese) && /\s/.test(english.trim())) say(`not translated: ${JSON.stringify(chinese)}`);
    if (directives(english).join() !== directives(chinese).join()) say(`printf directives differ: ${chinese}`);
    if (placeholders(english).join() !== placeholders(chinese).join()) say(`placeholders differ: ${chinese}`);
    const lost = [...numbers(english)].filter((n) => !numbers(chinese).has(n));
    if (lost.length) say(`numbers missing from the Chinese: ${lost.join(', ')}`);
    if (tags(english).join() !== tags(chinese).join()) say(`markup differs: ${chinese}`);
  }
  assert.deepEqual(problems, []);
});
