// Rough edges a class finds, each driven with real input and checked through what the page draws (the frame trace):
// - the toolbar's Export menu closes on Esc and on a press outside it, so a click on Run (Space) afterwards trains
//   (the menu left open hung over Run and took the click: a spec file downloaded instead);
// - the red "Nothing was started: optimizer.lr …" goes once the field is mended, without another Run;
// - a link opens with its own preset marked in the preset list, scrolled into view (a fresh link to 27 marked 01).
// Screenshots: build/screenshots/rough-edges-*.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, screenshot, waitFrames } from './harness.mjs';
import { centre, click, drawn, findItem, press, typeInto } from './ui_driver.mjs';

const T = { timeout: 300_000 };
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const call = (name, ...args) => pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);
const menuOpen = () => pg.page.evaluate(() => document.getElementById('export-menu').open);
const notes = async () => (await drawn(pg.page)).texts;  // what the panels wrote, e.g. "message: …"

test('the Export menu closes on Esc and on a press outside it; Run (Space) then trains', T, async () => {
  const { page } = pg;
  await page.click('#export-menu summary');
  assert.equal(await menuOpen(), true);
  await press(page, 'Escape');
  assert.equal(await menuOpen(), false, 'Esc closes the menu');

  await page.click('#export-menu summary');
  assert.equal(await menuOpen(), true);
  await screenshot(page, 'rough-edges-export-open');
  // A press on the panels, away from the menu (the preset list's window): the menu closes.
  const presets = (await drawn(page)).windows.find((w) => w.name.includes('presets'));
  assert.ok(presets, 'the preset list window');
  await page.mouse.click(centre(presets.rect).x, presets.rect[3] - 10);
  await waitFrames(page, 2);
  assert.equal(await menuOpen(), false, 'a press on the canvas closes the menu');

  // Open again, close with Esc from the canvas (the keyboard's focus there), then Run (Space) on the panels trains.
  await page.click('#export-menu summary');
  await page.focus('#canvas');
  await press(page, 'Escape');
  assert.equal(await menuOpen(), false);
  let downloaded = false;
  page.on('download', () => { downloaded = true; });
  await click(page, 'Run (Space)');
  await page.waitForFunction(() => window.muplay.muplay_state() !== 'idle');
  assert.equal(downloaded, false, 'Run trained; nothing was downloaded');
  await call('muplay_pause');
  await screenshot(page, 'rough-edges-run-after-menu');
  assert.deepEqual(pg.errors, []);
});

test('the "Nothing was started" message goes once the learning rate is mended', T, async () => {
  const { page } = pg;
  await call('muplay_load_preset', 0);
  await typeInto(page, '##optimizer.lr', '-1', { window: 'fields' });
  await click(page, 'Run (Space)');
  await waitFrames(page, 3);
  const refused = (await notes()).filter((t) => t.startsWith('message: Nothing was started: optimizer.lr'));
  assert.equal(refused.length, 1, (await notes()).join(' | '));
  await screenshot(page, 'rough-edges-lr-refused');
  await typeInto(page, '##optimizer.lr', '0.1', { window: 'fields' });
  await waitFrames(page, 3);
  const mended = await notes();
  assert.ok(!mended.some((t) => t.startsWith('message: ')), mended.join(' | '));
  assert.equal(JSON.parse(await call('muplay_get_spec')).optimizer.lr, 0.1);
  await screenshot(page, 'rough-edges-lr-mended');
  assert.deepEqual(pg.errors, []);
});

test('a link opens with its preset marked in the preset list, in view', T, async () => {
  const { page } = pg;
  const presets = JSON.parse(await call('muplay_list_presets'));
  const index = presets.findIndex((p) => /27-edge-of-stability/.test(p.path));
  assert.ok(index > 0);
  await call('muplay_load_preset', index);
  const link = await call('muplay_share_link');
  await call('muplay_load_preset', 0);
  // A fresh page on the link, as a student opens it.
  const fresh = await openPlayground({ suffix: `#${link}` });
  try {
    const marked = (await drawn(fresh.page)).items.filter((i) => i.window.includes('presets') && i.checked && i.visible);
    assert.deepEqual(marked.map((i) => i.label), [presets[index].name], JSON.stringify(marked));
    await screenshot(fresh.page, 'rough-edges-link-27');
    assert.deepEqual(fresh.errors, []);
  } finally {
    await fresh.close();
  }
});
