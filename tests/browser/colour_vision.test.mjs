// Colour is never the only cue: each series of a plot differs from its neighbours in line pattern or marker, read
// from the frame trace (web/draw/drawn.hpp: each curve's dash and marker), in the vs learning rate view of preset 14
// (a curve per width) and in its vs step view (a width's pattern, a learning rate's marker); and the figure under
// deuteranopia, protanopia and achromatopsia (Chromium's Emulation.setEmulatedVisionDeficiency), saved as
// build/screenshots/colour-vision-*.png to be looked at, with the greys of the width's colours printed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, runPreset, screenshot, waitFrames } from './harness.mjs';
import { click, drawn, findItem } from './ui_driver.mjs';

const T = { timeout: 300_000 };
let pg;
before(async () => {
  pg = await openPlayground({ viewport: { width: 1280, height: 800 } });
  await runPreset(pg.page, /14-lr-transfer-toy-mup/, (s) => {
    s.schedule.steps = 10;
    s.sweep.lr = s.sweep.lr.slice(2, 6);
  });
  await pg.page.mouse.move(1, 1);
}, T);
after(async () => { await pg?.close(); });

// The series' curves of the plot whose title matches (η* dots and parabolas, one point or no legend row, left out).
async function seriesOf(title) {
  const d = await drawn(pg.page);
  const plot = d.plots.find((p) => title.test(p.title));
  assert.ok(plot, `no plot titled ${title}: ${d.plots.map((p) => p.title)}`);
  return plot.curves.filter((c) => c.points > 1 && !/parabola/.test(c.name));
}

function sameLooks(curves) {
  const found = [];
  for (let i = 1; i < curves.length; i++) {
    const [a, b] = [curves[i - 1], curves[i]];
    if (a.dash === b.dash && a.marker === b.marker) found.push(`${a.name} and ${b.name}: both ${a.dash}, ${a.marker}`);
  }
  return found;
}

test('vs learning rate: each width\'s curve differs from the next in line pattern and marker', T, async () => {
  await click(pg.page, 'vs learning rate');
  await waitFrames(pg.page, 4);
  const curves = await seriesOf(/vs learning rate/);
  assert.equal(curves.length, 4, curves.map((c) => c.name).join(', '));
  console.log(curves.map((c) => `${c.name}: ${c.colour} ${c.dash} ${c.marker}`).join('\n'));
  assert.deepEqual(sameLooks(curves), []);
  assert.equal(new Set(curves.map((c) => `${c.dash}/${c.marker}`)).size, curves.length, 'two widths look alike');
});

test('vs step: a width\'s curves share a pattern, a learning rate\'s a marker, and neighbours differ', T, async () => {
  await click(pg.page, 'vs step');
  await waitFrames(pg.page, 4);
  const curves = await seriesOf(/vs step/);
  assert.equal(curves.length, 16, `${curves.length} curves`);
  const width = (c) => c.name.match(/n=(\d+)/)[1], lr = (c) => c.name.match(/lr=([\d.e-]+)/)[1];
  const byWidth = new Map(), byLr = new Map();
  for (const c of curves) {
    byWidth.set(width(c), new Set([...(byWidth.get(width(c)) ?? []), c.dash]));
    byLr.set(lr(c), new Set([...(byLr.get(lr(c)) ?? []), c.marker]));
  }
  for (const [w, dashes] of byWidth) assert.equal(dashes.size, 1, `n=${w}: ${[...dashes]}`);
  for (const [l, markers] of byLr) assert.equal(markers.size, 1, `lr=${l}: ${[...markers]}`);
  const dashes = [...byWidth.values()].map((s) => [...s][0]);
  for (let i = 1; i < dashes.length; i++) assert.notEqual(dashes[i], dashes[i - 1], `widths ${i - 1} and ${i}`);
  const markers = [...byLr.values()].map((s) => [...s][0]);
  for (let i = 1; i < markers.length; i++) assert.notEqual(markers[i], markers[i - 1], `rates ${i - 1} and ${i}`);
});

test('the figure under deuteranopia, protanopia and achromatopsia (screenshots)', T, async () => {
  const { page } = pg;
  await click(page, 'vs learning rate');
  await waitFrames(page, 4);
  const curves = await seriesOf(/vs learning rate/);
  // The widths' greys under achromatopsia: their luminance, apart by more than the eye's step between neighbours.
  const linear = (c) => { const v = c / 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const grey = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))
    .reduce((sum, c, i) => sum + [0.2126, 0.7152, 0.0722][i] * linear(c), 0);
  const greys = curves.map((c) => grey(c.colour));
  console.log(`greys of the widths: ${greys.map((g) => g.toFixed(3)).join(', ')}`);
  for (let i = 1; i < greys.length; i++) {
    assert.ok(Math.abs(greys[i] - greys[i - 1]) > 0.02, `widths ${i - 1} and ${i} are one grey: ${greys}`);
  }
  const cdp = await page.context().newCDPSession(page);
  try {
    for (const type of ['deuteranopia', 'protanopia', 'achromatopsia']) {
      await cdp.send('Emulation.setEmulatedVisionDeficiency', { type });
      await waitFrames(page, 2);
      await screenshot(page, `colour-vision-${type}`);
    }
  } finally {
    await cdp.send('Emulation.setEmulatedVisionDeficiency', { type: 'none' });
  }
  await findItem(page, 'vs learning rate');
  assert.deepEqual(pg.errors, []);
});
