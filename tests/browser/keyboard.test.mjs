// The week's exercise with the keyboard alone, through the semantics layer over the canvas (web/draw/semantics.hpp,
// web/js/semantics.js): no mouse event at all. In the full page (Chromium): pick "LR transfer on the sin toy, muP" in
// the experiments' listbox (Tab, arrows, Enter), shorten its schedule in its field, Run (Space on the canvas' Run),
// change the sweep's widths in their field and run again, switch to the vs width tab, Copy link (toolbar); each
// step's effect read back from the frame trace and the app, and the focus where a user expects it after each. The
// same in an embed inside a host page of another origin, and in Firefox ESR. The accessibility tree (CDP) names the
// experiments, the tabs, the fields with their values and descriptions, and Run / Step / Reset, in English and Chinese;
// a checkbox and a tree node work from the keyboard.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startServer } from '../../scripts/static-server.mjs';
import { launchEngine, missing } from './engines.mjs';
import { notesPage, startHost } from './guest_hosts.mjs';
import { SITE, openPlayground, screenshot } from './harness.mjs';
import { drawn, englishId } from './ui_driver.mjs';

const T = { timeout: 600_000 };
const PRESET = 'LR transfer on the sin toy, muP (Adam)';
const STEPS = 30;  // the preset trains 100 steps; the exercise's point is the keys, not the run's length

// What has the keyboard: its id (toolbar), its semantic role and English id (a node of the layer), its name.
const focusedIn = (frame) => frame.evaluate(() => {
  const e = document.activeElement;
  return { id: e?.id ?? '', tag: e?.tagName ?? '', role: e?.dataset?.role ?? '', english: e?.dataset?.english ?? '',
           name: e?.getAttribute('aria-label') ?? e?.textContent ?? '', value: e?.value ?? '' };
});

// Presses `key` until the focus matches `want` (fields of focusedIn), at most `max` times; returns how many presses.
async function pressUntil(keyboard, frame, key, want, max = 150) {
  for (let n = 1; n <= max; n++) {
    await keyboard.press(key);
    const f = await focusedIn(frame);
    if (Object.entries(want).every(([k, v]) => (v instanceof RegExp ? v.test(f[k]) : f[k] === v))) return n;
  }
  const at = JSON.stringify(await focusedIn(frame));
  throw new Error(`${max} presses of ${key} never reached ${JSON.stringify(want)}; at ${at}`);
}

// Types `text` into the focused field of the layer (it shows over the canvas while edited) and applies it with Enter.
async function typeField(keyboard, text) {
  await keyboard.down('Control');  // (puppeteer's press takes one key: no "Control+A")
  await keyboard.press('a');
  await keyboard.up('Control');
  await keyboard.type(text);
  await keyboard.press('Enter');
}

const call = (frame, name) => frame.evaluate((n) => window.muplay[n](), name);
const spec = async (frame) => JSON.parse(await call(frame, 'muplay_get_spec'));

// Picks the preset in the listbox: the focus is on the listbox's Tab stop (the selected option); arrows move to it.
async function pickPreset(keyboard, frame) {
  const presets = JSON.parse(await call(frame, 'muplay_list_presets'));
  const target = presets.findIndex((p) => p.name === PRESET);
  assert.ok(target >= 0, `no preset named ${PRESET}`);
  const from = await call(frame, 'muplay_preset_index');
  for (let i = 0; i < Math.abs(target - from); i++) await keyboard.press(target > from ? 'ArrowDown' : 'ArrowUp');
  assert.deepEqual((await focusedIn(frame)).english, PRESET);
  await keyboard.press('Enter');
  await frame.waitForFunction((t) => window.muplay.muplay_preset_index() === t, target);
  return target;
}

async function runToEnd(frame) {
  await frame.waitForFunction(() => window.muplay.muplay_state() === 'running', null, { polling: 20 });
  await frame.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 300_000 });
  return JSON.parse(await call(frame, 'muplay_get_results'));
}

