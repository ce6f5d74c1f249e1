// Rough edges a class finds, each driven with real input and checked through what the page draws (the frame trace):
// - the toolbar's Export menu closes on Esc and on a press outside it, so a click on Run (Space) afterwards trains
//   (the menu left open hung over Run and took the click: a spec file downloaded instead);
// - the red "Nothing was started: optimizer.lr …" goes once the field is mended, without another Run;
// - a link opens with its own preset marked in the preset list, scrolled into view (a fresh link to 27 marked 01);
// - a Transformer preset's fields are the Transformer's: no MLP widths or activation (they read "64, 64" and "relu");
// - the phase map at 1024×768: an S_w of ±0.1 is plainly red or blue (a linear ramp drew +0.11 near-white), read from
//   the screenshot's pixels at each point;
// - the view tabs keep their whole labels at zoom 2: the bar scrolls instead of cutting "vs learning rate" short;
// - eta* reads as its description writes it: preset 14's legend shows each width's 2^-0.50 … that the text quotes
//   (it showed 0.708).
// Screenshots: build/screenshots/rough-edges-*.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { decodePng } from './png.mjs';
import { openPlayground, runPreset, screenshot, waitFrames } from './harness.mjs';
import { centre, click, drawn, findItem, findItems, plots, press, typeInto } from './ui_driver.mjs';

const T = { timeout: 300_000 };
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const call = (name, ...args) => pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);
const menuOpen = () => pg.page.evaluate(() => document.getElementById('export-menu').open);
const notes = async () => (await drawn(pg.page)).texts;  // what the panels wrote, e.g. "message: …"

test('the Export menu closes on Esc and on a press outside it; Run (Space) then trains', T, async () => {
  const { page } = pg;
  await page.click('#export-menu summary');
  assert.equal(await menuOpen(), true);
  await press(page, 'Escape');
  assert.equal(await menuOpen(), false, 'Esc closes the menu');

  await page.click('#export-menu summary');
  assert.equal(await menuOpen(), true);
  await screenshot(page, 'rough-edges-export-open');
  // A press on the panels, away from the menu (the preset list's window): the menu closes.
  const presets = (await drawn(page)).windows.find((w) => w.name.includes('presets'));
  assert.ok(presets, 'the preset list window');
  await page.mouse.click(centre(presets.rect).x, presets.rect[3] - 10);
  await waitFrames(page, 2);
  assert.equal(await menuOpen(), false, 'a press on the canvas closes the menu');

  // Open again, close with Esc from the canvas (the keyboard's focus there), then Run (Space) on the panels trains.
  await page.click('#export-menu summary');
  await page.focus('#canvas');
  await press(page, 'Escape');
  assert.equal(await menuOpen(), false);
  let downloaded = false;
  page.on('download', () => { downloaded = true; });
  await click(page, 'Run (Space)');
  await page.waitForFunction(() => window.muplay.muplay_state() !== 'idle');
  assert.equal(downloaded, false, 'Run trained; nothing was downloaded');
  await call('muplay_pause');
  await screenshot(page, 'rough-edges-run-after-menu');
  assert.deepEqual(pg.errors, []);
});

test('the "Nothing was started" message goes once the learning rate is mended', T, async () => {
  const { page } = pg;
  await call('muplay_load_preset', 0);
  await typeInto(page, '##optimizer.lr', '-1', { window: 'fields' });
  await click(page, 'Run (Space)');
  await waitFrames(page, 3);
  const refused = (await notes()).filter((t) => t.startsWith('message: Nothing was started: optimizer.lr'));
  assert.equal(refused.length, 1, (await notes()).join(' | '));
  await screenshot(page, 'rough-edges-lr-refused');
  await typeInto(page, '##optimizer.lr', '0.1', { window: 'fields' });
  await waitFrames(page, 3);
  const mended = await notes();
  assert.ok(!mended.some((t) => t.startsWith('message: ')), mended.join(' | '));
  assert.equal(JSON.parse(await call('muplay_get_spec')).optimizer.lr, 0.1);
  await screenshot(page, 'rough-edges-lr-mended');
  assert.deepEqual(pg.errors, []);
});

test('a link opens with its preset marked in the preset list, in view', T, async () => {
  const { page } = pg;
  const presets = JSON.parse(await call('muplay_list_presets'));
  const index = presets.findIndex((p) => /27-edge-of-stability/.test(p.path));
  assert.ok(index > 0);
  await call('muplay_load_preset', index);
  const link = await call('muplay_share_link');
  await call('muplay_load_preset', 0);
  // A fresh page on the link, as a student opens it.
  const fresh = await openPlayground({ suffix: `#${link}` });
  try {
    const marked = (await drawn(fresh.page)).items.filter((i) => i.window.includes('presets') && i.checked && i.visible);
    assert.deepEqual(marked.map((i) => i.label), [presets[index].name], JSON.stringify(marked));
    await screenshot(fresh.page, 'rough-edges-link-27');
    assert.deepEqual(fresh.errors, []);
  } finally {
    await fresh.close();
  }
});

