// Zoom and reflow: at a 640×400 CSS viewport with two device pixels to each (a 1280×800 window at 200% browser zoom)
// the layout is narrow, and the toolbar's Fields shows the spec editor in the views' place: a field is edited there
// and the spec takes it; every toolbar control comes whole into the bar's view as Tab reaches it. At 320×568 no
// toolbar control is cut off (the bar scrolls sideways, each control whole within it as Tab reaches it) and every
// dialog fits the window. Ctrl + / − / 0 are the browser's (the page neither takes them nor changes its panels'
// zoom); Alt + / − / 0 step the panels' zoom, which this browser remembers.
// Screenshots: build/screenshots/zoom-*.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, screenshot, waitForPlayground, waitFrames } from './harness.mjs';
import { drawn, press, typeInto } from './ui_driver.mjs';

const T = { timeout: 300_000 };
let pg;
// A window of 1280 × 800 device pixels at 200%: 640 × 400 CSS pixels, two device pixels each.
before(async () => { pg = await openPlayground({ viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 }); }, T);
after(async () => { await pg?.close(); });

const call = (name, ...args) => pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);
const windows = async () => (await drawn(pg.page)).windows.map((w) => w.name);

// Each toolbar control as the Tab key reaches it, from the first: its box and the bar's (the bar scrolls it into
// view), and the controls shown that Tab never reached.
async function tabbedControls(page) {
  const shown = await page.evaluate(() => [...document.querySelectorAll('#bar button, #bar select, #bar summary, #bar a')]
    // A menu's items are reached through its summary.
    .filter((el) => el.offsetParent !== null && !el.closest('[hidden]') && !el.closest('details:not([open]) > div') &&
                    !el.disabled)
    .map((el) => el.id || el.textContent.trim()));
  await page.focus('#run');
  const out = [];
  for (let i = 0; i < 40; i++) {
    const c = await page.evaluate(() => {
      const el = document.activeElement, bar = document.getElementById('bar');
      if (!bar.contains(el)) return null;
      const r = el.getBoundingClientRect(), b = bar.getBoundingClientRect();
      return { what: el.id || el.textContent.trim(), left: r.left, right: r.right, top: r.top, bottom: r.bottom,
               bar: [b.left, b.top, b.right, b.bottom] };
    });
    if (!c) break;
    out.push(c);
    await page.keyboard.press('Tab');
  }
  const reached = new Set(out.map((c) => c.what));
  return { controls: out, unreached: shown.filter((s) => !reached.has(s)) };
}

function cutOff({ controls, unreached }, width) {
  return [...unreached, ...controls.filter((c) => c.left < Math.max(0, c.bar[0]) - 0.5 || c.right > Math.min(width, c.bar[2]) + 0.5 ||
                                 c.top < c.bar[1] - 0.5 || c.bottom > c.bar[3] + 0.5).map((c) => c.what)];
}

test('at 640×400 (200% zoom) the toolbar\'s Fields shows the editor, and a field edited there is applied', T, async () => {
  const { page } = pg;
  assert.ok(!(await windows()).some((w) => /fields/.test(w)), 'the editor is drawn in the narrow layout from the start');
  const fields = page.locator('#show-fields');
  assert.ok(await fields.isVisible(), 'no Fields button in the narrow toolbar');
  await fields.focus();
  await page.keyboard.press('Enter');  // with the keyboard, as the toolbar's other buttons
  await waitFrames(page, 3);
  assert.equal(await fields.getAttribute('aria-pressed'), 'true');
  assert.ok((await windows()).some((w) => /fields/.test(w)), `no editor: ${await windows()}`);
  const before = JSON.parse(await call('muplay_get_spec')).schedule.steps;
  await typeInto(page, '##schedule.steps', String(before + 7), { window: 'fields' });
  assert.equal(JSON.parse(await call('muplay_get_spec')).schedule.steps, before + 7, 'the edit was not applied');
  await screenshot(page, 'zoom-200-fields');
  await fields.click();
  await waitFrames(page, 3);
  const shown = await windows();
  assert.ok(!shown.some((w) => /fields/.test(w)) && shown.some((w) => /right/.test(w)), `views not back: ${shown}`);
  const cut = cutOff(await tabbedControls(page), 640);
  assert.deepEqual(cut, [], 'toolbar controls out of reach at 640 px');
  await screenshot(page, 'zoom-200-views');
});