test('keyboard only, full page: pick preset 14 μP, run, change the widths, run again, vs width, Copy link', T,
     async () => {
  const pg = await openPlayground();
  try {
    const { page } = pg;
    const keys = page.keyboard;
    await pg.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(pg.url).origin });
    await page.evaluate(() => document.activeElement?.blur());
    let start = Date.now();

    // (a) Tab past the toolbar and the canvas into the experiments' listbox; arrows to preset 14 μP; Enter.
    const tabs = await pressUntil(keys, page, 'Tab', { role: 'option' });
    const target = await pickPreset(keys, page);
    assert.equal((await focusedIn(page)).english, PRESET, 'the focus stays on the picked experiment');
    const picked = (await drawn(page)).items.find((i) => englishId(i) === PRESET);
    assert.ok(picked?.checked, 'the frame trace shows the preset selected');
    console.log(`picked preset ${target} after ${tabs} Tabs, ${Date.now() - start} ms`);

    // Its schedule shortened in its field (Tab to schedule.steps, type, Enter): validated as typed in the canvas.
    await pressUntil(keys, page, 'Tab', { name: 'schedule.steps' });
    await typeField(keys, String(STEPS));
    await page.waitForFunction((s) => JSON.parse(window.muplay.muplay_get_spec()).schedule.steps === s, STEPS);
    assert.equal((await focusedIn(page)).name, 'schedule.steps', 'Enter keeps the focus in the field');

    // (b) Run: Tab on to the canvas' Run button, Space.
    start = Date.now();
    await pressUntil(keys, page, 'Tab', { english: 'Run (Space)' });
    await keys.press('Space');
    let results = await runToEnd(page);
    assert.equal(results.runs.length, 32);
    assert.equal((await focusedIn(page)).english, 'Run (Space)', 'the focus stays on Run (Pause while it trained)');
    console.log(`first run: ${Date.now() - start} ms`);

    // (c) The sweep's widths: back to their field, a shorter list, Enter; Run again.
    await pressUntil(keys, page, 'Shift+Tab', { name: 'sweep.width' });
    await typeField(keys, '32, 64, 128');
    await page.waitForFunction(() => JSON.parse(window.muplay.muplay_get_spec()).sweep.width.join() === '32,64,128');
    const field = (await drawn(page)).items.find((i) => i.id === '##sweep.width');
    assert.ok(field, 'the width field is in the frame trace');
    await pressUntil(keys, page, 'Tab', { english: 'Run (Space)' });
    await keys.press('Space');
    results = await runToEnd(page);
    assert.equal(results.runs.length, 24, 'three widths × eight learning rates');
    assert.deepEqual((await spec(page)).sweep.width, [32, 64, 128]);

    // (d) The view tabs: one Tab stop (the selected tab), arrows to vs width, Enter.
    await pressUntil(keys, page, 'Tab', { role: 'tab', english: 'vs learning rate' });
    await pressUntil(keys, page, 'ArrowLeft', { role: 'tab', english: 'vs width' }, 8);
    await keys.press('Enter');
    await page.waitForFunction(() => window.muplay.muplay_view().startsWith('width'));
    const d = await drawn(page);
    const titles = d.plots.map((p) => p.title);
    assert.ok(titles.some((t) => / vs width /.test(t)), `the width view draws: ${titles}`);
    assert.equal((await focusedIn(page)).english, 'vs width', 'the focus stays on the tab');
    await screenshot(page, 'keyboard-vs-width-tab-focused');
    // Its record slider: Tab to it; Home and End pick the first and the last record, which the view then draws.
    await pressUntil(keys, page, 'Tab', { name: 'record' }, 5);
    const slider = () => page.evaluate(() => ({ value: document.activeElement.value, max: document.activeElement.max,
                                                text: document.activeElement.getAttribute('aria-valuetext') }));
    await keys.press('Home');
    await page.waitForFunction(() => document.activeElement.getAttribute('aria-valuetext') === 'step 0');
    assert.equal((await slider()).value, '0');
    await keys.press('End');
    await page.waitForFunction(() => document.activeElement.getAttribute('aria-valuetext') !== 'step 0');
    const last = await slider();
    assert.equal(last.value, last.max);
    assert.equal(last.text, `step ${STEPS}`, `the last record is the run's last step: ${JSON.stringify(last)}`);

    // (f) Copy link, in the toolbar: Shift+Tab back to it, Enter.
    await pressUntil(keys, page, 'Shift+Tab', { id: 'copy-link' }, 400);
    await keys.press('Enter');
    await page.waitForFunction(() => /Link copied/.test(document.getElementById('bar-status').textContent));
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.ok(link.endsWith(await call(page, 'muplay_share_link')), 'the link copied is the page\'s');
    const payload = JSON.parse(Buffer.from(link.match(/#s=1\.([^&]+)/)[1], 'base64url').toString());
    assert.match(payload.view, /^width/, 'the link opens on vs width');
    assert.deepEqual(payload.sweep.width, [32, 64, 128]);
    assert.equal((await focusedIn(page)).id, 'copy-link', 'the focus stays on Copy link');
    assert.deepEqual(pg.errors, []);
  } finally {
    await pg.close();
  }
});

test('keyboard only, in an embed on a host page: pick the preset, change the widths, run', T, async () => {
  const playground = await startServer({ root: SITE, port: 0 });
  const host = await startHost();
  host.write('keyboard.html', notesPage(playground.url, [
    { id: 'embed', query: 'embed=1&panels=presets,editor,controls,plot', height: 640 },
  ]));
  const pg = await openPlayground({ url: `${host.url}keyboard.html`, waitReady: false });
  try {
    const { page } = pg;
    const frame = await (await page.$('#embed')).contentFrame();
    await frame.evaluate(() => window.muplay.ready.then(() => true));
    await frame.waitForSelector('#run:not([disabled])', { state: 'attached' });
    await page.evaluate(() => document.activeElement?.blur());

    // From the host page's top, Tab into the embed (its toolbar's Run first), then to its experiments.
    await pressUntil(page.keyboard, page, 'Tab', { tag: 'IFRAME' }, 20);
    await pressUntil(page.keyboard, frame, 'Tab', { role: 'option' }, 40);
    await pickPreset(page.keyboard, frame);
    await pressUntil(page.keyboard, frame, 'Tab', { name: 'schedule.steps' });
    await typeField(page.keyboard, String(STEPS));
    await pressUntil(page.keyboard, frame, 'Tab', { name: 'sweep.width' });
    await typeField(page.keyboard, '32, 64');
    await frame.waitForFunction(() => JSON.parse(window.muplay.muplay_get_spec()).sweep.width.join() === '32,64');
    // The embed's Run is its toolbar's (the canvas shows none): Shift+Tab up to it, Space.
    await pressUntil(page.keyboard, frame, 'Shift+Tab', { id: 'run' });
    await page.keyboard.press('Space');
    const results = await runToEnd(frame);
    assert.equal(results.runs.length, 16, 'two widths × eight learning rates');
    assert.equal((await focusedIn(frame)).id, 'run', 'the focus stays on Run, inside the embed');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'embed', 'the host page\'s focus is the iframe');
    assert.equal(await page.evaluate(() => window.scrollY), 0, 'no key scrolled the host page');
    await screenshot(page, 'keyboard-embed');
    assert.deepEqual(pg.errors, []);
  } finally {
    await pg.close();
    await host.close();
    await playground.close();
  }
});

