// Contrast (WCAG 2.1 AA), measured from the drawn pixels: after a short run of a sweep over widths (preset 01, the vs
// step view with its runs table), every line of text the canvas draws (the frame trace's glyph runs) is at least
// 4.5:1 against its background, every curve at least 3:1 against the plot's, and every checkbox's, button's and
// field's frame at least 3:1 against what surrounds it; the HTML toolbar's text (4.5:1) and control frames (3:1) too,
// from their computed styles; and the same text in Chinese. The background of a run of text is the most common colour
// in its rectangle, its text colour the pixel there of highest contrast against it. Prints the lowest ratios found.
// Screenshots: build/screenshots/contrast-*.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, runPreset, screenshot, waitFrames } from './harness.mjs';
import { decodePng } from './png.mjs';
import { drawn } from './ui_driver.mjs';

const T = { timeout: 300_000 };
let pg;
before(async () => {
  pg = await openPlayground({ viewport: { width: 1280, height: 800 } });
  await runPreset(pg.page, /01-sp-vs-mup-toy/, (s) => { s.schedule.steps = 20; });
  await pg.page.mouse.move(1, 1);  // no hover, no tooltip
  await waitFrames(pg.page, 4);
}, T);
after(async () => { await pg?.close(); });

const linear = (c) => { const v = c / 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
const luminance = ([r, g, b]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
export function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

// The screenshot's pixels with a reader: at(x, y) -> [r, g, b] (page CSS pixels: deviceScaleFactor 1).
async function pixels(name) {
  const png = decodePng(await screenshot(pg.page, name));
  const at = (x, y) => {
    const i = (Math.round(y) * png.width + Math.round(x)) * png.channels;
    return [png.data[i], png.data[i + 1], png.data[i + 2]];
  };
  return { at, width: png.width, height: png.height };
}

// Every pixel of a rectangle [x0, y0, x1, y1] inside the image.
function* region(img, [x0, y0, x1, y1]) {
  for (let y = Math.max(0, Math.ceil(y0)); y < Math.min(img.height, Math.floor(y1)); y++) {
    for (let x = Math.max(0, Math.ceil(x0)); x < Math.min(img.width, Math.floor(x1)); x++) yield img.at(x, y);
  }
}

function mostCommon(colours) {
  const counts = new Map();
  let best = null, most = 0;
  for (const c of colours) {
    const key = c.join(',');
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    if (n > most) { most = n; best = c; }
  }
  return best;
}

// The pixel of highest contrast against `background` among `colours`, and its ratio.
function strongest(colours, background) {
  let best = { ratio: 1, colour: background };
  for (const c of colours) {
    const ratio = contrast(c, background);
    if (ratio > best.ratio) best = { ratio, colour: c };
  }
  return best;
}

const intersect = (a, b) => [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
const area = (r) => Math.max(0, r[2] - r[0]) * Math.max(0, r[3] - r[1]);
const hex = (s) => [1, 3, 5].map((i) => parseInt(s.slice(i, i + 2), 16));
const lowest = (list) => list.reduce((a, b) => (b.ratio < a.ratio ? b : a), { ratio: Infinity });

// Each glyph run's background and text colour and their contrast (glyph runs are in canvas coordinates).
async function textContrasts(img, d) {
  const offset = await pg.page.evaluate(() => {
    const r = document.getElementById('canvas').getBoundingClientRect();
    return [r.left, r.top];
  });
  const found = [];
  for (const run of d.glyph_runs) {
    if (!run.text.trim()) continue;
    const shown = intersect(run.rect, run.clip).map((v, i) => v + offset[i % 2]);
    // Scrolled out of its box, or all but a sliver of it (a line half in view is read in full once scrolled).
    if (area(shown) < 20 || shown[3] - shown[1] < 0.6 * (run.rect[3] - run.rect[1])) continue;
    const colours = [...region(img, shown)];
    const background = mostCommon(colours);
    const text = strongest(colours, background);
    found.push({ what: `"${run.text}" in ${run.window}`, ratio: text.ratio, text: text.colour, background });
  }
  return found;
}

const report = (list) => list.map((f) => `${f.what}: ${f.ratio.toFixed(2)}:1`).join('\n  ');

test('every line of text drawn on the canvas is at least 4.5:1 against its background', T, async () => {
  const img = await pixels('contrast-vs-step');
  const runs = await textContrasts(img, await drawn(pg.page));
  assert.ok(runs.length > 40, `only ${runs.length} glyph runs`);
  const worst = [...runs].sort((a, b) => a.ratio - b.ratio).slice(0, 5);
  console.log(`text: ${runs.length} runs, lowest:\n  ${report(worst)}`);
  const failing = runs.filter((r) => r.ratio < 4.5);
  assert.deepEqual(failing.map((f) => `${f.what}: ${f.ratio.toFixed(2)}`), []);
});

test('every curve is at least 3:1 against its plot, every control frame at least 3:1 against its surround', T,
  async () => {
    const img = await pixels('contrast-curves');
    const d = await drawn(pg.page);
    const plot = d.plots.find((p) => p.curves.length >= 4);
    assert.ok(plot, 'no plot with several curves');
    const inner = [plot.frame[0] + 2, plot.frame[1] + 2, plot.frame[2] - 2, plot.frame[3] - 2];
    const frameColours = [...region(img, inner)];
    const background = mostCommon(frameColours);
    const curves = [];
    for (const c of plot.curves) {
      const want = hex(c.colour);
      // The curve's own pixels: those nearest its colour (its line's core is drawn in it exactly).
      const near = frameColours.filter((p) => Math.max(...p.map((v, i) => Math.abs(v - want[i]))) <= 6);
      assert.ok(near.length >= 5, `${c.name}: ${near.length} pixels of its colour ${c.colour} drawn`);
      curves.push({ what: `${c.name} (${c.colour})`, ratio: strongest(near, background).ratio });
    }
    console.log(`curves on ${background}: lowest ${report([lowest(curves)])}`);
    assert.deepEqual(curves.filter((c) => c.ratio < 3).map((c) => `${c.what}: ${c.ratio.toFixed(2)}`), []);

    // A control's frame: the strongest pixel of its left edge against the page just left of it.
    const frames = [];
    const named = /^(log x|log y|n=inf curve|Step \(S\)|Reset \(R\)|Run \(Space\))$/;
    const controls = d.items.filter((i) => i.visible && named.test(i.label));
    assert.ok(controls.length >= 5, `controls found: ${controls.map((c) => c.label)}`);
    for (const item of controls) {
      const [x0, y0, , y1] = item.rect;
      const outside = img.at(x0 - 3, (y0 + y1) / 2);
      const edge = [...region(img, [x0, y0 + 3, x0 + 2, y1 - 3])];
      frames.push({ what: item.label, ratio: strongest(edge, outside).ratio });
    }
    console.log(`control frames: lowest ${report([lowest(frames)])}`);
    assert.deepEqual(frames.filter((f) => f.ratio < 3).map((f) => `${f.what}: ${f.ratio.toFixed(2)}`), []);
  });

// Each shown control or text of `selector`: its text colour and background, its frame and what is around it.
function controlStyles(selector) {
  return pg.page.evaluate((sel) => {
    const rgb = (s) => s.match(/[\d.]+/g).map(Number);
    const backgroundOf = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c.length < 4 || c[3] > 0) return c.slice(0, 3);
      }
      return [255, 255, 255];
    };
    const out = [];
    for (const el of document.querySelectorAll(sel)) {
      const style = getComputedStyle(el);
      // A text field counts without text; a checkbox is the browser's own, black on white.
      const field = el.tagName === 'INPUT' && el.type === 'text';
      const shown = !el.disabled && el.offsetParent !== null && el.type !== 'checkbox';
      if (!shown || !field && !el.textContent.trim()) continue;
      const framed = style.borderLeftStyle !== 'none' && parseFloat(style.borderLeftWidth) > 0;
      out.push({ what: el.id || el.textContent.trim().slice(0, 30), text: rgb(style.color).slice(0, 3),
                 background: backgroundOf(el), border: framed ? rgb(style.borderLeftColor).slice(0, 3) : null,
                 around: backgroundOf(el.parentElement) });
    }
    return out;
  }, selector);
}

