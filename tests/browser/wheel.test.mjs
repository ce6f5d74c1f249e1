// The mouse wheel scrolls the panel under the mouse by a few lines a notch, in the direction of the wheel (web/main.cpp
// wheel_callback). Emscripten's GLFW passed the raw pixel delta with the DOM's sign: three notches down did nothing,
// one up jumped to the end. Screenshot: build/screenshots/wheel-left-column.png (the presets list 3 notches down).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, screenshot, waitFrames } from './harness.mjs';
import { centre, drawn } from './ui_driver.mjs';

const T = { timeout: 600_000 };
let pg;
// The centre of the presets list, in the left column, and how far ImGui scrolls a notch: five times its font's size
// (less in a window shorter than 7.5 lines, which the list is not), both read from the page.
let PRESETS, NOTCH;
before(async () => {
  pg = await openPlayground();
  const d = await drawn(pg.page);
  PRESETS = centre(d.windows.find((w) => /\/left_[0-9A-F]+\/presets_[0-9A-F]+$/.test(w.name)).rect);
  NOTCH = 5 * d.font_size;
}, T);
after(async () => { await pg?.close(); });

const scroll = async () => JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_hovered_scroll()));

// Turns the wheel `notches` notches (negative: up) as Chromium reports a mouse wheel: 100 pixels each.
async function wheel(notches) {
  for (let i = 0; i < Math.abs(notches); i++) {
    await pg.page.mouse.wheel(0, Math.sign(notches) * 100);
    await waitFrames(pg.page, 1);
  }
  await waitFrames(pg.page, 2);
}

test('the wheel scrolls the presets list a few lines a notch, both ways', T, async () => {
  await pg.page.mouse.move(PRESETS.x, PRESETS.y);
  await waitFrames(pg.page, 2);
  const top = await scroll();
  assert.match(top.window, /presets/);
  assert.equal(top.y, 0);
  assert.ok(top.max_y > 5 * NOTCH, `the presets list has room to scroll: ${JSON.stringify(top)}`);

  await wheel(3);
  await screenshot(pg.page, 'wheel-left-column');
  assert.equal((await scroll()).y, 3 * NOTCH, 'three notches down: 15 lines down, not the end');
  await wheel(-1);
  assert.equal((await scroll()).y, 2 * NOTCH, 'one notch up: back 5 lines, not a jump to the end');
  await wheel(-5);
  assert.equal((await scroll()).y, 0, 'more notches up than down: back at the top');
  assert.deepEqual(pg.errors, []);
});

// ImGui keeps its scroll in whole pixels, dropping the fraction each frame: up to a pixel a frame is lost.
test('a trackpad\'s small deltas add up: ten of 10 pixels scroll about as far as one notch', T, async () => {
  await pg.page.mouse.move(PRESETS.x, PRESETS.y);
  const before = (await scroll()).y;
  for (let i = 0; i < 10; i++) {
    await pg.page.mouse.wheel(0, 10);
    await waitFrames(pg.page, 1);
  }
  await waitFrames(pg.page, 2);
  const moved = (await scroll()).y - before;
  assert.ok(moved >= NOTCH - 10 && moved <= NOTCH, `moved ${moved} px`);
});

// Firefox reports a mouse wheel in lines (deltaMode 1, 3 a notch). Chromium's input never does, so this one event is
// made by the page.
test('a wheel event in lines (Firefox) scrolls a notch per 3 lines', T, async () => {
  await pg.page.mouse.move(PRESETS.x, PRESETS.y);
  const before = (await scroll()).y;
  await pg.page.evaluate(({ x, y }) => document.getElementById('canvas').dispatchEvent(
    new WheelEvent('wheel', { deltaY: 6, deltaMode: WheelEvent.DOM_DELTA_LINE, clientX: x, clientY: y, bubbles: true })), PRESETS);
  await waitFrames(pg.page, 3);
  assert.equal((await scroll()).y - before, 2 * NOTCH);
  assert.deepEqual(pg.errors, []);
});
