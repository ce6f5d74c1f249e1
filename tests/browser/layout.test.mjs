// The page's layout at a projector's 1024 × 768 and at 1280 × 800 (web/app/ui.cpp draw_ui): the presets list and the spec
// editor share the left column, each with room, the spec editor's Fields tab and first fields in sight without
// scrolling; splitters dragged with the mouse move the boundaries; a problem typed into a field is shown wrapped inside
// the left column without moving the field; Run on an invalid spec names the field and its fix, and no run reads
// "running". Everything is read from the page's frame trace (web/draw/drawn.hpp). Screenshots:
// build/screenshots/layout-1024x768.png, layout-1280x800.png, layout-SIZE-TAB.png (each tab of the right column),
// layout-dragged.png, layout-invalid-run.png.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPlayground, screenshot, waitFrames } from './harness.mjs';
import { centre, click, drawn, findItem, inside, press, typeInto } from './ui_driver.mjs';

const T = { timeout: 600_000 };
const SIZES = [{ width: 1024, height: 768 }, { width: 1280, height: 800 }];

// A panel of the last frame by its name (ImGui names a child window "parent/name_ID").
function panel(d, name) {
  const found = d.windows.find((w) => new RegExp(`/${name}_[0-9A-F]+$`).test(w.name));
  assert.ok(found, `panel ${name} drawn: ${d.windows.map((w) => w.name).join(', ')}`);
  return found;
}
const height = (r) => r[3] - r[1];
const width = (r) => r[2] - r[0];

// Presses at the centre of the widget, moves the mouse by (dx, dy) in a few steps, a frame apart, and lets go.
async function drag(page, item, dx, dy) {
  const c = centre(item.rect);
  await page.mouse.move(c.x, c.y);
  await waitFrames(page, 2);
  await page.mouse.down();
  await waitFrames(page, 2);
  for (const f of [0.25, 0.5, 0.75, 1]) {
    await page.mouse.move(c.x + f * dx, c.y + f * dy);
    await waitFrames(page, 1);
  }
  await page.mouse.up();
  await waitFrames(page, 3);
}

for (const viewport of SIZES) {
  const size = `${viewport.width}x${viewport.height}`;
  test(`at ${size} the panels fit the window; the spec editor's first fields show without scrolling`, T, async () => {
    const pg = await openPlayground({ viewport });
    try {
      const d = await drawn(pg.page);
      await screenshot(pg.page, `layout-${size}`);
      const canvas = d.windows.find((w) => !w.name.includes('/')).rect;
      const names = ['left', 'right', 'presets', 'spec', 'fields'];
      const [left, right, presets, spec, fields] = names.map((n) => panel(d, n));
      for (const w of [left, right, presets, spec, fields]) assert.ok(inside(w.rect, canvas), `${w.name} in the page`);
      assert.ok(left.rect[2] <= right.rect[0], 'the columns do not overlap');
      assert.ok(presets.rect[3] <= spec.rect[1], 'the presets list is above the spec editor');
      // Each a usable share: several presets, and a dozen lines of spec editor.
      assert.ok(height(presets.rect) >= 6 * d.font_size, `presets ${height(presets.rect)} px tall`);
      assert.ok(height(fields.rect) >= 10 * d.font_size, `fields ${height(fields.rect)} px tall`);
      assert.equal(fields.scroll_y, 0);
      const tab = d.items.find((i) => i.label === 'Fields');
      assert.ok(tab?.visible && inside(tab.rect, spec.rect), `the Fields tab shows: ${JSON.stringify(tab)}`);
      for (const id of ['##version', '##name', '##description', '##model.widths']) {
        const item = d.items.find((i) => i.id === id);
        assert.ok(item?.visible && inside(item.rect, fields.rect), `${id} shows: ${JSON.stringify(item)}`);
      }
      // Every tab of the right column whole and in sight, clicked with the mouse (screenshots of each).
      const row = d.items.find((t) => t.label === 'vs step').rect[1];
      const tabs = d.items.filter((i) => i.window === right.name && i.rect[1] === row);
      assert.ok(tabs.length >= 7, tabs.map((t) => t.label).join(', '));
      for (const tab of tabs) {
        assert.ok(inside(tab.rect, right.rect), `tab ${tab.label} inside the right column`);
        await click(pg.page, tab.label, { window: 'right' });
        await screenshot(pg.page, `layout-${size}-${tab.label.replaceAll(' ', '-')}`);
      }
      assert.deepEqual(pg.errors, []);
    } finally {
      await pg.close();
    }
  });
}

