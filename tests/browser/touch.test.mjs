// A student's tablet: the page on a 1024×1366 touch screen, driven with touch only (taps, and swipes through CDP's
// Input.dispatchTouchEvent, a finger's start, moves and end). A tap acts on the first touch: it picks a preset, opens
// a view's tab and presses Run (Space). A swipe scrolls what is under the finger: the preset list down to its last
// preset (which a tap then loads and runs), and the fields; a lifted finger leaves no tooltip behind. Checked
// through the frame trace (web/draw/drawn.hpp).
// Screenshots: build/screenshots/touch-*.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, screenshot, waitFrames } from './harness.mjs';
import { centre, drawn } from './ui_driver.mjs';

const T = { timeout: 300_000 };
let pg, cdp;
before(async () => {
  pg = await openPlayground({ viewport: { width: 1024, height: 1366 }, hasTouch: true });
  cdp = await pg.context.newCDPSession(pg.page);
}, T);
after(async () => { await pg?.close(); });

const call = (name, ...args) => pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);
const windowNamed = async (part) => (await drawn(pg.page)).windows.filter((w) => w.name.includes(part)).at(-1);

async function tap(x, y) {
  await pg.page.touchscreen.tap(x, y);
  await waitFrames(pg.page, 4);
}

// A finger from (x, y) moved by dy in steps, then lifted.
async function swipe(x, y, dy, steps = 8) {
  const point = (k) => [{ x, y: y + (dy * k) / steps }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(0) });
  for (let k = 1; k <= steps; k++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(k) });
    await waitFrames(pg.page, 1);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await waitFrames(pg.page, 4);
}

// The widget labelled `label` in the window whose name includes `part`, drawn and in view.
async function visibleItem(label, part) {
  return (await drawn(pg.page)).items.find((i) => i.label === label && i.window.includes(part) && i.visible);
}

test('a tap acts on the first touch: a preset, a tab, Run', T, async () => {
  const presets = JSON.parse(await call('muplay_list_presets'));
  const target = presets.find((p) => /11-coord-check-sp/.test(p.path));
  const item = await visibleItem(target.name, 'presets');
  assert.ok(item, `${target.name} is not in view`);
  await tap(centre(item.rect).x, centre(item.rect).y);
  assert.equal(JSON.parse(await call('muplay_get_spec')).name, target.name, 'the first tap loads the preset');

  const tab = await visibleItem('vs step', '');
  await tap(centre(tab.rect).x, centre(tab.rect).y);
  assert.match(await call('muplay_view'), /^(step|)$/);  // vs step: the default view, written as none
  const run = await visibleItem('Run (Space)', '');
  await tap(centre(run.rect).x, centre(run.rect).y);
  await pg.page.waitForFunction(() => window.muplay.muplay_state() !== 'idle');
  await screenshot(pg.page, 'touch-first-taps');
  assert.deepEqual(pg.errors, []);
});

test('a swipe scrolls the preset list to its last preset, which a tap loads and runs; a swipe scrolls the fields', T,
  async () => {
    const presets = JSON.parse(await call('muplay_list_presets'));
    const last = presets.at(-1);
    let list = await windowNamed('presets');
    assert.ok(list.scroll_max_y > 0, 'the preset list has nothing to scroll at this size');
    const at = centre(list.rect);
    for (let i = 0; i < 20 && !(await visibleItem(last.name, 'presets')); i++) await swipe(at.x, at.y + 100, -250);
    list = await windowNamed('presets');
    assert.ok(list.scroll_y > 0, `the list did not scroll: ${JSON.stringify(list)}`);
    const item = await visibleItem(last.name, 'presets');
    assert.ok(item, `${last.name} never came into view`);
    // The lifted finger leaves no hover behind: no description tooltip over the panels.
    const tooltips = (await drawn(pg.page)).windows.filter((w) => w.name.startsWith('##Tooltip'));
    assert.deepEqual(tooltips.map((w) => w.name), []);
    await screenshot(pg.page, 'touch-list-scrolled');
    await tap(centre(item.rect).x, centre(item.rect).y);
    assert.equal(JSON.parse(await call('muplay_get_spec')).name, last.name);
    const run = await visibleItem('Run (Space)', '');
    await tap(centre(run.rect).x, centre(run.rect).y);
    await pg.page.waitForFunction(() => window.muplay.muplay_state() !== 'idle');
    await call('muplay_pause');

    const fields = await windowNamed('fields');
    const before = fields.scroll_y;
    assert.ok(fields.scroll_max_y > 0, 'the fields have nothing to scroll');
    await swipe(centre(fields.rect).x, centre(fields.rect).y + 80, -200);
    assert.ok((await windowNamed('fields')).scroll_y > before, 'a swipe over the fields did not scroll them');
    await screenshot(pg.page, 'touch-fields-scrolled');
    assert.deepEqual(pg.errors, []);
  });
