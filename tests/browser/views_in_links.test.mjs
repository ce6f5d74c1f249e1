// The view is part of what is shared (web/app/view_text.hpp):
// - every preset names the view its description is about, and loading it (the hook, or a click in the list) opens
//   on that view, whatever was shown before;
// - a link made on a view, opened in a fresh browser and run, draws the same view with the same numbers;
// - a spec without a view (an old link) opens on the view of the preset of its name;
// - an embed draws the view its URL or its experiment names (no tab bar), and a bad view text says why.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, openPlayground, screenshot, waitFrames } from './harness.mjs';
import { click, plots } from './ui_driver.mjs';

const T = { timeout: 600_000 };
const EXAMPLES = path.join(ROOT, 'examples');
const presets = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json')).sort()
  .map((file) => ({ file, spec: JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) }));
const LABELS = { step: 'vs step', width: 'vs width', lr: 'vs learning rate', depth: 'vs depth', embeddings: 'embeddings',
                 anchor: 'anchor', phenomena: 'phenomena', parametrization: 'parametrization', maxlr: 'max LR' };
const tabOf = (view) => view.split(';')[0] || 'step';  // "": the default view, vs step

let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const shownView = (page) => page.evaluate(() => window.muplay.muplay_view());
async function loadPreset(page, file) {
  const list = JSON.parse(await page.evaluate(() => window.muplay.muplay_list_presets()));
  const index = list.findIndex((p) => p.path.endsWith(`/${file}`));
  assert.ok(index >= 0, file);
  assert.equal(await page.evaluate((i) => window.muplay.muplay_load_preset(i), index), 1, file);
  await waitFrames(page, 4);
}

test('every preset names a view, and its description names that view\'s tab', () => {
  for (const { file, spec } of presets) {
    assert.ok(spec.view, `${file} names no view`);
    const label = LABELS[tabOf(spec.view)];
    assert.ok(label, `${file}: unknown view ${spec.view}`);
    assert.ok(spec.description.includes(`'${label}'`), `${file}: its description never says '${label}'`);
  }
});

test('loading a preset opens on its view, whatever was shown before', T, async () => {
  const { page } = pg;
  for (const { file, spec } of presets) {
    await loadPreset(page, file);
    const shown = (await shownView(page)).split(';');
    assert.equal(tabOf(shown.join(';')), tabOf(spec.view), file);
    for (const setting of spec.view.split(';').slice(1)) assert.ok(shown.includes(setting), `${file}: ${shown.join(';')}`);
  }
  // The two cases of the report: 02 after 27 (phenomena), 01 after 45 (vs learning rate).
  for (const [before, next] of [['27-edge-of-stability.json', '02-sp-toy.json'],
    ['45-transformer-width-transfer-mup.json', '01-sp-vs-mup-toy.json']]) {
    await loadPreset(page, before);
    await loadPreset(page, next);
    assert.equal(tabOf(await shownView(page)), 'step', `${next} after ${before}`);
  }
  assert.deepEqual(pg.errors, []);
});

test('a click in the preset list opens the coordinate check on vs width', T, async () => {
  const { page } = pg;
  await loadPreset(page, '02-sp-toy.json');
  await click(page, /^Coordinate check, muP/);
  await waitFrames(page, 4);
  assert.equal(await shownView(page), 'width;quantity=act_delta_rms;record=1');
  const [plot] = await plots(page, /vs width/);
  assert.ok(plot, 'the vs width plot is drawn');
  await screenshot(page, 'view-preset-10-opens-on-vs-width');
});

test('a link made on a view opens in a fresh browser on that view, with the same numbers', T, async () => {
  const { page } = pg;
  await loadPreset(page, '10-coord-check-mup.json');
  await page.evaluate(() => window.muplay.muplay_run());
  await page.waitForFunction(() => window.muplay.muplay_state() === 'finished');
  // The reader's own choice: the record slider to step 5, by the view's text (the slider's own test is elsewhere).
  await page.evaluate(() => window.muplay.muplay_apply_view('width;quantity=act_delta_rms;record=5;refs=1'));
  await waitFrames(page, 4);
  const made = await page.evaluate(() => window.muplay.muplay_width_view());
  await page.waitForFunction(() => location.hash.includes('s=1.'));
  await page.waitForFunction((v) => window.muplay.muplay_share_link() && location.hash.slice(1) === window.muplay.muplay_share_link(),
                             null);
  const link = await page.evaluate(() => location.href);
  const fresh = await openPlayground({ url: link });
  try {
    assert.equal(await shownView(fresh.page), 'width;quantity=act_delta_rms;record=5;refs=1');
    await fresh.page.evaluate(() => window.muplay.muplay_run());
    await fresh.page.waitForFunction(() => window.muplay.muplay_state() === 'finished');
    await waitFrames(fresh.page, 4);
    const opened = await fresh.page.evaluate(() => window.muplay.muplay_width_view());
    assert.equal(opened, made);
    assert.equal(JSON.parse(opened).step, 5);
    await screenshot(fresh.page, 'view-link-opened-fresh');
    assert.deepEqual(fresh.errors, []);
  } finally {
    await fresh.close();
  }
});

