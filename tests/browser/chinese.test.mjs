// The page in Chinese (web/js/language.js, web/draw/i18n.hpp). Switched through the toolbar's menu with the keyboard
// and by lang=zh in a link and an embed; switching keeps the experiment, its runs and the view. Every tab at 1280×800
// and 1024×768, the Fields editor's help and messages, and every dialog are read back: no English left (symbols,
// abbreviations and the spec's own names stay: ENGLISH_KEPT), no text the catalogue lacks, no character the font lacks
// (ImGui draws those as U+FFFD: read from the frame's glyph runs), no text cut off where the English is not, and no
// text drawn over other text. Screenshots: build/screenshots/zh-*.png.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, openPlayground, runPreset, screenshot, waitFrames } from './harness.mjs';
import { TABS } from './tab_presets.mjs';
import { click, drawn, findItem, hover, centre, typeInto } from './ui_driver.mjs';

const T = { timeout: 900_000 };
const SIZES = [{ width: 1280, height: 800 }, { width: 1024, height: 768 }];
const MUPLAY = path.join(ROOT, 'build/native/engine/muplay');
const CATALOGUE = JSON.parse(readFileSync(path.join(ROOT, 'web/i18n/zh.json'), 'utf8'));

// Latin words the Chinese page keeps: the science's symbols and abbreviations, units, names of things, and every
// name of the spec (its field paths' parts and its values' names: `muplay fields`, `muplay names`), which a spec
// file spells in English in any language.
const ENGLISH_KEPT = new Set(['μP', 'μPlayground', 'SP', 'NTK', 'NTP', 'MF', 'PCA', 'PC', 'GD', 'SGD', 'Adam', 'AdamW',
  'ReLU', 'GELU', 'LayerNorm', 'JSON', 'CSV', 'PNG', 'PyTorch', 'WebGPU', 'WebGL', 'CPU', 'GPU', 'wasm', 'SIMD', 'OOD',
  'ID', 'FPS', 'ms', 'Fashion', 'MNIST', 'Depth', 'Tensor', 'Programs', 'ASI', 'skip', 'gram', 'wd', 'lr', 'eta', 'inf',
  'max', 'min', 'log', 'exp', 'sin', 'cos', 'tanh', 'cosh', 'argmax', 'rms', 'Transformer', 'MLP', 'IndexedDB', 'iframe',
  'HTML', 'Markdown', 'MkDocs', 'Jupyter', 'Book', 'Hugo', 'Sphinx', 'reStructuredText', 'reveal', 'js', 'URL', 'Esc',
  'Space', 'Ctrl', 'Tab', 'Enter', 'Shift', 'KB', 'MB', 'GB', 'kB', 'Chrome', 'Edge', 'Firefox', 'Safari', 'npy', 'npz',
  'Alt', 'Home', 'End', 'tsv', 'txt', 'zip', 'py', 'English', 'Language', 'torchrun', 'float', 'DDP', 'NCCL', 'CUDA', 'auto', 'Θ',
  'Worker', 'DMFT', 'MFP', 'DFT', 'Dropout', 'dropout', 'softmax', 'one-hot', 'IV', 'V', 'muplay']);
