// Text a lecturer can project (web/draw/font.hpp, web/views/abc_explorer.cpp, index.html's Help): the page's font draws the
// science's symbols (→, ≤, γ, η, μ, …) instead of '?', long hints wrap instead of being cut, the parametrization
// tab's α slider reads the same regime as the table it drives, and Help explains every tab and parametrization and links
// the lecture notes. Read from the page's frame trace (web/draw/drawn.hpp) and the font itself (muplay_font_glyphs).
// Screenshots: build/screenshots/text-explorer-ntk.png, text-explorer-alpha.png, text-help.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { clickImGui, openPlayground, screenshot, waitFrames } from './harness.mjs';
import { click, drawn, findItem, inside } from './ui_driver.mjs';

const T = { timeout: 600_000 };
const TABS = ['vs step', 'vs width', 'vs learning rate', 'embeddings', 'anchor', 'phenomena', 'parametrization',
  'max LR'];
let pg;
before(async () => { pg = await openPlayground({ viewport: { width: 1024, height: 768 } }); }, T);
after(async () => { await pg?.close(); });

const glyphs = async (text) => JSON.parse(await pg.page.evaluate((t) => window.muplay.muplay_font_glyphs(t), text));
// What the explorer's table and its α slider say the parametrization is (their noted lines).
function regimes(d) {
  const table = d.texts.find((t) => t.startsWith('explorer table: '));
  const slider = d.texts.find((t) => t.startsWith('explorer slider: '));
  assert.ok(table && slider, `the explorer drew both lines: ${JSON.stringify(d.texts)}`);
  return { table: /^explorer table: (\w+)/.exec(table)[1], reason: table,
    slider: /^explorer slider: α = ([\d.]+): (\w+)/.exec(slider) };
}

test('the font has the symbols the panels print, and every text drawn has its glyphs', T, async () => {
  const font = await glyphs('→ ≤ ≥ ≈ ∞ √ ∝ ½ ² × α β γ γ′ η θ κ λ μ σ Δ Θ');
  assert.deepEqual(font.missing, [], `missing from ${font.font}`);
  assert.ok(font.size >= 14, `a size that reads on a projector: ${font.size}`);
  await click(pg.page, 'parametrization', { window: 'right' });
  await click(pg.page, 'ntp');
  const d = await drawn(pg.page);
  await screenshot(pg.page, 'text-explorer-ntk');
  const { reason } = regimes(d);
  assert.match(reason, /n\^-r → 0/, 'the kernel regime\'s reason is drawn with its arrow');
  const everything = [...d.texts, ...d.items.map((i) => i.label), ...d.text_rects.map((t) => t.text)].join(' ');
  assert.deepEqual((await glyphs(everything)).missing, [], 'no text of the frame falls back to "?"');
  assert.deepEqual(pg.errors, []);
});

test('the α slider follows the table, and moved with the mouse reads the same regime as the table', T, async () => {
  // After the ntp button (the previous test): the table is NTK, α = 0 on the NTK–μP line.
  let r = regimes(await drawn(pg.page));
  assert.equal(r.table, 'kernel');
  assert.deepEqual([r.slider[1], r.slider[2]], ['0', 'kernel'], 'the slider follows the table to NTK');

  const slider = await findItem(pg.page, 'α');
  const y = (slider.rect[1] + slider.rect[3]) / 2;
  await clickImGui(pg.page, slider.rect[2] - 2, y);  // the right end: α = ½, μP
  r = regimes(await drawn(pg.page));
  assert.deepEqual([r.slider[1], r.slider[2], r.table], ['0.5', 'feature_learning', 'feature_learning']);

  const moved = await findItem(pg.page, 'α');
  assert.deepEqual(moved.rect, slider.rect, 'the slider stays where it was, whatever the regime');
  await clickImGui(pg.page, (slider.rect[0] + slider.rect[2]) / 2, y);  // the middle: α = ¼
  const d = await drawn(pg.page);
  await screenshot(pg.page, 'text-explorer-alpha');
  r = regimes(d);
  assert.deepEqual([r.slider[1], r.slider[2], r.table], ['0.25', 'kernel', 'kernel']);
  assert.match(d.texts.find((t) => t.startsWith('explorer slider: ')), /features move by n\^-0\.25$/);
  const rows = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_explorer_rows()));
  assert.equal(rows[0].lr_exponent, 0.5, 'the table is the line\'s point: the input layer learns at η n^2α');
});

test('a long hint wraps inside its panel instead of being cut', T, async () => {
  await click(pg.page, 'vs step');
  await waitFrames(pg.page, 2);
  const d = await drawn(pg.page);
  const hint = d.text_rects.find((t) => t.text.startsWith('hint: (no n=inf curve: '));
  assert.ok(hint, `the default preset says why it has no n=inf curve: ${JSON.stringify(d.text_rects)}`);
  assert.ok(hint.text.endsWith(')'), 'the whole hint');
  const right = d.windows.find((w) => /\/right_[0-9A-F]+$/.test(w.name));
  assert.ok(inside(hint.rect, right.rect), `inside the right column: ${hint.rect} in ${right.rect}`);
  assert.ok(hint.rect[3] - hint.rect[1] >= 1.8 * d.font_size, 'on more than one line');
});

test('Help, opened with the mouse, explains every tab and parametrization and links the lecture notes', T, async () => {
  const { page } = pg;
  // A Transformer experiment, so the "anchor" tab is drawn too.
  await page.evaluate(() => window.muplay.muplay_load_preset(window.muplay.muplay_find_preset('30-anchor-identity')));
  await waitFrames(page, 3);
  const d = await drawn(page);
  const first = d.items.find((i) => i.label === 'vs step');
  const drawnTabs = d.items.filter((i) => i.window === first.window && i.rect[1] === first.rect[1]).map((i) => i.label);
  assert.deepEqual(drawnTabs, TABS, 'the tabs the page draws');

  await page.click('#open-help');
  await page.locator('#help-dialog').waitFor({ state: 'visible' });
  await screenshot(page, 'text-help');
  const tabs = await page.locator('#help-tabs dt').allTextContents();
  // Help also explains "vs depth", which the page draws for residual MLP runs only (this one is a Transformer's).
  const everyTab = [...drawnTabs];
  everyTab.splice(everyTab.indexOf('vs learning rate') + 1, 0, 'vs depth');
  assert.deepEqual(tabs, everyTab, 'one entry per tab, in the page\'s order');
  for (const text of await page.locator('#help-tabs dd').allTextContents()) assert.ok(text.length > 80, text);
  const params = (await page.locator('#help-params dt').allTextContents()).join(' | ');
  for (const p of [/\bSP\b/, /\bNTK\b/, /mean-field/, /μP/]) assert.match(params, p);
  const href = await page.locator('#help-notes').getAttribute('href');
  const notes = await page.request.get(new URL(href, page.url()).href);
  assert.equal(notes.status(), 200);
  assert.match(await notes.text(), /<title>[^<]*<\/title>/);
  assert.equal(new URL(href, page.url()).pathname, '/examples/lecture-notes.html');
  await page.keyboard.press('Escape');
  assert.deepEqual(pg.errors, []);
});
