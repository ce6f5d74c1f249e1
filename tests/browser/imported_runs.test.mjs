// Imported runs drawn over the page's: a result document of the PyTorch export (`muplay export torch`, its train.py
// run here on the CPU at widths 1024-4096, 8-32x the page's 32-128) is imported with the picker; its members are
// in the data of the vs-step, vs-width and vs-learning-rate views, the vs-width view fits the slope over the page's
// widths, the imported ones and both together, and the list in the toolbar removes it from the keyboard. A document
// of another task is refused with the reason; a malformed one is refused with the field at fault and changes nothing.
// The page's own result imported over it draws each width in the page's colour for that width (vs step and vs
// learning rate), told apart by its dashes.
// The fixture is made at test time (nothing generated is committed); it needs build/native's muplay and
// /usr/bin/python3 with torch.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, loglogSlope, openPlayground, screenshot, waitFrames, stepOnce } from './harness.mjs';
import { click, drawn } from './ui_driver.mjs';

const T = { timeout: 600_000 };
const MUPLAY = path.join(ROOT, 'build', 'native', 'engine', 'muplay');
const SPEC = {
  version: 1, name: 'Overlay test: coordinate check', model: { widths: [64, 64] }, task: { train_size: 16, test_size: 16 },
  parametrization: { preset: 'mup' }, schedule: { steps: 4, record_every: 1 },
  sweep: { width: [32, 64, 128], lr: [0.5, 1, 2], seeds: [0, 1] }, metrics: ['train_loss', 'act_delta_rms'],
};
const IMPORTED_WIDTHS = [1024, 2048, 4096];
// The "vs ..." tabs of the right-hand panel at 1280 x 800 (read off a screenshot).
const TABS = { step: 'vs step', width: 'vs width', lr: 'vs learning rate' };  // the tabs' labels