function specNames() {
  const names = new Set();
  const fields = execFileSync(MUPLAY, ['fields'], { encoding: 'utf8' });
  for (const m of fields.matchAll(/^\| `([^`]+)`/gm)) for (const part of m[1].split(/[.[\]]/)) names.add(part);
  const enums = JSON.parse(execFileSync(MUPLAY, ['names'], { encoding: 'utf8' }));
  for (const [key, values] of Object.entries(enums)) {
    for (const part of key.split('.')) names.add(part);
    for (const v of values) names.add(v);
  }
  return names;
}
const SPEC_NAMES = specNames();

// The Latin words of `text` that are neither kept nor identifiers (a word with '_', '.' or a digit: train_loss,
// model.widths, h2, 1e-3).
export function englishLeft(text) {
  return text.split(/[^A-Za-z0-9_.'^*μΘ-]+/)
    .map((w) => w.replace(/^[-'.^*]+|[-'.^*]+$/g, ''))
    .filter((w) => /[A-Za-z]{2,}/.test(w) && !/[_.\d]/.test(w))
    .filter((w) => !ENGLISH_KEPT.has(w) && !SPEC_NAMES.has(w) && !w.split('-').every((p) => ENGLISH_KEPT.has(p) ||
                                                                                        SPEC_NAMES.has(p) || !p));
}

const overlaps = (a, b) => Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 2 && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 2;
const cutSideways = (r) => r.cut;
// The Fields and JSON editors show the spec itself: its field names and values are the spec's, in English.
const showsSpec = (r) => /fields|json|spec_json/i.test(r.window);

let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const lang = (page) => page.evaluate(() => document.documentElement.lang);
async function switchTo(page, language) {
  await page.evaluate((l) => {
    const menu = document.getElementById('language');
    menu.value = l;
    menu.dispatchEvent(new Event('change'));
  }, language);
  await page.waitForFunction((l) => document.documentElement.lang === l, language === 'zh' ? 'zh-CN' : 'en');
  await waitFrames(page, 4);
}
const missingTranslations = (page) => page.evaluate(() => JSON.parse(window.muplay.muplay_missing_translations()));

// What is wrong with the Chinese frame `zh`, against the English frame `en` of the same view.
function problems(zh, en, name) {
  const found = [];
  for (const r of zh.glyph_runs) {
    if (r.text.includes('\uFFFD')) found.push(`${name}: a character the font lacks in "${r.text}"`);
    const left = showsSpec(r) ? [] : englishLeft(r.text);
    if (left.length) found.push(`${name}: English in ${r.window}: "${r.text}" (${left.join(', ')})`);
  }
  const cutInEnglish = new Set(en.glyph_runs.filter(cutSideways).map((r) => r.window));
  for (const r of zh.glyph_runs.filter(cutSideways)) {
    if (!cutInEnglish.has(r.window)) found.push(`${name}: cut off in ${r.window}: "${r.text}"`);
  }
  // Chinese wraps between any two characters (web/draw/wrapped_text.hpp): the description's lines in view fill its
  // box, but for the last, instead of breaking only at the spaces around a Latin word or a number.
  const lines = zh.glyph_runs.filter((r) => /\/description_/.test(r.window) && r.rect[1] >= r.clip[1] - 1 &&
                                             r.rect[3] <= r.clip[3] + 1);
  for (const line of lines.slice(0, -1)) {
    const fill = (line.rect[2] - line.rect[0]) / (line.clip[2] - line.clip[0]);
    if (fill < 0.6) found.push(`${name}: a short line in the description (${fill.toFixed(2)} of its width): "${line.text}"`);
  }
  const runs = zh.glyph_runs.filter((r) => !cutSideways(r));
  for (let i = 0; i < runs.length; i++) {
    for (let j = i + 1; j < runs.length; j++) {
      if (runs[i].window === runs[j].window && overlaps(runs[i].rect, runs[j].rect)) {
        found.push(`${name}: "${runs[i].text}" and "${runs[j].text}" overlap in ${runs[i].window}`);
      }
    }
  }
  return found;
}

test('the toolbar menu switches to 中文 with the keyboard, keeps the experiment, its runs and the view, and is remembered', T, async () => {
  const { page } = pg;
  await runPreset(page, /01-sp-vs-mup-toy/, (s) => { s.schedule.steps = 20; });
  await click(page, 'vs width', { window: 'right' });
  const before = { results: await page.evaluate(() => window.muplay.muplay_get_results()),
                   view: await page.evaluate(() => window.muplay.muplay_view()),
                   spec: await page.evaluate(() => window.muplay.muplay_get_spec()) };
  await page.focus('#language');
  await page.keyboard.press('ArrowDown');  // English → 中文
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  await waitFrames(page, 4);
  assert.equal(await page.evaluate(() => document.getElementById('run').textContent), '运行');
  const run = await findItem(page, /^Run \(Space\)/);
  assert.match(run.label, /[\u4e00-\u9fff]/, `the Run button reads ${run.label}`);
  assert.equal(await page.evaluate(() => window.muplay.muplay_state()), 'finished');
  assert.equal(await page.evaluate(() => window.muplay.muplay_get_results()), before.results);
  assert.equal(await page.evaluate(() => window.muplay.muplay_view()), before.view);
  assert.equal(await page.evaluate(() => window.muplay.muplay_get_spec()), before.spec);
  assert.equal(await page.evaluate(() => localStorage.getItem('muplay-lang')), 'zh');
  await screenshot(page, 'zh-switched');
  await page.reload();
  await page.evaluate(() => window.muplay.ready.then(() => true));
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  await page.focus('#language');
  await page.keyboard.press('ArrowUp');  // 中文 → English
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  await waitFrames(page, 4);
  assert.equal(await page.evaluate(() => document.getElementById('run').textContent), 'Run');
  assert.equal((await findItem(page, /^Run \(Space\)/)).label, 'Run (Space)');
  assert.deepEqual(pg.errors, []);
});

test('lang=zh in a link and in an embed opens the page in Chinese; a link made in Chinese carries it; lang=fr is refused', T, async () => {
  for (const suffix of ['?lang=zh', '?embed=1&lang=zh']) {
    const other = await openPlayground({ suffix });
    try {
      assert.equal(await lang(other.page), 'zh-CN', suffix);
      await waitFrames(other.page, 4);
      const d = await drawn(other.page);
      assert.ok(d.glyph_runs.some((r) => /[\u4e00-\u9fff]/.test(r.text)), `${suffix}: no Chinese drawn`);
      if (suffix === '?lang=zh') {
        await other.page.click('#open-share');
        assert.match(await other.page.inputValue('#share-link'), /\?lang=zh#s=/);
        assert.match(await other.page.inputValue('#embed-snippet'), /&amp;lang=zh/);
      }
      await screenshot(other.page, `zh-opened${suffix.includes('embed') ? '-embed' : ''}`);
      assert.deepEqual(other.errors, []);
    } finally {
      await other.close();
    }
  }
  const refused = await openPlayground({ suffix: '?lang=fr' });
  try {
    assert.equal(await lang(refused.page), 'en');
    assert.match(await refused.page.textContent('#notice-text'), /lang=fr|"fr"/);
  } finally {
    await refused.close();
  }
});

for (const { tab, preset, edit, shows } of TABS) {
  test(`the ${tab} tab in Chinese at both sizes: all translated, every glyph in the font, nothing cut off or overlapping`, T, async () => {
    const { page } = pg;
    await switchTo(page, 'en');
    await page.setViewportSize(SIZES[0]);
    await runPreset(page, preset, edit);
    const found = [];
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await waitFrames(page, 3);
      await click(page, tab, { window: 'right' });
      await waitFrames(page, 3);
      const en = await drawn(page);
      await switchTo(page, 'zh');
      const zh = await drawn(page);
      const name = `zh-tab-${tab.replace(/ /g, '-').toLowerCase()}-${size.width}x${size.height}`;
      await screenshot(page, name);
      assert.ok(shows(zh), `${name}: the tab does not draw what it is for`);
      found.push(...problems(zh, en, name));
      await switchTo(page, 'en');
    }
    found.push(...(await missingTranslations(page)).map((t) => `not in the catalogue: ${t}`));
    assert.deepEqual(found, []);
    assert.deepEqual(pg.errors, []);
  });
}

test('the Fields editor in Chinese: a field\'s help and a problem typed into a field', T, async () => {
  const { page } = pg;
  await page.setViewportSize(SIZES[1]);
  await switchTo(page, 'zh');
  const field = await findItem(page, 'model', { window: 'fields' });
  await hover(page, centre(field.rect).x, centre(field.rect).y);
  await waitFrames(page, 4);
  let d = await drawn(page);
  assert.ok(d.texts.some((t) => t.startsWith('field help: ')), 'no field help shown');
  const help = d.glyph_runs.filter((r) => r.window.startsWith('##Tooltip')).map((r) => r.text).join(' ');
  assert.ok(/[\u4e00-\u9fff]/.test(help) && englishLeft(help).length === 0, `the field's help: ${help}`);
  await screenshot(page, 'zh-field-help');
  await page.evaluate(() => {
    const spec = JSON.parse(window.muplay.muplay_get_spec());
    spec.schedule.steps = -5;
    window.muplay.muplay_load_spec(JSON.stringify(spec));
  });
  await page.evaluate(() => window.muplay.muplay_run());
  await waitFrames(page, 4);
  d = await drawn(page);
  await screenshot(page, 'zh-field-problem');
  const about = d.glyph_runs.filter((r) => r.text.includes('schedule.steps'));
  assert.ok(about.length > 0 && about.every((r) => englishLeft(r.text).length === 0),
            `the problem: ${about.map((r) => r.text).join(' / ')}`);
  assert.deepEqual(await missingTranslations(page), []);
  await page.evaluate(() => window.muplay.muplay_load_preset(0));
  await switchTo(page, 'en');
});