test('the accessibility tree names the experiments, the tabs, the fields and Run / Step / Reset', T, async () => {
  const pg = await openPlayground({ suffix: '?preset=14-lr-transfer-toy-mup' });
  try {
    const { page } = pg;
    await page.waitForFunction(() => document.querySelectorAll('#semantics [role=option]').length > 30);
    const cdp = await pg.context.newCDPSession(page);
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const named = (role, name) => nodes.find((n) => n.role?.value === role && n.name?.value === name);
    const options = nodes.filter((n) => n.role?.value === 'option');
    const listbox = nodes.find((n) => n.role?.value === 'listbox');
    const presets = JSON.parse(await page.evaluate(() => window.muplay.muplay_list_presets()));
    const missing = presets.filter((p) => !options.some((o) => o.name?.value === p.name)).map((p) => p.name);
    assert.deepEqual(missing, [], 'every experiment is an option, those scrolled out of the list too');
    assert.equal(listbox?.name?.value, 'Experiments');
    const picked = named('option', PRESET);
    assert.ok(picked, 'preset 14 μP is an option');
    assert.equal(picked.properties.find((p) => p.name === 'selected')?.value.value, true);
    assert.match(picked.description?.value ?? '', /Learning-rate transfer/);
    const tabs = nodes.filter((n) => n.role?.value === 'tab').map((n) => n.name.value);
    for (const tab of ['vs step', 'vs width', 'vs learning rate', 'Fields', 'JSON']) {
      assert.ok(tabs.includes(tab), `tab ${tab}: ${tabs}`);
    }
    assert.ok(nodes.some((n) => n.role?.value === 'tablist' && n.name?.value === 'Views'));
    for (const button of ['Run (Space)', 'Step (S)', 'Reset (R)']) assert.ok(named('button', button), button);
    const widths = named('textbox', 'sweep.width');
    assert.equal(widths?.value?.value, '32, 64, 128, 256');
    assert.match(widths.description?.value ?? '', /default/);
    const steps = named('textbox', 'schedule.steps');
    assert.equal(steps?.value?.value, '100');
    const combo = named('combobox', 'optimizer.kind');
    assert.ok(combo, 'optimizer.kind is a combo box');
    console.log(`${nodes.length} nodes; ${presets.length} experiments, tabs ${tabs.join(' | ')}; sweep.width: ` +
                `"${widths.description.value.replace(/\n/g, ' / ')}"`);

    // A field with a problem: invalid, and the problem read with it.
    const loaded = await page.evaluate(() => {
      const s = JSON.parse(window.muplay.muplay_get_spec());
      s.schedule.steps = -3;
      return JSON.parse(window.muplay.muplay_load_spec(JSON.stringify(s)));
    });
    assert.equal(loaded.ok, false);
    await page.waitForFunction(() => document.querySelector('#semantics [aria-label="schedule.steps"]')
      ?.getAttribute('aria-invalid') === 'true');
    const again = (await cdp.send('Accessibility.getFullAXTree')).nodes.find((n) => n.name?.value === 'schedule.steps');
    assert.equal(again.properties.find((p) => p.name === 'invalid')?.value.value, 'true');
    assert.match(again.description.value, /schedule\.steps/);

    // A checkbox toggles once per Space; a tree node folds on Enter, its fields leave the layer, the focus stays.
    await pressUntil(page.keyboard, page, 'Tab', { name: 'model.input_bias' });
    await page.keyboard.press('Space');
    await page.waitForFunction(() => JSON.parse(window.muplay.muplay_get_spec()).model.input_bias === true);
    await pressUntil(page.keyboard, page, 'Shift+Tab', { role: 'tree', english: 'model' }, 10);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#semantics [aria-label="model.widths"]') === null);
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-expanded')), 'false');
    assert.equal(JSON.parse(await call(page, 'muplay_get_spec')).model.input_bias, true, 'toggled once');

    // In Chinese the layer names the canvas' controls as it draws them.
    await page.selectOption('#language', 'zh');
    await page.waitForFunction(() => document.querySelector('#semantics [role=tablist][aria-label="视图"]') !== null);
    const zh = (await cdp.send('Accessibility.getFullAXTree')).nodes;
    const zhTabs = zh.filter((n) => n.role?.value === 'tab').map((n) => n.name.value);
    assert.ok(zhTabs.includes('随宽度'), `the tabs in Chinese: ${zhTabs}`);
    assert.ok(zh.some((n) => n.role?.value === 'listbox' && n.name?.value === '实验'));
    assert.deepEqual(pg.errors, []);
  } finally {
    await pg.close();
  }
});