test('a spec without a view opens on the view of the preset of its name', T, async () => {
  const { page } = pg;
  const { spec } = presets.find((p) => p.file === '45-transformer-width-transfer-mup.json');
  const { view, ...old } = spec;
  await loadPreset(page, '02-sp-toy.json');
  const r = JSON.parse(await page.evaluate((t) => window.muplay.muplay_load_spec(t), JSON.stringify(old)));
  assert.ok(r.ok, r.errors?.join('\n'));
  await waitFrames(page, 4);
  assert.equal(await shownView(page), view);
});

test('an embed draws the view it names, without the tab bar; a bad view says why', T, async () => {
  const embed = await openPlayground({ suffix: '?embed=1&preset=45-transformer-width-transfer-mup',
                                       viewport: { width: 720, height: 460 } });
  try {
    await waitFrames(embed.page, 4);
    assert.equal(await shownView(embed.page), 'lr');
    assert.ok((await plots(embed.page, /vs learning rate/)).length, 'the vs learning rate plot');
    await screenshot(embed.page, 'view-embed-45-opens-on-vs-learning-rate');
    await embed.page.goto(`${embed.url}?embed=1&preset=10-coord-check-mup&view=width;record=3;colour=red`);
    await embed.page.evaluate(() => window.muplay.ready.then(() => true));
    await embed.page.waitForSelector('#notice:not([hidden])');
    assert.match(await embed.page.textContent('#notice-text'), /width has no setting "colour"/);
    await waitFrames(embed.page, 4);
    assert.equal(await shownView(embed.page), 'width;record=3');
    assert.deepEqual(embed.errors, []);
  } finally {
    await embed.close();
  }
});

test('vs learning rate says what is known while the sweep trains: the grid\'s axis, the loss so far, no early eta*', T, async () => {
  const { page } = pg;
  await loadPreset(page, '14-lr-transfer-toy-mup.json');  // 4 widths × 8 rates 2^-6 … 2^1, 100 steps, a record every 5
  const lrPlot = async () => {
    await page.evaluate(() => window.muplay.muplay_drawn());  // turns the frame trace on
    await waitFrames(page, 3);
    return (await plots(page, / vs learning rate \(dot: eta\*\)$/))[0];
  };
  let plot = await lrPlot();
  assert.ok(plot, 'the vs learning rate plot, before any run');
  assert.ok(plot.x.lo <= 2 ** -6 && plot.x.hi >= 2, `the x axis spans the grid: ${plot.x.lo} … ${plot.x.hi}`);
  const rows = (p) => p.legend.filter((r) => /^n=\d+ /.test(r));
  assert.deepEqual(rows(plot), [32, 64, 128, 256].map((n) => `n=${n}  eta*: - (runs not finished)`));
  assert.ok(!plot.curves.some((c) => / eta\*/.test(c.name)), 'no eta* dot before any run');

  await page.evaluate(() => window.muplay.muplay_run());
  await page.waitForFunction(() => window.muplay.muplay_total_steps() >= 1600);  // half of the 32 × 100 steps
  await page.evaluate(() => window.muplay.muplay_pause());
  await waitFrames(page, 5);
  plot = await lrPlot();
  assert.equal(rows(plot).length, 4, JSON.stringify(plot.legend));
  for (const row of rows(plot)) assert.match(row, /\(so far: step \d+\)$/, row);
  assert.ok(plot.y.data_lo > 0 && Number.isFinite(plot.y.data_hi), 'the losses so far are drawn');

  await page.evaluate(() => window.muplay.muplay_run());
  await page.waitForFunction(() => window.muplay.muplay_state() === 'finished');
  plot = await lrPlot();
  for (const row of rows(plot)) assert.match(row, /^n=\d+  eta\*=2\^-?\d+\.\d\d \([\d.]+\)$/, row);
  await screenshot(page, 'view-lr-transfer-finished');
});