// The toolbar's menus and dialogs are HTML: their text is read with innerText.
const DIALOGS = [
  { name: 'share', open: '#open-share', box: '#share-dialog' },
  { name: 'saved', open: '#open-saved', box: '#saved-dialog' },
  { name: 'help', open: '#open-help', box: '#help-dialog' },
  { name: 'export', open: '#export-menu > summary', box: '#export-menu' },
];

test('the toolbar and every dialog in Chinese at both sizes', T, async () => {
  const { page } = pg;
  await switchTo(page, 'zh');
  const found = [];
  for (const size of SIZES) {
    await page.setViewportSize(size);
    const bar = await page.innerText('#bar');
    found.push(...englishLeft(bar).map((w) => `toolbar: ${w}`));
    for (const { name, open, box } of DIALOGS) {
      await page.click(open);
      await page.waitForSelector(`${box}[open]`);
      const text = await page.innerText(box);
      if (name === 'help') assert.match(await page.getAttribute('#help-notes', 'href'), /lecture-notes\.zh\.html$/);
      const left = englishLeft(text.replace(/https?:\S+|<[^>]*>|\S*[./]\S*/g, ' '));  // addresses, paths, the snippet
      found.push(...left.map((w) => `${name} at ${size.width}x${size.height}: ${w}`));
      await screenshot(page, `zh-dialog-${name}-${size.width}x${size.height}`);
      const r = await page.$eval(box, (e) => e.getBoundingClientRect().toJSON());
      assert.ok(r.right <= size.width + 0.5 && r.bottom <= size.height + 0.5, `${name} fits: ${JSON.stringify(r)}`);
      await page.keyboard.press('Escape');
      await waitFrames(page, 2);
    }
  }
  // Imported: a result file read back, drawn over the page's runs, listed in its menu.
  await runPreset(page, /01-sp-vs-mup-toy/, (spec) => { spec.schedule.steps = 5; });
  const result = await page.evaluate(() => window.muplay.muplay_get_results());
  await page.setInputFiles('#import-file', { name: 'runs.json', mimeType: 'application/json', buffer: Buffer.from(result) });
  await page.waitForSelector('#imports-menu:not([hidden])');
  await page.click('#imports-summary');
  const imported = await page.innerText('#imports-menu');
  found.push(...englishLeft(imported.replace(/\S*[./]\S*/g, ' ')).map((w) => `imported: ${w}`));
  await screenshot(page, 'zh-menu-imported');
  await page.keyboard.press('Escape');
  await page.evaluate(() => window.muplay.muplay_remove_import(0));
  assert.deepEqual(found, []);
  await switchTo(page, 'en');
  assert.deepEqual(pg.errors, []);
});

