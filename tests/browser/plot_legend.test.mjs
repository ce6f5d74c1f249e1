// The legend of a 28-run sweep (7 widths × 2 learning rates × 2 seeds) at 1024 x 768, a common projector (issue:
// "Legends cover the plot"): it sits beside the plot or under it, never over the data frame; it lists each width and
// each learning rate once, every row in view; a click on a row hides its runs, a second click shows them, and
// Ctrl+click shows a row's runs alone; the trace (web/draw/drawn.hpp) says which rows are hidden, and the hover read-out
// leaves hidden runs out and names at most the 8 curves nearest the pointer (so it does not cover the plot). All
// through real mouse and keyboard input. Screenshots: build/screenshots/plot-legend-*.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { clickImGui, openPlayground, runPreset, screenshot, waitFrames } from './harness.mjs';
import { centre, click, drawn, findItem, hover, inside, plots } from './ui_driver.mjs';

const T = { timeout: 600_000 };
const WIDTHS = [8, 16, 32, 64, 128, 256, 512];
const LRS = [0.0625, 0.5];
let pg;
const runSweep = () => runPreset(pg.page, /14-lr-transfer-toy-sp/, (s) => {
  s.schedule.steps = 10;
  s.sweep.width = WIDTHS;
  s.sweep.lr = LRS;
  s.sweep.seeds = [0, 1];
});
before(async () => {
  pg = await openPlayground({ viewport: { width: 1024, height: 768 } });
  await runSweep();
}, T);
after(async () => { await pg?.close(); });

const stepPlot = async () => (await plots(pg.page, /vs step/))[0];
// A legend row's label: its key, then what the row adds ("lr=0.5  2 of 14 diverged").
const row = (key) => new RegExp(`^${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(  |$)`);
const overlap = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
// The panel that holds a plot: the window whose name the plot's own child window (named by its id) extends.
function panelOf(d, plot) {
  const own = d.windows.find((w) => w.name.includes(`/${plot.id}_`));
  return d.windows.find((w) => own.name.startsWith(`${w.name}/`) && !w.name.includes('/##'));
}
// The drawn item of each legend row, in the legend's order (undefined where a row is not in view). Rows of two sets
// share labels ("n=8" on the page and in an import): the k-th row with a label is the k-th item drawn with it.
function legendItems(d, plot) {
  const items = d.items.filter((i) => i.window.includes(`${plot.id}##legend`) && i.visible);
  const used = new Set();
  return plot.legend.map((text) => {
    const item = items.find((i) => i.label === text && !used.has(i));
    if (item) used.add(item);
    return item;
  });
}
// The legend's rows read down its first column, then down the next (a legend under a narrow plot has several): the
// curve rows, in the legend's order, never step back to a column to the left, and go down within a column. Returns
// how many columns the rows fill.
function assertReadsDownColumns(d, plot) {
  const order = legendItems(d, plot).filter(Boolean);
  const columns = [...new Set(order.map((i) => Math.round(i.rect[0])))].sort((a, b) => a - b);
  for (let k = 1; k < order.length; k++) {
    const [a, b] = [order[k - 1].rect, order[k].rect];
    const sameColumn = Math.round(a[0]) === Math.round(b[0]);
    assert.ok(sameColumn ? b[1] > a[1] : b[0] > a[0], `${plot.title}: "${order[k].label}" comes before `
      + `"${order[k - 1].label}" in reading order (${a} then ${b})`);
  }
  if (order.length) assert.equal(Math.round(order[0].rect[0]), columns[0], `${plot.title}: the first row is not left`);
  return columns.length;
}
const middle = (plot) => ({ x: (plot.frame[0] + plot.frame[2]) / 2, y: (plot.frame[1] + plot.frame[3]) / 2 });

// Ctrl+click on the legend row labelled `label`: the key goes down a frame before the click and up after it.
async function ctrlClick(key) {
  const item = await findItem(pg.page, row(key));
  await pg.page.keyboard.down('Control');
  await waitFrames(pg.page, 2);
  await clickImGui(pg.page, centre(item.rect).x, centre(item.rect).y);
  await pg.page.keyboard.up('Control');
  await waitFrames(pg.page, 2);
}

