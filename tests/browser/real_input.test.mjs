// A lecturer's session driven through real input only: mouse, wheel and keyboard events on the canvas (found by label
// in the frame trace, web/draw/drawn.hpp) and clicks on the page's own buttons. window.muplay is only read (state, spec,
// results), never called to act. On one page, in order: pick presets in the list (the wheel scrolls to them); edit
// widths, the learning rate and the steps in Fields, see a bad value's message under its field and fix it; Run and
// Pause from the toolbar; every view tab; the log axes' checkboxes; hover a curve; drag the α slider (text_help clicks
// it, and checks the table follows: not repeated here); share the experiment and embed the snippet in a host page on
// another origin, where it autoplays to the end. Other files do parts of this through real input too: the splitters
// and an invalid width (layout), legend clicks (plot_legend), the phenomena and anchor tabs' controls
// (phenomena_tabs, anchor_view). Screenshots: build/screenshots/real-input-*.png.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startServer } from '../../scripts/static-server.mjs';
import { openPlayground, screenshot, waitFrames } from './harness.mjs';
import { centre, click, drawn, findItem, findItems, hover, plots, scrollIntoView, typeInto } from './ui_driver.mjs';

const T = { timeout: 120_000 };
const WIDTHS = [16, 64];
const LR = 0.25;
const STEPS = 45;
const LONG = 20_000;  // steps enough to still be running when Pause is clicked
let pg;
before(async () => { pg = await openPlayground({ viewport: { width: 1280, height: 800 } }); }, T);
after(async () => { await pg?.close(); });

const read = async (name) => pg.page.evaluate((n) => window.muplay[n](), name);
const spec = async () => JSON.parse(await read('muplay_get_spec'));
const presetNamed = async (file) =>
  JSON.parse(await read('muplay_list_presets')).find((p) => p.path.endsWith(file)).name;
const FIELDS = { window: 'fields' };  // the spec editor's Fields tab, which scrolls on its own
const runLines = (d) => d.texts.filter((t) => t.startsWith('run: '));

test('presets picked in the list with the mouse, scrolled to with the wheel, load', T, async () => {
  const { page } = pg;
  for (const file of ['29-condensation-dropout-with.json', '02-sp-toy.json']) {  // far down, then back up
    const name = await presetNamed(file);
    const before = (await findItems(page, name, { window: 'presets' }))[0];
    const item = await click(page, name, { window: 'presets' });
    if (file.startsWith('29')) assert.ok(!before?.visible, `${name} was in view before the wheel turned`);
    assert.ok(item.visible);
    assert.equal((await spec()).name, name);
  }
  await screenshot(page, 'real-input-preset');
});

test('Fields: typed widths, learning rate and steps take effect; a bad value is named under its field', T, async () => {
  const { page } = pg;
  await click(page, 'Fields');
  await typeInto(page, '##sweep.width', WIDTHS.join(', '), FIELDS);
  await typeInto(page, '##optimizer.lr', LR, FIELDS);
  await typeInto(page, '##schedule.steps', LONG, FIELDS);
  let s = await spec();
  assert.deepEqual([s.sweep.width, s.optimizer.lr, s.schedule.steps], [WIDTHS, LR, LONG]);

  await typeInto(page, '##optimizer.lr', '-1', FIELDS);
  const field = await findItem(page, '##optimizer.lr');
  const d = await drawn(page);
  await screenshot(page, 'real-input-bad-lr');
  const shown = d.text_rects.find((t) => t.text.startsWith('field error: optimizer.lr'));
  assert.ok(shown, `no message for the bad rate: ${JSON.stringify(d.text_rects.map((t) => t.text))}`);
  assert.match(shown.text, /-1 is not in/);
  assert.ok(shown.rect[1] >= field.rect[3], 'the message is under its field');
  const errors = JSON.parse(await read('muplay_get_errors')).spec;
  assert.deepEqual(errors.map((e) => `field error: ${e}`), [shown.text], 'the message is the spec\'s one problem');

  await typeInto(page, '##optimizer.lr', LR, FIELDS);
  // The trace is the last frame's: on a loaded machine the frame that draws the fix may come a little later.
  await page.waitForFunction(() => !JSON.parse(window.muplay.muplay_drawn()).text_rects
    .some((t) => t.text.startsWith('field error: ')), null, { timeout: 10_000, polling: 100 })
    .catch(() => assert.fail('the message stays after the fix'));
  s = await spec();
  assert.deepEqual([s.sweep.width, s.optimizer.lr, s.schedule.steps], [WIDTHS, LR, LONG]);
});