test('the splitters, dragged with the mouse, move the columns and the presets/spec boundary', T, async () => {
  const pg = await openPlayground({ viewport: SIZES[0] });
  try {
    const before = await drawn(pg.page);
    await drag(pg.page, await findItem(pg.page, '##columns splitter'), 120, 0);
    await drag(pg.page, await findItem(pg.page, '##presets splitter'), 0, 90);
    const after = await drawn(pg.page);
    await screenshot(pg.page, 'layout-dragged');
    const moved = (name, edge) => panel(after, name).rect[edge] - panel(before, name).rect[edge];
    assert.ok(Math.abs(moved('left', 2) - 120) <= 2, `left column's right edge moved ${moved('left', 2)} px`);
    assert.ok(Math.abs(moved('right', 0) - 120) <= 2, `right column's left edge moved ${moved('right', 0)} px`);
    assert.ok(Math.abs(moved('presets', 3) - 90) <= 2, `presets list's bottom moved ${moved('presets', 3)} px`);
    assert.ok(Math.abs(moved('spec', 1) - 90) <= 2, `spec editor's top moved ${moved('spec', 1)} px`);
    assert.ok(width(panel(after, 'right').rect) >= 300, 'the right column keeps room');
    assert.deepEqual(pg.errors, []);
  } finally {
    await pg.close();
  }
});

test('an invalid value is shown wrapped under its field, which stays put; Run then names the field and stops', T,
  async () => {
    const pg = await openPlayground({ viewport: SIZES[0] });
    try {
      const { page } = pg;
      // Some training first, paused: these runs are of the last valid spec.
      await click(page, 'Run (Space)');
      await page.waitForFunction(() => window.muplay.muplay_total_steps() > 0);
      await click(page, 'Pause (Space)');
      assert.equal(await page.evaluate(() => window.muplay.muplay_state()), 'paused');

      const field = await findItem(page, '##model.widths');
      await typeInto(page, '##model.widths', '0, 64');
      const errors = JSON.parse(await page.evaluate(() => window.muplay.muplay_get_errors())).spec;
      assert.match(errors[0], /^model\.widths\[0\]: 0 is not in \[1, /);
      const d = await drawn(page);
      assert.deepEqual(d.items.find((i) => i.id === '##model.widths').rect, field.rect, 'the field did not move');
      const shown = d.text_rects.find((t) => t.text.startsWith('field error: '));
      assert.ok(shown, `the error is drawn: ${JSON.stringify(d.text_rects)}`);
      assert.equal(shown.text, `field error: ${errors[0]}`, 'the whole error, not cut');
      assert.ok(inside(shown.rect, panel(d, 'left').rect) && inside(shown.rect, panel(d, 'fields').rect),
        `the error ${JSON.stringify(shown.rect)} lies inside the left column's fields`);
      assert.ok(height(shown.rect) >= 1.8 * d.font_size, 'it wraps onto a second line rather than leaving its cell');
      assert.ok(shown.rect[1] >= field.rect[3], 'under its field');

      await press(page, 'Space');  // Run
      const ran = await drawn(page);
      await screenshot(page, 'layout-invalid-run');
      assert.notEqual(await page.evaluate(() => window.muplay.muplay_state()), 'running');
      const message = ran.text_rects.find((t) => t.text.startsWith('message: '));
      assert.ok(message, `Run says why nothing started: ${JSON.stringify(ran.texts)}`);
      assert.ok(message.text.includes(errors[0]), message.text);
      assert.match(message.text, /Change model\.widths\[0\] in the spec editor/);
      assert.ok(inside(message.rect, ran.windows.find((w) => !w.name.includes('/')).rect), 'the message fits the page');
      const runs = ran.texts.filter((t) => t.startsWith('run: '));
      assert.ok(runs.length > 0, 'the old runs are still listed');
      assert.deepEqual(runs.filter((t) => t.endsWith(': running')), [], 'no run reads "running"');
      // Workers train shards and Pause reaches them a message later, so a short run may have finished meanwhile.
      assert.ok(runs.every((t) => t.endsWith(': paused') || t.endsWith(': finished')), runs.join('; '));
      assert.ok(runs.some((t) => t.endsWith(': paused')), `some run is still paused: ${runs.join('; ')}`);
      assert.ok(ran.texts.some((t) => t.startsWith('status: paused')), 'the status bar says paused');
      assert.deepEqual(pg.errors, []);
    } finally {
      await pg.close();
    }
  });
