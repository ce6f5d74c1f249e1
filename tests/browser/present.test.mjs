// Presenting, at a projector's 1024×768 and a laptop's 1280×800: the toolbar's Present folds the list and the editor
// away and enlarges everything, so the figure fills the canvas and its text reads from the back of the room (the
// 15-px font at 1.75: 26 px, so tick labels are at least 24 px high); nothing is cut off. P and Esc switch from the
// keyboard; Alt + zooms presenting further, and the browser remembers it; the grey n=inf hint above vs step shrinks
// to one line. Checked through the frame trace (in CSS pixels). Screenshots: build/screenshots/present-*.png.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPlayground, runPreset, screenshot, waitForPlayground, waitFrames } from './harness.mjs';
import { drawn, inside, press } from './ui_driver.mjs';

const T = { timeout: 300_000 };
const area = (r) => Math.max(0, r[2] - r[0]) * Math.max(0, r[3] - r[1]);

async function canvasRect(page) {
  return page.evaluate(() => {
    const r = document.getElementById('canvas').getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  });
}

// The figure: the largest plot drawn.
const figure = (d) => d.plots.reduce((a, b) => (area(b.rect) > area(a.rect) ? b : a));

for (const viewport of [{ width: 1024, height: 768 }, { width: 1280, height: 800 }]) {
  const size = `${viewport.width}x${viewport.height}`;
  test(`presenting at ${size}: the figure fills the canvas, its text 24 px or more, nothing cut off`, T, async () => {
    const pg = await openPlayground({ viewport });
    try {
      const { page } = pg;
      await runPreset(page, /10-coord-check-mup/, () => {});
      const before = await drawn(page);
      await page.click('#present');
      await waitFrames(page, 4);
      const d = await drawn(page);
      await screenshot(page, `present-${size}`);
      const canvas = await canvasRect(page);
      const plot = figure(d);
      const share = area(plot.rect) / area(canvas);
      console.log(`${size}: font ${before.font_size} -> ${d.font_size} px; the figure ${(100 * share).toFixed(0)}% ` +
                  `of the canvas (${(100 * area(figure(before).rect) / area(canvas)).toFixed(0)}% before)`);
      assert.ok(d.font_size >= 24, `tick labels ${d.font_size} px high`);
      assert.ok(share >= 0.5, `the figure takes ${share} of the canvas`);
      assert.ok(!d.windows.some((w) => /\/presets_|\/fields_/.test(w.name)), 'the list and the editor are folded away');
      assert.ok(plot.x.ticks.length >= 2 && plot.y.ticks.length >= 2, JSON.stringify([plot.x.ticks, plot.y.ticks]));
      assert.ok(inside(plot.rect, canvas), `the figure ${plot.rect} leaves the canvas ${canvas}`);
      // Every legend row starts inside the legend, and no control runs off the canvas (rows of controls wrap).
      for (const item of d.items.filter((i) => i.window.includes('##legend'))) {
        const start = [item.rect[0], item.rect[1], item.rect[0] + 1, item.rect[3]];
        assert.ok(item.visible && inside(start, plot.legend_rect), `legend row ${item.label} cut off`);
      }
      for (const item of d.items.filter((i) => i.visible && i.label && !i.window.includes('##legend'))) {
        assert.ok(item.rect[2] <= canvas[2] + 0.5, `${item.label} runs off the canvas: ${item.rect} vs ${canvas}`);
      }
      assert.equal(await page.getAttribute('#present', 'aria-pressed'), 'true');
      assert.equal(await page.isVisible('#export-menu'), false, 'the toolbar keeps Present alone');

      await page.focus('#canvas');
      await press(page, 'Escape');
      assert.equal((await drawn(page)).font_size, before.font_size, 'Esc stops presenting');
      await press(page, 'p');
      assert.equal((await drawn(page)).font_size, d.font_size, 'P presents again');
      assert.deepEqual(pg.errors, []);
    } finally {
      await pg.close();
    }
  });
}

test('Alt + zooms presenting further; the browser remembers it', T, async () => {
  const pg = await openPlayground({ viewport: { width: 1280, height: 800 } });
  try {
    const { page } = pg;
    await page.focus('#canvas');
    await press(page, 'p');
    const first = (await drawn(page)).font_size;
    await press(page, 'Alt+Equal');
    const zoomed = (await drawn(page)).font_size;
    assert.ok(zoomed > first, `${first} -> ${zoomed}`);
    await screenshot(page, 'present-zoomed');
    await page.reload();
    await waitForPlayground(page);
    await page.focus('#canvas');
    await press(page, 'p');
    assert.equal((await drawn(page)).font_size, zoomed, 'the zoom is remembered');
    await press(page, 'Alt+Digit0');
    assert.equal((await drawn(page)).font_size, first, 'Alt 0: the zoom presenting starts with');
    assert.deepEqual(pg.errors, []);
  } finally {
    await pg.close();
  }
});

test('presenting, the n=inf hint above vs step is one short line (its reason under the mouse)', T, async () => {
  const pg = await openPlayground({ viewport: { width: 1024, height: 768 } });
  try {
    const { page } = pg;
    await runPreset(page, /01-sp-vs-mup-toy/, (s) => { s.schedule.steps = 20; });
    const hints = async () => (await drawn(page)).texts.filter((t) => t.startsWith('hint: (no n=inf curve'));
    assert.equal((await hints()).length, 1, 'the page explains the missing n=inf curve');
    await page.click('#present');
    await waitFrames(page, 4);
    assert.deepEqual(await hints(), [], 'presenting keeps the three-line hint');
    await screenshot(page, 'present-no-hint');
    await page.click('#present');
    assert.deepEqual(pg.errors, []);
  } finally {
    await pg.close();
  }
});
