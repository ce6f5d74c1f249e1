// Every English text the page translates, found where it is written, for tests/node/i18n_catalogue.test.mjs and for
// whoever adds to the Chinese catalogue (web/i18n/zh.json):
//   node tests/node/i18n_strings.mjs            the texts the catalogue lacks, as a JSON object to fill in
//   node tests/node/i18n_strings.mjs --unused   the catalogue's entries that no text uses any more
// The sources: tr("…"), trf("…", …), tr_label("…") and translatable("…") in web/ (C++), tr('…') and tr(`…`) in
// web/js/, the data-tr* elements of index.html, the presets' names and descriptions (examples/*.json), and the
// meanings in the engine's table of fields (`muplay fields`, from build/native). The engine's own texts (its string
// literals) and message patterns with {placeholders} (both translated by web/draw/i18n.cpp's tr_message where the
// page shows them) are entries the page's code does not spell out: they count as in use.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CATALOGUE = join(ROOT, 'web/i18n/zh.json');
const MUPLAY = join(ROOT, 'build/native/engine/muplay');

function filesUnder(dir, pattern) {
  return readdirSync(join(ROOT, dir), { recursive: true }).filter((f) => pattern.test(f)).map((f) => join(dir, f));
}

// C++ string literals, adjacent ones joined ("a" "b"), with their escapes read.
function cppLiteral(text) {
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1].replace(/\\x([0-9A-Fa-f]{2})/g,
    (_, h) => `\\u00${h}`)}"`)).join('');
}

export function cppTexts(source) {
  const texts = [];
  for (const m of source.matchAll(/\b(tr|trf|tr_label|translatable)\(((?:\s*"(?:[^"\\]|\\.)*"\s*)+)[,)]/g)) {
    let text = cppLiteral(m[2]);
    if (m[1] === 'tr_label') text = text.split('##')[0];
    texts.push(text);
  }
  return texts;
}

export function jsTexts(source) {
  return [...source.matchAll(/\btr\(\s*(['`])((?:[^\\]|\\.)*?)\1/g)].map((m) => m[2].replace(/\\(['`\\])/g, '$1'));
}

// index.html's marked elements: their text, markup, title or aria-label, as the page reads them (web/js/language.js).
export function htmlTexts(html) {
  const texts = [];
  const squash = (s) => s.replace(/\s+/g, ' ').trim();
  for (const m of html.matchAll(/<(\w+)([^>]*)\sdata-tr(-html)?(?:="([^"]*)")?(?=[\s>])([^>]*)>([\s\S]*?)<\/\1>/g)) {
    texts.push(m[4] || squash(m[3] ? m[6] : m[6].replace(/<[^>]*>/g, '')).replace(/&amp;/g, '&'));
  }
  for (const element of html.match(/<\w+[^>]*>/g) ?? []) {  // the whole tag: its title or aria-label may come first
    for (const m of element.matchAll(/\sdata-tr-(title|aria)(?:="([^"]*)")?/g)) {
      const own = m[2] || element.match(m[1] === 'title' ? /\stitle="([^"]*)"/ : /\saria-label="([^"]*)"/)?.[1];
      if (own) texts.push(own);
    }
  }
  return texts;
}

export function presetTexts() {
  return filesUnder('examples', /^[^/]+\.json$/).flatMap((f) => {
    const spec = JSON.parse(readFileSync(join(ROOT, f), 'utf8'));
    return [spec.name, spec.description].filter((t) => t);
  });
}

// The meanings of the spec's fields (the Fields editor's tooltips): the "meaning" column of `muplay fields`, and the
// objects' meanings, which that table leaves out (read from the engine's table, engine/spec/spec_fields.cpp). null
// when the native CLI is not built.
export function fieldTexts() {
  if (!existsSync(MUPLAY)) return null;
  const table = execFileSync(MUPLAY, ['fields'], { encoding: 'utf8' });
  const objects = readFileSync(join(ROOT, 'engine/spec/spec_fields.cpp'), 'utf8')
    .matchAll(/\bobject\("[^"]+",\s*\w+,\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\)/g);
  return table.split('\n').filter((l) => l.startsWith('| `'))
    .map((l) => l.split(' | ').at(-1).replace(/ \|$/, '').replace(/\\\|/g, '|'))
    .concat([...objects].map((m) => cppLiteral(m[1])));
}

const hasWords = (t) => /[A-Za-z]/.test(t);

// Every text, with where it comes from: [{text, from}].
export function allTexts() {
  const found = [];
  const add = (from, texts) => { for (const text of texts) if (hasWords(text)) found.push({ text, from }); };
  for (const f of filesUnder('web', /\.(cpp|hpp)$/)) add(f, cppTexts(readFileSync(join(ROOT, f), 'utf8')));
  for (const f of filesUnder('web/js', /\.js$/)) add(f, jsTexts(readFileSync(join(ROOT, f), 'utf8')));
  add('index.html', htmlTexts(readFileSync(join(ROOT, 'index.html'), 'utf8')));
  add('examples/*.json', presetTexts());
  add('muplay fields', fieldTexts() ?? []);
  return found;
}

// Fixed texts the engine writes (its string literals), which the page translates where it shows them (tr_message):
// an entry for one of them is in use, though no code of the page spells it out.
export function engineLiterals() {
  const literals = new Set();
  for (const f of filesUnder('engine', /\.(cpp|hpp)$/)) {
    const source = readFileSync(join(ROOT, f), 'utf8');
    let joined = null;  // adjacent literals ("a" "b") are one text
    for (let k = 0; k < source.length; k++) {
      const c = source[k];
      if (c === '/' && source[k + 1] === '/') {
        k = source.indexOf('\n', k);
        if (k < 0) break;
      } else if (c === '/' && source[k + 1] === '*') {
        k = source.indexOf('*/', k) + 1;
        if (k <= 0) break;
      } else if (c === "'" || c === '"') {
        let end = k + 1;
        while (end < source.length && source[end] !== c) end += source[end] === '\\' ? 2 : 1;
        if (c === '"') {
          try {
            joined = (joined ?? '') + cppLiteral(source.slice(k, end + 1));
          } catch { /* a literal JSON cannot read (a raw string's piece): no message the page shows */ }
        }
        k = end;
      } else if (!/\s/.test(c) && joined !== null) {
        literals.add(joined);
        joined = null;
      }
    }
  }
  return literals;
}

export const readCatalogue = () => JSON.parse(readFileSync(CATALOGUE, 'utf8'));
export const isPattern = (key) => /\{[a-z0-9_]+\}/.test(key) && !key.includes('%');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const catalogue = readCatalogue();
  const texts = allTexts();
  if (process.argv.includes('--unused')) {
    const used = new Set([...texts.map((t) => t.text), ...engineLiterals()]);
    console.log(JSON.stringify(Object.keys(catalogue).filter((k) => !used.has(k) && !isPattern(k)), null, 2));
  } else {
    const missing = {};
    for (const { text } of texts) if (!(text in catalogue)) missing[text] = '';
    console.log(JSON.stringify(missing, null, 2));
  }
}