test('at 320×568 no toolbar control is cut off and every dialog fits', T, async () => {
  const { page } = pg;
  await page.setViewportSize({ width: 320, height: 568 });
  try {
    await waitFrames(page, 3);
    const controls = await tabbedControls(page);
    assert.ok(controls.controls.length >= 10, `${controls.controls.length} controls`);
    assert.deepEqual(cutOff(controls, 320), [], 'toolbar controls cut off at 320 px');
    for (const [button, dialog] of [['#open-share', '#share-dialog'], ['#open-saved', '#saved-dialog'],
                                    ['#open-help', '#help-dialog']]) {
      await page.locator(button).click();
      await page.waitForSelector(`${dialog}[open]`);  // Saved… reads this browser's storage first
      const fits = await page.evaluate((sel) => {
        const d = document.querySelector(sel), r = d.getBoundingClientRect();
        const wide = [...d.querySelectorAll('*')].filter((e) => e.getBoundingClientRect().right > r.right + 1 &&
                                                                 e.offsetParent !== null).map((e) => e.id || e.tagName);
        return { open: d.open, box: [r.left, r.top, r.right, r.bottom], sideways: d.scrollWidth > d.clientWidth + 1, wide };
      }, dialog);
      assert.ok(fits.open, `${dialog} did not open`);
      assert.ok(fits.box[0] >= 0 && fits.box[1] >= 0 && fits.box[2] <= 320 && fits.box[3] <= 568,
        `${dialog} runs past the window: ${fits.box}`);
      assert.ok(!fits.sideways, `${dialog} scrolls sideways`);
      assert.deepEqual(fits.wide, [], `${dialog}: content past its right edge`);
      await screenshot(page, `zoom-320-${dialog.slice(1)}`);
      await page.keyboard.press('Escape');
      await page.waitForFunction((sel) => !document.querySelector(sel).open, dialog);
    }
  } finally {
    await page.setViewportSize({ width: 640, height: 400 });
  }
  assert.deepEqual(pg.errors, []);
});

test('Ctrl + is left to the browser; Alt + / Alt 0 zoom the panels, remembered across a reload', T, async () => {
  const { page } = pg;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => {
    window.lastKey = null;  // after every listener of the page: whether one took the key from the browser
    window.addEventListener('keydown', (e) => { window.lastKey = { key: e.key, prevented: e.defaultPrevented }; });
  });
  await page.focus('#canvas');
  const zoom = async () => JSON.parse(await call('muplay_zooms')).page;
  const font = async () => (await drawn(page)).font_size;
  const start = { zoom: await zoom(), font: await font() };
  await press(page, 'Control+Equal');
  assert.deepEqual(await page.evaluate(() => window.lastKey), { key: '=', prevented: false }, 'the page took Ctrl +');
  assert.equal(await zoom(), start.zoom, 'Ctrl + zoomed the panels');
  await press(page, 'Control+Minus');
  assert.equal(await page.evaluate(() => window.lastKey.prevented), false, 'the page took Ctrl −');
  await press(page, 'Alt+Equal');
  await press(page, 'Alt+Equal');
  const zoomed = await zoom();
  assert.ok(zoomed > start.zoom, `Alt + left the zoom at ${zoomed}`);
  assert.ok(await font() > start.font, 'the panels\' font did not grow');
  await page.reload();
  await waitForPlayground(page);
  assert.equal(await zoom(), zoomed, 'the zoom was not remembered');
  await page.focus('#canvas');
  await press(page, 'Alt+Minus');
  assert.ok(await zoom() < zoomed, 'Alt − did not zoom out');
  await press(page, 'Alt+Digit0');
  assert.equal(await zoom(), 1, 'Alt 0 did not return to 1');
  assert.deepEqual(pg.errors, []);
});