test('Run and Pause from the toolbar: the runs list shows the edited sweep; steps advance, stop, and end', T, async () => {
  const { page } = pg;
  const steps = () => read('muplay_total_steps');
  await click(page, 'Run (Space)');
  await page.waitForFunction(() => window.muplay.muplay_total_steps() > 0);
  assert.equal(await read('muplay_state'), 'running');
  const runs = runLines(await drawn(page));
  assert.deepEqual(runs.map((r) => r.match(/^run: (n=\d+ lr=[\d.]+)/)?.[1]), WIDTHS.map((n) => `n=${n} lr=${LR}`));

  await click(page, 'Pause (Space)');
  assert.equal(await read('muplay_state'), 'paused');
  await waitFrames(page, 3);  // a step already sent to a worker may still arrive
  const paused = await steps();
  await waitFrames(page, 10);
  assert.equal(await steps(), paused, 'steps went on after Pause');
  assert.ok(runLines(await drawn(page)).every((r) => /: (paused|finished)$/.test(r)));

  // Fewer steps, typed while paused: Run starts the edited experiment, to its end.
  await typeInto(page, '##schedule.steps', STEPS, FIELDS);
  await click(page, 'Run (Space)');
  await page.waitForFunction(() => window.muplay.muplay_state() === 'finished');
  assert.equal(await steps(), WIDTHS.length * STEPS);
  assert.deepEqual(runLines(await drawn(page)).map((r) => r.split(': ')[2]), WIDTHS.map(() => 'finished'));
});

test('every view tab, clicked, draws what it is for or says what it needs', T, async () => {
  const { page } = pg;
  const d0 = await drawn(page);
  const row = d0.items.find((i) => i.label === 'vs step' && /right_/.test(i.window));
  const tabs = d0.items.filter((i) => i.window === row.window && i.rect[1] === row.rect[1]).map((i) => i.label);
  // No anchor tab: that is for Transformer runs (text_help and anchor_view click it); no vs depth tab: that is for
  // residual MLPs (depth_view clicks it).
  assert.deepEqual(tabs, ['vs step', 'vs width', 'vs learning rate', 'embeddings', 'phenomena', 'parametrization',
    'max LR']);
  const hint = (d, what) => assert.ok(d.texts.some((t) => t.startsWith('hint: ') && what.test(t)),
    `no hint ${what}: ${JSON.stringify(d.texts)}`);
  const expect = {
    'vs step': (d) => {
      const [plot] = d.plots.filter((p) => /^train_loss vs step/.test(p.title));
      const runs = plot.curves.filter((c) => /^n=\d+ /.test(c.name));
      assert.deepEqual(runs.map((c) => c.points), WIDTHS.map(() => STEPS / 3 + 1), 'a point per record');
    },
    'vs width': (d) => assert.deepEqual(d.plots.find((p) => /vs width/.test(p.title)).x.ticks, WIDTHS.map(String)),
    'vs learning rate': (d) => hint(d, /needs a sweep over learning rates/),
    embeddings: (d) => hint(d, /needs the skipgram task/),
    phenomena: (d) => hint(d, /shows the phenomena presets/),
    parametrization: (d) => assert.ok(d.texts.some((t) => t.startsWith('explorer table: ')), 'no abc explorer'),
    'max LR': (d) => hint(d, /learning rate/),
  };
  for (const tab of tabs) {
    await click(page, tab, { window: 'right' });
    const d = await drawn(page);
    expect[tab](d);
    await screenshot(page, `real-input-tab-${tab.replaceAll(' ', '-')}`);
  }
});

test('the log x and log y checkboxes switch the vs step axes', T, async () => {
  const { page } = pg;
  await click(page, 'vs step', { window: 'right' });
  const stepPlot = async () => (await plots(page, /^train_loss vs step/))[0];
  const before = await stepPlot();
  assert.deepEqual([before.x.log, before.y.log], [false, true], 'a loss starts on a log y axis, steps on a linear x');
  await click(page, 'log y');
  await click(page, 'log x');
  const after = await stepPlot();
  await screenshot(page, 'real-input-log-axes');
  assert.deepEqual([after.x.log, after.y.log], [true, false]);
  assert.ok((await findItem(page, 'log x')).checked && !(await findItem(page, 'log y')).checked);
  assert.notDeepEqual(after.y.ticks, before.y.ticks, 'the y ticks did not change');
  assert.match(after.x.label, /step/);
  await click(page, 'log y');
  await click(page, 'log x');
  const back = await stepPlot();
  assert.deepEqual([back.x.log, back.y.log, back.y.ticks], [false, true, before.y.ticks]);
});

test('hovering the curves reads each run\'s train loss at the step under the mouse', T, async () => {
  const { page } = pg;
  const plot = (await plots(page, /^train_loss vs step/))[0];
  const step = 30;  // a recorded step (record_every 3)
  const x = plot.frame[0] + (step - plot.x.lo) / (plot.x.hi - plot.x.lo) * (plot.frame[2] - plot.frame[0]);
  const rows = await hover(page, x, (plot.frame[1] + plot.frame[3]) / 2);
  await screenshot(page, 'real-input-hover');
  const results = JSON.parse(await read('muplay_get_results'));
  assert.equal(rows.length, results.runs.length, JSON.stringify(rows));
  for (const r of results.runs) {
    const row = rows.find((t) => t.startsWith(`n=${r.width} `));
    const m = /: step = (\d+), train_loss = ([\d.e+-]+)$/.exec(row ?? '');
    assert.ok(m, `no hover row for n=${r.width}: ${JSON.stringify(rows)}`);
    assert.equal(Number(m[1]), step);
    const value = r.series.train_loss[step / 3];
    assert.ok(Math.abs(Number(m[2]) - value) <= 5e-4 * Math.abs(value), `${row} vs ${value}`);
  }
});