let pg, dir, resultText;
before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'muplay-imported-'));
  // The fixture: the spec exported by the engine and trained by its own train.py, one seed, at wider widths.
  writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(SPEC));
  execFileSync(MUPLAY, ['export', 'torch', path.join(dir, 'spec.json'), '--out', path.join(dir, 'project')]);
  const start = Date.now();
  execFileSync('/usr/bin/python3', ['train.py', '--widths', IMPORTED_WIDTHS.join(','), '--seeds', '0', '--device', 'cpu',
                                    '--out', path.join(dir, 'wide.result.json'), '--quiet'], { cwd: path.join(dir, 'project') });
  console.log(`train.py at widths ${IMPORTED_WIDTHS}: ${((Date.now() - start) / 1000).toFixed(1)} s`);
  resultText = readFileSync(path.join(dir, 'wide.result.json'), 'utf8');
  pg = await openPlayground();
}, T);
after(async () => {
  await pg?.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (name, ...args) => pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);
const json = async (name, ...args) => JSON.parse(await call(name, ...args));
const pick = (name, text) => pg.page.setInputFiles('#import-file', { name, mimeType: 'application/json', buffer: Buffer.from(text) });

const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

async function showTab(name, shot) {
  await click(pg.page, TABS[name]);
  await waitFrames(pg.page, 3);
  return screenshot(pg.page, shot);
}

test('a PyTorch result at wider widths is drawn over the page in every vs view, with the three slopes', T, async () => {
  const { page } = pg;
  await page.waitForSelector('#run:not([disabled])');
  assert.equal((await json('muplay_load_spec', JSON.stringify(SPEC))).ok, true);
  await call('muplay_run');
  await page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 150_000 });
  assert.equal(await page.isHidden('#imports-menu'), true);  // no imports: no list in the toolbar

  await pick('wide.result.json', resultText);
  await page.waitForFunction(() => JSON.parse(window.muplay.muplay_imports()).length === 1);
  assert.match(await page.textContent('#bar-status'), /^Imported wide\.result\.json: its runs are drawn over the page's/);
  const [set] = await json('muplay_imports');
  const header = JSON.parse(resultText);
  assert.equal(header.engine, 'pytorch');
  assert.equal(set.name, `wide.result.json \u00b7 pytorch \u00b7 ${header.device}`);
  assert.deepEqual({ drawn: set.drawn, runs: set.runs, widths: set.widths }, { drawn: true, runs: 9, widths: IMPORTED_WIDTHS });
  assert.equal(JSON.parse(await call('muplay_get_spec')).name, SPEC.name);  // the page's experiment stays
  assert.equal(await call('muplay_total_steps') > 0, true);                  // and so do its runs

  // vs step: the page's 18 members, then the 9 imported ones under the source's name.
  const step = (await json('muplay_view_curves', 'step', 'train_loss', 0)).curves;
  const imported = step.filter((c) => c.group === set.name);
  assert.equal(step.length - imported.length, 18);
  assert.deepEqual(imported.map((c) => c.label), header.runs.map((r) => `n=${r.width} lr=${r.lr} seed=${r.seed}`));
  assert.ok(imported.every((c) => c.dashed));
  assert.deepEqual(imported[0].y, header.runs[0].series.train_loss);

  // vs width at step 1: per layer the page's curve, the imported curve (lr 0.5, the page's first) and three slopes.
  const width = await json('muplay_view_curves', 'width', 'act_delta_rms', 1);
  assert.equal(width.step, 1);
  for (const series of ['act_delta_rms/h1', 'act_delta_rms/h2', 'act_delta_rms/f']) {
    const own = width.curves.find((c) => !c.group && c.label.startsWith(`${series} `));
    const theirs = width.curves.find((c) => c.group === set.name && c.label.startsWith(`${series} `));
    assert.deepEqual(own.x, SPEC.sweep.width);
    assert.deepEqual(theirs.x, IMPORTED_WIDTHS);
    const values = IMPORTED_WIDTHS.map((w) => header.runs.find((r) => r.width === w && r.lr === 0.5).series[series][1]);
    theirs.y.forEach((y, i) => close(y, values[i], `${series} at n=${IMPORTED_WIDTHS[i]}`));
    const row = width.slopes.find((r) => r.series === series);
    assert.equal(row.source, set.name);
    close(row.page, loglogSlope(own.x, own.y), `${series} page slope`);
    close(row.imported, loglogSlope(theirs.x, theirs.y), `${series} imported slope`);
    close(row.together, loglogSlope([...own.x, ...theirs.x], [...own.y, ...theirs.y]), `${series} slope of both`);
    console.log(`${series}: page ${row.page.toFixed(3)}, imported ${row.imported.toFixed(3)}, together ${row.together.toFixed(3)}`);
    // muP: the change of a hidden layer is about flat in width, from 32 to 4096 (a loose bound: one step, 2 seeds)
    if (series !== 'act_delta_rms/f') assert.ok(Math.abs(row.together) < 0.25, JSON.stringify(row));
  }

  // vs learning rate: a curve per imported width (and its eta* marker) after the page's.
  const lr = (await json('muplay_view_curves', 'lr', '', 0)).curves.filter((c) => c.group === set.name && c.label);
  assert.deepEqual(lr.map((c) => c.label.split(' ')[0]), IMPORTED_WIDTHS.map((w) => `n=${w}`));
  assert.deepEqual(lr[0].x, SPEC.sweep.lr);

  // What each tab drew, from the frame trace (looked at by hand as well: build/screenshots/imported-vs-*.png): the
  // imported set has its legend heading, and the curves drawn are the page's and the imported ones, each with points.
  for (const [tab, shot] of [['width', 'imported-vs-width'], ['lr', 'imported-vs-lr'], ['step', 'imported-vs-step']]) {
    await showTab(tab, shot);
    const shown = (await drawn(page)).plots;
    const curves = shown.flatMap((p) => p.curves).filter((c) => c.points > 0);
    console.log(`${tab}: ${curves.length} curves drawn; legend ${JSON.stringify(shown.flatMap((p) => p.legend))}`);
    assert.ok(shown.some((p) => p.legend.some((row) => row.includes('wide.result.json'))), `${tab}: no imported heading`);
    const least = { step: 18 + 9, width: 2 * 3, lr: SPEC.sweep.width.length + IMPORTED_WIDTHS.length }[tab];
    assert.ok(curves.length >= least, `${tab}: ${curves.length} curves drawn, fewer than ${least}`);
  }
  assert.deepEqual(pg.errors, []);
});