test('a Transformer preset shows the Transformer\'s fields, not the MLP\'s', T, async () => {
  const { page } = pg;
  const presets = JSON.parse(await call('muplay_list_presets'));
  await call('muplay_load_preset', presets.findIndex((p) => /45-transformer-width-transfer-mup/.test(p.path)));
  await waitFrames(page, 3);
  const spec = JSON.parse(await call('muplay_get_spec'));
  assert.equal(spec.model.kind, 'transformer');
  assert.deepEqual(Object.keys(spec.model).filter((k) => ['widths', 'activation', 'input_bias'].includes(k)), []);
  assert.equal((await findItems(page, /^##model\.(widths|activation|input_bias)$/, { window: 'fields' })).length, 0);
  assert.ok((await findItems(page, '##model.kind', { window: 'fields' })).length > 0, 'the model kind is not shown');
  await screenshot(page, 'rough-edges-transformer-fields');
});

test('the phase map at 1024x768 colours an S_w of 0.1 plainly red or blue', T, async () => {
  const { page } = pg;
  await page.setViewportSize({ width: 1024, height: 768 });
  try {
    await runPreset(page, /23-phase-diagram/, () => {});
    await waitFrames(page, 3);
    const [map] = await plots(page, /^S_w/);
    assert.ok(map, 'no phase map drawn');
    const slopes = JSON.parse(await call('muplay_phase_slopes'));
    const png = decodePng(await screenshot(page, 'rough-edges-phase-map-1024'));
    const [x0, y0, x1, y1] = map.frame;
    let checked = 0;
    for (const p of slopes.filter((q) => q.unconverged === 0 && Math.abs(q.slope) >= 0.1)) {
      const x = Math.round(x0 + (p.gamma - map.x.lo) / (map.x.hi - map.x.lo) * (x1 - x0));
      const y = Math.round(y1 - (p.gamma_prime - map.y.lo) / (map.y.hi - map.y.lo) * (y1 - y0));
      const at = (y * png.width + x) * png.channels;
      const [r, , b] = png.data.subarray(at, at + 3);
      const lead = p.slope > 0 ? b - r : r - b;  // blue for condensed (S_w > 0), red for linear
      assert.ok(lead >= 60, `(${p.gamma}, ${p.gamma_prime}) S_w ${p.slope.toFixed(2)}: rgb ${r}, _, ${b}`);
      checked++;
    }
    assert.ok(checked >= 4, `only ${checked} points with |S_w| >= 0.1`);
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});

test('the view tabs keep their whole labels at zoom 2', T, async () => {
  const { page } = pg;
  const tabWidth = async () => (await findItem(page, 'vs learning rate')).rect;
  const [a0, , a1] = await tabWidth();
  await page.locator('#canvas').focus();
  for (let i = 0; i < 4; i++) await press(page, 'Alt+Equal');  // 1 → 1.1 → 1.25 → 1.5 → 1.75
  const zoom = JSON.parse(await call('muplay_zooms')).page;
  assert.ok(zoom >= 1.7, `zoom ${zoom}`);
  try {
    const [b0, , b1] = await tabWidth();
    assert.ok(b1 - b0 >= 0.95 * zoom * (a1 - a0), `the tab is ${b1 - b0} px wide at zoom ${zoom}, ${a1 - a0} at 1`);
    await screenshot(page, 'rough-edges-tabs-zoomed');
  } finally {
    await press(page, 'Alt+Digit0');
  }
  assert.deepEqual(pg.errors, []);
});

test('eta* in the legend reads as the description quotes it (2^-0.50, not 0.708)', T, async () => {
  const { page } = pg;
  await runPreset(page, /14-lr-transfer-toy-mup/, () => {});
  const description = JSON.parse(await call('muplay_get_spec')).description;
  await waitFrames(page, 3);
  const [plot] = await plots(page, /vs learning rate \(dot: eta\*\)$/);
  assert.ok(plot, 'preset 14 does not open on vs learning rate');
  const quoted = plot.legend.map((r) => r.match(/eta\*=(2\^-?\d+\.\d\d) \(/)?.[1]).filter(Boolean);
  assert.equal(quoted.length, 4, JSON.stringify(plot.legend));
  for (const q of quoted) assert.ok(description.includes(q), `${q} is not in the description: ${description}`);
  await screenshot(page, 'rough-edges-eta-star');
});