test('the α slider, dragged with the mouse, moves the explorer from NTK to μP', T, async () => {
  const { page } = pg;
  await click(page, 'parametrization', { window: 'right' });
  await click(page, 'ntp');
  const regime = async () => {
    const d = await drawn(page);
    const line = d.texts.find((t) => t.startsWith('explorer slider: '));
    return { slider: /α = ([\d.]+): (\w+)/.exec(line).slice(1), table: /^explorer table: (\w+)/.exec(
      d.texts.find((t) => t.startsWith('explorer table: ')))[1] };
  };
  assert.deepEqual(await regime(), { slider: ['0', 'kernel'], table: 'kernel' });
  const slider = await findItem(page, 'α');
  const y = centre(slider.rect).y;
  await page.mouse.move(slider.rect[0] + 4, y);
  await waitFrames(page, 2);
  await page.mouse.down();
  await waitFrames(page, 2);
  for (const f of [0.3, 0.6, 1.1]) {  // past the right end: the slider stops at α = ½
    await page.mouse.move(slider.rect[0] + f * (slider.rect[2] - slider.rect[0]), y);
    await waitFrames(page, 1);
  }
  await page.mouse.up();
  await waitFrames(page, 3);
  await screenshot(page, 'real-input-alpha-drag');
  assert.deepEqual(await regime(), { slider: ['0.5', 'feature_learning'], table: 'feature_learning' });
});

test('share: the link is the address bar\'s, the snippet an <iframe> of the embed; a panel box changes it', T, async () => {
  const { page } = pg;
  await page.click('#open-share');
  await page.locator('#share-dialog').waitFor({ state: 'visible' });
  const fragment = await page.evaluate(() => location.hash);
  assert.match(fragment, /^#s=1\./);
  const base = new URL(page.url());
  base.hash = '';
  base.search = '';
  assert.equal(await page.inputValue('#share-link'), `${base.href}${fragment}`);
  const src = async () => {
    const snippet = await page.inputValue('#embed-snippet');
    assert.match(snippet, /^<iframe src="[^"]+" title="μPlayground: [^"]+"[^>]*><\/iframe>$/);
    return new URL(/src="([^"]+)"/.exec(snippet)[1].replaceAll('&amp;', '&'));
  };
  let url = await src();
  assert.equal(`${url.origin}${url.pathname}`, base.href);
  assert.equal(url.searchParams.get('embed'), '1');
  assert.equal(url.searchParams.get('panels'), 'controls,plot');
  assert.equal(url.hash, fragment);
  await page.click('#embed-runs');
  await page.click('#embed-autoplay');
  url = await src();
  assert.equal(url.searchParams.get('panels'), 'controls,plot,runs');
  assert.equal(url.searchParams.get('autoplay'), '1');
  assert.equal(url.hash, fragment);
  await screenshot(page, 'real-input-share');
});

test('the snippet, pasted into a page on another origin, autoplays the experiment to the end', T, async () => {
  const { page } = pg;
  const snippet = await page.inputValue('#embed-snippet');
  await page.keyboard.press('Escape');
  const hostDir = mkdtempSync(path.join(tmpdir(), 'muplay-host-'));
  const host = await startServer({ root: hostDir, port: 0 });
  try {
    writeFileSync(path.join(hostDir, 'host.html'),
      `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>${snippet}</body></html>`);
    assert.notEqual(new URL(host.url).origin, new URL(page.url()).origin);
    const hostPage = await pg.context.newPage();
    await hostPage.goto(`${host.url}host.html`);
    const frame = await (await hostPage.locator('iframe').elementHandle()).contentFrame();
    await frame.waitForURL(/embed=1/);
    await frame.waitForFunction(() => window.muplay?.muplay_state?.() === 'finished');
    const embedded = JSON.parse(await frame.evaluate(() => window.muplay.muplay_get_spec()));
    assert.deepEqual([embedded.sweep.width, embedded.optimizer.lr, embedded.schedule.steps], [WIDTHS, LR, STEPS]);
    assert.equal(await frame.evaluate(() => window.muplay.muplay_total_steps()), WIDTHS.length * STEPS);
    await screenshot(hostPage, 'real-input-embed');
    await hostPage.close();
  } finally {
    await host.close();
    rmSync(hostDir, { recursive: true, force: true });
  }
  assert.deepEqual(pg.errors, []);
});