test('Firefox ESR: Tab reaches the experiments, Enter picks one, Space on the canvas\' Run trains', T, async (t) => {
  const why = missing('firefox');
  if (why) return t.skip(why);
  const server = await startServer({ root: SITE, port: 0 });
  const b = await launchEngine('firefox');
  try {
    await b.goto(`${server.url}?preset=14-lr-transfer-toy-mup`);
    await b.top.eval(() => window.muplay.ready.then(() => true));
    await b.top.waitFor(() => !document.getElementById('run').disabled &&
      document.querySelector('#semantics [role=option]') !== null);
    const keys = b.page.keyboard;
    const frame = b.page.mainFrame();
    const presets = await b.top.eval(() => JSON.parse(window.muplay.muplay_list_presets()).map((p) => p.name));
    await pressUntil(keys, frame, 'Tab', { role: 'option', english: PRESET });
    await keys.press('ArrowDown');  // preset 14 SP, next in the list
    await keys.press('Enter');
    const sp = presets.indexOf(PRESET) + 1;
    await b.top.waitFor((i) => window.muplay.muplay_preset_index() === i, sp);
    await pressUntil(keys, frame, 'Tab', { name: 'schedule.steps' });
    await typeField(keys, '10');
    await b.top.waitFor(() => JSON.parse(window.muplay.muplay_get_spec()).schedule.steps === 10);
    await pressUntil(keys, frame, 'Tab', { english: 'Run (Space)' });
    await keys.press(' ');  // (WebDriver BiDi knows Space by its character)
    await b.top.waitFor(() => window.muplay.muplay_state() === 'finished', undefined,
                        { timeout: 300_000, what: 'the run to finish' });
    assert.equal((await focusedIn(frame)).english, 'Run (Space)');
    t.diagnostic(`${b.version}: preset ${sp} (${presets[sp]}) picked and run by keys`);
    assert.deepEqual(await b.errors(), []);
  } finally {
    await b.close();
    await server.close();
  }
});
