// Every view tab at the two sizes a lecture is shown at (1280×800, and 1024×768: a common projector), each with a
// preset that fills it, reached with the mouse (the tab clicked by its label). What each tab is for must be drawn
// (checked through the frame trace, web/draw/drawn.hpp), and a screenshot of each lands in
// build/screenshots/tab-<tab>-<width>x<height>.png to be looked at.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, runPreset, screenshot, waitFrames } from './harness.mjs';
import { TABS } from './tab_presets.mjs';
import { click, drawn } from './ui_driver.mjs';

const T = { timeout: 900_000 };
const SIZES = [{ width: 1280, height: 800 }, { width: 1024, height: 768 }];
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

for (const { tab, preset, edit, shows } of TABS) {
  test(`the ${tab} tab draws what it is for at both sizes`, T, async () => {
    await pg.page.setViewportSize(SIZES[0]);
    await waitFrames(pg.page, 2);
    await runPreset(pg.page, preset, edit);
    for (const size of SIZES) {
      await pg.page.setViewportSize(size);
      await waitFrames(pg.page, 3);
      await click(pg.page, tab, { window: 'right' });  // the spec editor has a field named 'anchor'
      await waitFrames(pg.page, 3);
      const d = await drawn(pg.page);
      const name = `tab-${tab.replace(/ /g, '-').toLowerCase()}-${size.width}x${size.height}`;
      await screenshot(pg.page, name);
      assert.ok(shows(d), `${name}: the ${tab} tab does not draw what it is for`);
      // The whole page fits the window: no panel reaches past its bottom or right edge.
      for (const w of d.windows.filter((w) => !w.name.includes('##'))) {
        assert.ok(w.rect[2] <= size.width + 0.5 && w.rect[3] <= size.height + 0.5, `${name}: ${w.name} ${w.rect}`);
      }
    }
    assert.deepEqual(pg.errors, []);
  });
}