test('the toolbar lists the imported set and removes it from the keyboard', T, async () => {
  const { page } = pg;
  await showTab('width', 'imported-vs-width');  // the view a removal must clear
  await page.focus('#imports-summary');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#imports-list li');
  assert.match(await page.textContent('#imports-list li span'), /^wide\.result\.json · pytorch · .*: 9 runs, n=1024–4096$/);
  assert.match(await page.textContent('#imports-menu'), /Imported runs are not part of the share link/);
  await screenshot(page, 'imported-list');
  await page.keyboard.press('Tab');  // the set's ✕
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')),
               `Remove the imported runs of ${(await json('muplay_imports'))[0].name}`);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => JSON.parse(window.muplay.muplay_imports()).length === 0);
  await page.waitForSelector('#imports-menu', { state: 'hidden' });
  assert.equal(await page.evaluate(() => document.activeElement.id), 'import');  // the keyboard stays in the toolbar
  const width = await json('muplay_view_curves', 'width', 'act_delta_rms', 1);
  assert.deepEqual({ imported: width.curves.filter((c) => c.group).length, slopes: width.slopes.length }, { imported: 0, slopes: 0 });
});

test('a result of another task is not drawn, and says why', T, async () => {
  const { page } = pg;
  const other = JSON.parse(resultText);
  other.spec.task.kind = 'fashion_mnist';
  await pick('other-task.result.json', JSON.stringify(other));
  await page.waitForSelector('#notice:not([hidden])');
  assert.match(await page.textContent('#notice-text'),
               /^The runs of "other-task\.result\.json" are not drawn: it trained mlp on fashion_mnist and the page's experiment is mlp on sin_regression: /);
  assert.deepEqual(await json('muplay_imports'), []);
  await page.click('#notice-close');
});

test('a malformed result document is refused with the field at fault, and nothing changes', T, async () => {
  const { page } = pg;
  await pick('wide.result.json', resultText);  // one imported set to keep
  await page.waitForFunction(() => JSON.parse(window.muplay.muplay_imports()).length === 1);
  const specBefore = await call('muplay_get_spec'), stepsBefore = await call('muplay_total_steps');
  const broken = JSON.parse(resultText);
  broken.runs[1].series.train_loss[2] = 'NaN';
  delete broken.runs[3].recorded_steps;
  await pick('broken.result.json', JSON.stringify(broken));
  await page.waitForSelector('#notice:not([hidden])');
  assert.equal(await page.textContent('#notice-text'), 'Could not open "broken.result.json":\n' +
               'runs[1].series.train_loss[2]: not a number or null\n(and 1 more problems)');
  await screenshot(page, 'imported-malformed');
  await page.click('#notice-close');
  await pick('cut.result.json', resultText.slice(0, resultText.length / 2));
  await page.waitForSelector('#notice:not([hidden])');
  assert.match(await page.textContent('#notice-text'), /^Could not open "cut\.result\.json":\nnot valid JSON/);
  await page.click('#notice-close');
  // Nothing was lost, and the page still works: the spec, the runs, the imported set; a reset and a step train.
  assert.equal(await call('muplay_get_spec'), specBefore);
  assert.equal(await call('muplay_total_steps'), stepsBefore);
  assert.equal((await json('muplay_imports')).length, 1);
  await call('muplay_reset');
  await stepOnce(page);
  await waitFrames(page, 3);
  assert.equal(await call('muplay_total_steps'), 1);
  assert.deepEqual(pg.errors, []);
});

test('a width the page draws keeps the page\'s colour in an imported set', T, async () => {
  const { page } = pg;
  for (const set of await json('muplay_imports')) await call('muplay_remove_import', 0);
  await pick('same.result.json', await call('muplay_result_file'));
  await page.waitForFunction(() => JSON.parse(window.muplay.muplay_imports()).length === 1);
  const [set] = await json('muplay_imports');
  for (const [view, series] of [['step', 'train_loss'], ['lr', 'train_loss']]) {
    const curves = (await json('muplay_view_curves', view, series, 0)).curves.filter((c) => c.label);
    const imported = curves.filter((c) => c.group === set.name), own = curves.filter((c) => !c.group);
    assert.ok(imported.length > 0 && own.length > 0, `${view}: ${JSON.stringify(curves.map((c) => c.label))}`);
    // vs step: a run's label ("n=32 lr=0.5 seed=0"); vs learning rate: the net's name before its eta* ("n=32").
    const net = (c) => (view === 'lr' ? c.label.split('  ')[0] : c.label);
    for (const c of imported) {
      const mine = own.find((o) => net(o) === net(c));
      assert.ok(mine, `${view}: no page curve ${c.label}`);
      assert.equal(c.colour, mine.colour, `${view}: ${c.label} is ${c.colour} imported, ${mine.colour} on the page`);
      assert.equal(c.dashed, true);
    }
  }
  await showTab('step', 'imported-same-widths');
  await call('muplay_remove_import', 0);
});
