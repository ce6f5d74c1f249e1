// A phone held upright: the page at 390×844 on a touch screen. The preset list and the editor fold away, so the view
// keeps the width: no widget runs past the canvas' right edge. The toolbar's preset menu (web/js/narrow.js) picks the
// last preset; a tap on Run (Space) trains it and its figure is drawn with curves; the toolbar scrolls sideways to
// reach its other buttons. A link opened on a phone names its preset in the menu, and the menu follows a preset loaded
// another way. At 1024 px the same page keeps its list and shows no menu. Checked through the frame trace
// (web/draw/drawn.hpp) and the toolbar's DOM. Screenshots: build/screenshots/phone-*.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, screenshot, waitFrames } from './harness.mjs';
import { centre, drawn } from './ui_driver.mjs';

const T = { timeout: 300_000 };
const PHONE = { width: 390, height: 844 };
let pg;
before(async () => { pg = await openPlayground({ viewport: PHONE, hasTouch: true }); }, T);
after(async () => { await pg?.close(); });

const call = (name, ...args) => pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);

test('on a phone the list folds away, the preset menu loads the last preset, a tap runs it and its figure draws', T,
  async () => {
    let d = await drawn(pg.page);
    assert.equal(d.windows.filter((w) => /presets|fields/.test(w.name)).length, 0,
      `the list or the editor is still drawn: ${d.windows.map((w) => w.name).join(', ')}`);
    const clipped = d.items.filter((i) => i.visible && i.rect[2] > PHONE.width + 0.5);
    assert.deepEqual(clipped.map((i) => i.label), [], 'widgets run past the canvas');

    const menu = pg.page.locator('#preset-menu');
    assert.ok(await menu.isVisible(), 'the toolbar shows no preset menu');
    const box = await menu.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `the preset menu is off screen: ${JSON.stringify(box)}`);
    const presets = JSON.parse(await call('muplay_list_presets'));
    const last = presets.at(-1);
    await menu.selectOption({ label: last.name });
    await waitFrames(pg.page, 3);
    assert.equal(JSON.parse(await call('muplay_get_spec')).name, last.name, 'the menu did not load the preset');

    d = await drawn(pg.page);
    const run = d.items.find((i) => i.label === 'Run (Space)' && i.visible);
    assert.ok(run, 'Run (Space) is not in view');
    await pg.page.touchscreen.tap(centre(run.rect).x, centre(run.rect).y);
    await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 240_000 });
    await waitFrames(pg.page, 3);
    d = await drawn(pg.page);
    const figure = d.plots.find((p) => p.curves.length > 0 || p.markers > 0);
    assert.ok(figure, `no figure with data after the run: ${d.plots.map((p) => p.title).join(', ')}`);
    assert.ok(figure.frame[2] <= PHONE.width + 0.5, `the figure runs past the canvas: ${figure.frame}`);
    assert.ok(figure.frame[2] - figure.frame[0] > PHONE.width / 2, `the figure is narrow: ${figure.frame}`);
    await screenshot(pg.page, 'phone-figure');

    // The toolbar's other buttons are a sideways swipe away: it scrolls, and Help is at its end.
    const bar = await pg.page.evaluate(() => {
      const b = document.getElementById('bar');
      b.scrollLeft = b.scrollWidth;
      const help = document.getElementById('open-help').getBoundingClientRect();
      return { scrolls: b.scrollWidth > b.clientWidth, helpRight: help.right };
    });
    assert.ok(bar.scrolls, 'the toolbar does not scroll');
    assert.ok(bar.helpRight <= PHONE.width + 0.5, `Help is not reachable: ${bar.helpRight}`);
    assert.deepEqual(pg.errors, []);
  });

test('a link opened on a phone names its preset in the menu; the menu follows a preset loaded otherwise', T, async () => {
  const presets = JSON.parse(await call('muplay_list_presets'));
  const index = presets.findIndex((p) => p.path.includes('27-edge-of-stability'));
  assert.ok(index >= 0 && await call('muplay_load_preset', index));
  const link = await call('muplay_share_link');
  const phone = await openPlayground({ viewport: PHONE, hasTouch: true, suffix: `#${link}` });
  try {
    const shown = () => phone.page.$eval('#preset-menu', (menu) => menu.selectedOptions[0]?.text);
    await phone.page.waitForFunction((name) => document.getElementById('preset-menu').selectedOptions[0]?.text === name,
      presets[index].name).catch(() => {});
    assert.equal(await shown(), presets[index].name, 'the menu does not name the link\'s preset');
    await phone.page.evaluate(() => window.muplay.muplay_load_preset(0));
    await waitFrames(phone.page, 3);
    assert.equal(await shown(), presets[0].name, 'the menu did not follow the preset loaded');
    await screenshot(phone.page, 'phone-link-preset');
    assert.deepEqual(phone.errors, []);
  } finally {
    await phone.close();
  }
});

test('a wider screen keeps the list and shows no preset menu', T, async () => {
  await pg.page.setViewportSize({ width: 1024, height: 768 });
  await waitFrames(pg.page, 4);
  const d = await drawn(pg.page);
  assert.ok(d.windows.some((w) => w.name.includes('presets')), 'the preset list did not come back');
  assert.equal(await pg.page.locator('#preset-menu').isVisible(), false);
  await screenshot(pg.page, 'phone-turned-wide');
});