function checkControls(found, where) {
  const text = found.map((f) => ({ what: f.what, ratio: contrast(f.text, f.background) }));
  const frames = found.filter((f) => f.border).map((f) => ({ what: f.what, ratio: contrast(f.border, f.around) }));
  console.log(`${where}: lowest text ${report([lowest(text)])}; lowest frame ${report([lowest(frames)])}`);
  assert.deepEqual(text.filter((t) => t.ratio < 4.5).map((t) => `${where}: ${t.what}: ${t.ratio.toFixed(2)}`), []);
  assert.deepEqual(frames.filter((f) => f.ratio < 3).map((f) => `${where}: ${f.what}: ${f.ratio.toFixed(2)}`), []);
}

test('the toolbar\'s and the dialogs\' text is at least 4.5:1, their controls\' frames at least 3:1 (computed styles)',
  T, async () => {
    const bar = await controlStyles('#bar button, #bar summary, #bar select, #bar a, #bar span');
    assert.ok(bar.length >= 6, `toolbar controls: ${bar.map((f) => f.what)}`);
    checkControls(bar, 'toolbar');
    for (const [button, dialog] of [['#open-share', '#share-dialog'], ['#open-help', '#help-dialog']]) {
      await pg.page.click(button);
      try {
        const shown = ':is(button, input, select, textarea, a, label, p, dt, dd, td, h2, h3)';
        const found = await controlStyles(`${dialog} ${shown}`);
        assert.ok(found.length >= 5, `${dialog}: ${found.map((f) => f.what)}`);
        checkControls(found, dialog);
      } finally {
        await pg.page.keyboard.press('Escape');
        await pg.page.waitForFunction((sel) => !document.querySelector(sel).open, dialog);
      }
    }
  });

test('in Chinese too, every line of text is at least 4.5:1', T, async () => {
  const { page } = pg;
  await page.selectOption('#language', 'zh');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN' || document.documentElement.lang === 'zh');
  await waitFrames(page, 6);
  try {
    const d = await drawn(page);
    assert.ok(d.glyph_runs.some((r) => /[\u4e00-\u9fff]/.test(r.text)), 'no Chinese drawn');
    const runs = await textContrasts(await pixels('contrast-zh'), d);
    console.log(`text in Chinese: ${runs.length} runs, lowest ${report([lowest(runs)])}`);
    assert.deepEqual(runs.filter((r) => r.ratio < 4.5).map((f) => `${f.what}: ${f.ratio.toFixed(2)}`), []);
  } finally {
    await page.selectOption('#language', 'en');
  }
  assert.deepEqual(pg.errors, []);
});