test('a broken link in Chinese: the page says what is wrong in Chinese and keeps working', T, async () => {
  const broken = await openPlayground({ suffix: '?lang=zh#s=1.not-a-spec' });
  try {
    const notice = await broken.page.textContent('#notice-text');
    assert.match(notice, /[\u4e00-\u9fff]/, notice);
    assert.deepEqual(englishLeft(notice.replace(/\S*[./#=]\S*/g, ' ')), [], notice);
    await screenshot(broken.page, 'zh-broken-link');
    assert.equal(await broken.page.evaluate(() => window.muplay.muplay_state()), 'idle');
    assert.deepEqual(await missingTranslations(broken.page), []);
  } finally {
    await broken.close();
  }
});

test('every character of the catalogue is in the page\'s font in Chinese', T, async () => {
  const { page } = pg;
  await switchTo(page, 'zh');
  const text = Object.values(CATALOGUE).join('');
  const { missing } = JSON.parse(await page.evaluate((t) => window.muplay.muplay_font_glyphs(t), text));
  assert.deepEqual([...new Set(missing)], []);
  await switchTo(page, 'en');
});

test('the Chinese lecture notes open each of their embeds in Chinese', T, async () => {
  const notes = await openPlayground({ suffix: 'examples/lecture-notes.zh.html', waitReady: false });
  try {
    const { page } = notes;
    const iframes = page.locator('iframe:not(#driven)');
    assert.ok(await iframes.count() >= 3);
    const found = [];
    for (let i = 0; i < await iframes.count(); i++) {
      const iframe = iframes.nth(i);
      await iframe.scrollIntoViewIfNeeded();
      const frame = await (await iframe.elementHandle()).contentFrame();
      await frame.waitForURL(/lang=zh/);
      await frame.evaluate(() => window.muplay.ready.then(() => true));
      await frame.waitForFunction(() => document.documentElement.lang === 'zh-CN');
      await frame.evaluate(() => window.muplay.muplay_drawn());  // turns the trace on
      const d = await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() =>
        requestAnimationFrame(() => resolve(JSON.parse(window.muplay.muplay_drawn()))))));
      assert.ok(d.glyph_runs.some((r) => /[\u4e00-\u9fff]/.test(r.text)), `embed ${i + 1}: no Chinese drawn`);
      for (const r of d.glyph_runs) {
        if (r.text.includes('\uFFFD') || englishLeft(r.text).length) found.push(`embed ${i + 1}: "${r.text}"`);
      }
      await screenshot(page, `zh-lecture-notes-embed-${i + 1}`);
    }
    assert.deepEqual(found, []);
    assert.deepEqual(notes.errors, []);
  } finally {
    await notes.close();
  }
});

test('on a phone in Chinese the toolbar\'s preset menu names the presets in Chinese, and follows a switch', T, async () => {
  const phone = await openPlayground({ suffix: '?lang=zh', viewport: { width: 375, height: 667 }, hasTouch: true });
  try {
    const { page } = phone;
    const names = () => page.$$eval('#preset-menu option', (options) => options.map((o) => o.textContent));
    const zh = await names();
    assert.ok(zh.length > 10 && zh.every((n) => /[\u4e00-\u9fff]/.test(n)), zh.slice(0, 3).join(' / '));
    await screenshot(page, 'zh-phone');
    await switchTo(page, 'en');
    assert.ok((await names()).every((n) => !/[\u4e00-\u9fff]/.test(n)));
    assert.deepEqual(phone.errors, []);
  } finally {
    await phone.close();
  }
});