test('28 runs: a row per width and per lr, beside the plot, all in view', T, async () => {
  await click(pg.page, 'vs step');
  const plot = await stepPlot();
  const rows = [...WIDTHS.map((w) => `n=${w}`), ...LRS.map((lr) => `lr=${lr}`)];
  const listed = plot.legend.map((r) => r.split('  ')[0]);
  for (const r of rows) assert.ok(listed.includes(r), `legend lacks ${r}: ${JSON.stringify(plot.legend)}`);
  assert.ok(plot.legend.length <= rows.length + 3, `a row per run? ${plot.legend.length} rows`);
  assert.ok(plot.legend.some((r) => /ctrl\+click/.test(r)), 'the legend does not say how to hide and solo');
  assert.ok(!overlap(plot.legend_rect, plot.frame), `legend ${plot.legend_rect} over the frame ${plot.frame}`);
  assert.ok(inside(plot.legend_rect, plot.rect), 'legend outside the plot');
  // Every row in view: its text starts inside the legend and no row runs past its top or bottom.
  for (const r of rows) {
    const item = await findItem(pg.page, row(r));
    const start = [item.rect[0], item.rect[1], item.rect[0] + 1, item.rect[3]];
    assert.ok(item.visible && inside(start, plot.legend_rect), `${r} cut off: ${item.rect} vs ${plot.legend_rect}`);
  }
  await screenshot(pg.page, 'plot-legend-vs-step-1024');
});

test('a click hides a width and a second shows it; ctrl+click solos an lr', T, async () => {
  await click(pg.page, row('n=64'));
  let plot = await stepPlot();
  assert.deepEqual(plot.legend_hidden, ['n=64']);
  // The read-out names the 8 curves nearest the pointer and counts the rest: 24 shown, the 4 of n=64 left out.
  let rows = await hover(pg.page, middle(plot).x, middle(plot).y);
  assert.equal(rows.length, 9, JSON.stringify(rows));
  assert.match(rows.at(-1), /^\+16 more curves here/);
  assert.ok(rows.every((r) => !r.startsWith('n=64 ')), JSON.stringify(rows));
  await screenshot(pg.page, 'plot-legend-hidden-1024');

  await click(pg.page, row('n=64'));
  plot = await stepPlot();
  assert.deepEqual(plot.legend_hidden, []);

  await ctrlClick('lr=0.5');
  plot = await stepPlot();
  assert.equal(plot.legend_solo, 'lr=0.5');
  assert.deepEqual(plot.legend_hidden, ['lr=0.0625']);
  rows = await hover(pg.page, middle(plot).x, middle(plot).y);
  assert.equal(rows.length, 9, JSON.stringify(rows));
  assert.match(rows.at(-1), /^\+6 more curves here/);
  assert.ok(rows.slice(0, -1).every((r) => / lr=0\.5 /.test(r)), JSON.stringify(rows));

  await ctrlClick('lr=0.5');
  plot = await stepPlot();
  assert.deepEqual({ hidden: plot.legend_hidden, solo: plot.legend_solo }, { hidden: [], solo: '' });
});

test('vs width and vs learning rate at 1024 x 768: the legend beside or under the frame', T, async () => {
  for (const [tab, title, shot] of [['vs width', /vs width/, 'plot-legend-vs-width-1024'],
    ['vs learning rate', /vs learning rate/, 'plot-legend-vs-lr-1024']]) {
    await click(pg.page, tab);
    const [plot] = await plots(pg.page, title);
    assert.ok(plot.legend.length > 0, `${tab}: no legend`);
    assert.ok(!overlap(plot.legend_rect, plot.frame), `${tab}: legend ${plot.legend_rect} over ${plot.frame}`);
    console.log(`${tab}: legend in ${assertReadsDownColumns(await drawn(pg.page), plot)} column(s)`);
    await screenshot(pg.page, shot);
  }
  // This sweep records no act_rms, which max LR's verdict reads: the tab says so instead of failing.
  await click(pg.page, 'max LR');
  await waitFrames(pg.page, 3);
  assert.deepEqual(await plots(pg.page, /eta_max/), []);
  assert.deepEqual(pg.errors, []);
});

test('max LR at 1024 x 768: two plots side by side with their legends, the panel has nothing to scroll', T, async () => {
  await runPreset(pg.page, /17-max-lr-mup/, (s) => {
    s.sweep.width = [32, 64, 128];
    s.sweep.seeds = [0];
  });
  await click(pg.page, 'max LR');
  const d = await drawn(pg.page);
  const shown = d.plots.filter((p) => /eta_max/.test(p.title));
  assert.equal(shown.length, 2);
  for (const plot of shown) {
    assert.ok(plot.legend.length > 0, `${plot.title}: no legend`);
    assert.ok(!overlap(plot.legend_rect, plot.frame), `${plot.title}: legend ${plot.legend_rect} over ${plot.frame}`);
    assert.equal(panelOf(d, plot).scroll_max_y, 0, `${plot.title}: its panel scrolls`);
    console.log(`${plot.title}: legend in ${assertReadsDownColumns(d, plot)} column(s)`);
  }
  await screenshot(pg.page, 'plot-legend-max-lr-1024');
  assert.deepEqual(pg.errors, []);
});

// An imported set over the page's own runs (the page's result, imported back): its rows come after the page's, under
// a heading with the set's name; the heading sits directly above its first row, in the same column, and every row
// still reads down the columns. Where the legend is under the plot in two columns, the set starts the second column.
test('an imported set\'s heading sits above its own rows, in every column layout', T, async () => {
  const { page } = pg;
  await runSweep();
  await page.setInputFiles('#import-file', { name: 'again.result.json', mimeType: 'application/json',
    buffer: Buffer.from(await page.evaluate(() => window.muplay.muplay_result_file())) });
  await page.waitForFunction(() => JSON.parse(window.muplay.muplay_imports()).length === 1);
  const [set] = JSON.parse(await page.evaluate(() => window.muplay.muplay_imports()));
  for (const [tab, title, shot, viewport] of [['vs step', /vs step/, 'plot-legend-imported-step'],
    ['vs width', /vs width/, 'plot-legend-imported-width'], ['vs learning rate', /vs learning rate/, 'plot-legend-imported-lr'],
    ['vs learning rate', /vs learning rate/, 'plot-legend-imported-lr-two-columns', { width: 1140, height: 900 }]]) {
    if (viewport) await page.setViewportSize(viewport);
    await click(page, tab);
    await waitFrames(page, 3);
    const d = await drawn(page);
    const plot = d.plots.find((p) => title.test(p.title));
    const heading = plot.legend.indexOf(set.name);
    assert.ok(heading > 0, `${tab}: no heading "${set.name}" in ${JSON.stringify(plot.legend)}`);
    const columns = assertReadsDownColumns(d, plot);
    // The heading is text, not a widget: the trace notes it among text_rects, in the legend's window.
    const above = d.text_rects.find((t) => t.text === set.name && t.window.includes(`${plot.id}##legend`))?.rect;
    const below = legendItems(d, plot)[heading + 1]?.rect;
    assert.ok(above && below, `${tab}: the heading or its first row is not drawn`);
    // Same column: the row starts after its swatch, a little right of the heading, far less than a column's width.
    assert.ok(below[0] >= above[0] && below[0] - above[0] < (below[2] - below[0]) / 2,
      `${tab}: the heading (${above}) and its first row (${below}) in two columns`);
    assert.ok(below[1] >= above[3] && below[1] - above[3] < above[3] - above[1],
      `${tab}: the first row (${below}) is not right under the heading (${above})`);
    if (viewport) {
      // Under a plot of this width the rows take two columns: the imported set starts the second, at the top.
      assert.equal(columns, 2, `${tab} at ${viewport.width} x ${viewport.height}`);
      const top = legendItems(d, plot).find(Boolean).rect;
      assert.ok(above[0] > top[2] - 1 && Math.abs(above[1] - top[1]) < (top[3] - top[1]) / 2,
        `${tab}: the heading (${above}) does not start the second column (the first row: ${top})`);
    }
    console.log(`${tab}: ${plot.legend.length} legend rows in ${columns} column(s), the heading at row ${heading}`);
    await screenshot(page, shot);
  }
  await page.evaluate(() => window.muplay.muplay_remove_import(0));
  await page.setViewportSize({ width: 1024, height: 768 });
  assert.deepEqual(pg.errors, []);
});
