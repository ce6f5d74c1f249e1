// Your own data in the page (task.kind "table", web/js/tables.js): scikit-learn's CSV files (Debian's
// python3-sklearn) dropped on the page and set up in the Data window with the mouse; the learning-rate transfer preset
// run on one, bit for bit what `muplay run` gives for the spec the page exports; a link carrying a small data set
// reproduces the result file in a fresh browser; a link to a larger one asks for the file, refuses another file with
// both names and sizes and takes the right one; bad files say what and where and the experiment stays.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, openPlayground, screenshot, waitFrames } from './harness.mjs';
import { click, typeInto } from './ui_driver.mjs';

const T = { timeout: 900_000 };
const SKLEARN = '/usr/lib/python3/dist-packages/sklearn/datasets/data';
const MUPLAY = path.join(ROOT, 'build', 'native', 'engine', 'muplay');
const IRIS = readFileSync(path.join(SKLEARN, 'iris.csv'));
const CANCER = readFileSync(path.join(SKLEARN, 'breast_cancer.csv'));
const WINE = readFileSync(path.join(SKLEARN, 'wine_data.csv'));
// A small experiment to put a data set under: full-batch Adam, muP, two widths.
const SMALL = { version: 1, name: 'small', model: { widths: [32, 32] }, parametrization: { preset: 'mup' },
                optimizer: { kind: 'adam', lr: 0.05 }, schedule: { steps: 40, record_every: 10 },
                sweep: { width: [16, 64] }, metrics: ['train_loss', 'test_loss'] };

let pg, dir;
before(async () => {
  pg = await openPlayground();
  dir = mkdtempSync(path.join(tmpdir(), 'muplay-tables-'));
}, T);
after(async () => {
  await pg?.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (page, name, ...args) => page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);
const json = async (page, name, ...args) => JSON.parse(await call(page, name, ...args));
const pageReady = (page) => page.waitForSelector('#run:not([disabled])');

// Drops a file on the page as a file manager would: dragover, then drop, with a DataTransfer holding it.
async function drop(page, name, bytes) {
  const transfer = await page.evaluateHandle(([n, b64]) => {
    const t = new DataTransfer();
    t.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], n, { type: 'text/csv' }));
    return t;
  }, [name, bytes.toString('base64')]);
  await page.dispatchEvent('body', 'dragover', { dataTransfer: transfer });
  await page.dispatchEvent('body', 'drop', { dataTransfer: transfer });
}

// The Data window is drawn (a dropped file is read, then opened at the next frame).
const dataWindowOpen = (page) => page.waitForFunction(
  () => JSON.parse(window.muplay.muplay_drawn()).items.some((i) => i.label === 'Use this data'));

async function closeNotice(page) {
  if (await page.isVisible('#notice')) await page.click('#notice-close');
}

async function runToEnd(page) {
  await page.click('#run');
  await page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 600_000 });
  return json(page, 'muplay_get_results');
}

// The Data window's messages as drawn (noted "data: ..." by web/views/table_preview.cpp).
const dataTexts = async (page) => (await json(page, 'muplay_drawn')).text_rects
  .filter((t) => t.window.startsWith('Data') && t.text.startsWith('data: ')).map((t) => t.text.slice(6));

// Drops `name` and sets it up with real clicks: the target column (the last), classification, then Use this data.
async function bring(page, name, bytes) {
  await drop(page, name, bytes);
  await dataWindowOpen(page);
  await click(page, 'a class (classification)', { window: 'Data' });
  await click(page, 'Use this data', { window: 'Data' });
  await page.waitForFunction((n) => JSON.parse(window.muplay.muplay_get_spec()).task.table?.file === n, name);
}

// The address bar shows the editor's spec (it follows edits once they pause), with its data part once compressed.
const addressBarFollows = (page) => page.waitForFunction(() => {
  const spec = window.muplay.muplay_share_link();
  const shown = location.hash.slice(1);
  return spec !== '' && shown.startsWith(spec) && (shown !== spec || !JSON.parse(window.muplay.muplay_get_spec())
    .task.table?.file.startsWith('iris'));
});

async function openFresh(url) {
  const fresh = await openPlayground({ url });
  await pageReady(fresh.page);
  return fresh;
}

test('drop a CSV, pick its columns with the mouse, run the LR-transfer preset on it: the CLI gives the same bits', T,
  async () => {
    const { page } = pg;
    await pageReady(page);
    assert.ok(await call(page, 'muplay_load_preset', await call(page, 'muplay_find_preset', '14-lr-transfer-toy-mup')));
    await drop(page, 'breast_cancer.csv', CANCER);
    await dataWindowOpen(page);
    assert.ok((await dataTexts(page)).some((t) => /skipped, columns are numbered/.test(t)));
    // A continuous column as the target of a classification: the window says why not and Use waits.
    await click(page, '##target column 0', { window: 'Data' });
    await click(page, 'a class (classification)', { window: 'Data' });
    await waitFrames(page, 3);
    assert.ok((await dataTexts(page)).some((t) => /column 0 \("column 0"\) holds \d+ distinct values, more than 64/.test(t)),
      (await dataTexts(page)).join('\n'));
    await screenshot(page, 'table-data-window-problem');
    await click(page, '##target column 30', { window: 'Data' });
    await click(page, '##input column 0', { window: 'Data' });  // column 0 went out of the inputs as the target: back
    await waitFrames(page, 3);
    assert.ok((await dataTexts(page)).some((t) => /^Classes: 0 212, 1 357$/.test(t)), (await dataTexts(page)).join('\n'));
    await screenshot(page, 'table-data-window');
    await click(page, 'Use this data', { window: 'Data' });
    await page.waitForFunction(() => JSON.parse(window.muplay.muplay_get_spec()).task.kind === 'table');
    let spec = await json(page, 'muplay_get_spec');
    assert.deepEqual(spec.task.table.inputs, [...Array(30).keys()]);
    assert.equal(spec.task.input_dim, 30);
    assert.equal(spec.optimizer.kind, 'adam');  // the preset's sweep and optimizer stay
    assert.equal(spec.sweep.lr.length, 8);
    // Mini-batches of 32, typed into the Fields editor.
    await typeInto(page, '##schedule.batch_size', '32', { window: 'fields' });
    spec = await json(page, 'muplay_get_spec');
    assert.equal(spec.schedule.batch_size, 32);
    const result = await runToEnd(page);
    assert.equal(result.runs.length, 32);
    const curves = (await json(page, 'muplay_view_curves', 'lr', '', 0)).curves;
    assert.ok(curves.length >= 4, JSON.stringify(curves.map((c) => c.label)));
    console.log(`vs learning rate: ${curves.map((c) => `${c.label}: ${c.x.length} points`).join('; ')}`);
    await screenshot(page, 'table-lr-transfer');

    // The spec the page exports, run by the command line beside the same file: the same result document.
    writeFileSync(path.join(dir, 'cancer.json'), await call(page, 'muplay_spec_file'));
    copyFileSync(path.join(SKLEARN, 'breast_cancer.csv'), path.join(dir, 'breast_cancer.csv'));
    execFileSync(MUPLAY, ['run', path.join(dir, 'cancer.json'), '--out', path.join(dir, 'cli.json'), '--quiet']);
    const cli = JSON.parse(readFileSync(path.join(dir, 'cli.json'), 'utf8'));
    assert.deepEqual(result.runs.map((r) => r.series), cli.runs.map((r) => r.series));

    // Export → PyTorch: the zip holds the data file, byte for byte (stored), beside train.py.
    await page.click('#export-menu summary');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-torch')]);
    const zip = readFileSync(await download.path());
    assert.ok(zip.includes(Buffer.from('-pytorch/breast_cancer.csv')), 'no data file in the zip');
    assert.ok(zip.includes(CANCER), 'the zip does not hold the data file as it is');
    assert.ok(zip.includes(Buffer.from('-pytorch/train.py')));
  });

test('a link carries a small data set: a fresh browser reproduces the result file', T, async () => {
  const { page } = pg;
  assert.equal((await json(page, 'muplay_load_spec', JSON.stringify(SMALL))).ok, true);
  await bring(page, 'iris.csv', IRIS);
  const here = await runToEnd(page);
  await addressBarFollows(page);
  assert.match(await page.evaluate(() => location.hash), /&d=/);
  const link = await page.evaluate(() => location.href);
  console.log(`link with iris.csv inside: ${link.length} characters`);
  const fresh = await openFresh(link);
  try {
    assert.equal(await fresh.page.evaluate(() => document.getElementById('table-dialog').open), false);
    const there = await runToEnd(fresh.page);
    assert.equal(JSON.stringify(there.runs), JSON.stringify(here.runs));
    assert.deepEqual(fresh.errors, []);
  } finally {
    await fresh.close();
  }
});

test('a link to a larger data set asks for it, refuses another file and takes the right one', T, async () => {
  const { page } = pg;
  assert.equal((await json(page, 'muplay_load_spec', JSON.stringify(SMALL))).ok, true);
  await bring(page, 'breast_cancer.csv', CANCER);
  await addressBarFollows(page);
  await page.click('#open-share');
  await page.waitForFunction(() => !document.getElementById('share-data').hidden);
  assert.match(await page.textContent('#share-data'), /breast_cancer\.csv is \d+ KiB compressed, more than the 32 KiB/);
  const link = await page.inputValue('#share-link');
  assert.ok(!link.includes('&d='), 'the large data set rode in the link');
  await page.keyboard.press('Escape');

  const fresh = await openFresh(link);
  try {
    const p = fresh.page;
    await p.waitForFunction(() => document.getElementById('table-dialog').open);
    assert.match(await p.textContent('#table-wanted'), /trains on breast_cancer\.csv \(119913 bytes, SHA-256 [0-9a-f]{12}…\)/);
    await screenshot(p, 'table-asked-for');
    await p.setInputFiles('#table-file', { name: 'wine_data.csv', mimeType: 'text/csv', buffer: WINE });
    await p.waitForFunction(() => document.getElementById('table-refused').textContent !== '');
    assert.match(await p.textContent('#table-refused'),
      /^You chose wine_data\.csv \(11157 bytes, sha256 [0-9a-f]{12}…\); this experiment trains on breast_cancer\.csv \(119913 bytes, sha256 [0-9a-f]{12}…\): not the same data\. Choose breast_cancer\.csv\.$/);
    assert.equal(await p.evaluate(() => document.getElementById('table-dialog').open), true);
    await p.setInputFiles('#table-file', { name: 'breast_cancer.csv', mimeType: 'text/csv', buffer: CANCER });
    await p.waitForFunction(() => !document.getElementById('table-dialog').open);
    const result = await runToEnd(p);
    assert.ok(result.runs.every((r) => r.status === 'finished'));
    // Kept in the browser: a reload neither asks again nor loses the experiment.
    await p.reload();
    await pageReady(p);
    await waitFrames(p, 10);
    assert.equal(await p.evaluate(() => document.getElementById('table-dialog').open), false);
    assert.equal((await json(p, 'muplay_get_spec')).task.table.file, 'breast_cancer.csv');
    assert.deepEqual((await json(p, 'muplay_get_errors')).spec, []);
  } finally {
    await fresh.close();
  }
});

test('a lecturer serves the data set beside the notes: ?data= fetches it from the same site, and no other', T, async () => {
  const { page } = pg;
  assert.equal((await json(page, 'muplay_load_spec', JSON.stringify(SMALL))).ok, true);
  await bring(page, 'breast_cancer.csv', CANCER);
  await addressBarFollows(page);
  const link = new URL(await page.evaluate(() => location.href));
  const served = (p) => p.route('**/notes/breast_cancer.csv', (route) => route.fulfill({ body: CANCER }));
  link.search = '?embed=1&panels=controls,plot&data=notes/breast_cancer.csv';
  const embed = await openPlayground({ url: link.href, beforeLoad: served });
  try {
    await embed.page.waitForFunction(() => window.muplay.muplay_state && JSON.parse(window.muplay.muplay_get_spec())
      .task?.table?.file === 'breast_cancer.csv');
    assert.equal(await embed.page.evaluate(() => document.getElementById('table-dialog').open), false);
    assert.deepEqual((await json(embed.page, 'muplay_get_errors')).spec, []);
    const result = await runToEnd(embed.page);
    assert.ok(result.runs.every((r) => r.status === 'finished'));
  } finally {
    await embed.close();
  }
  link.search = '?data=https://example.org/breast_cancer.csv';
  const other = await openFresh(link.href);
  try {
    await other.page.waitForFunction(() => document.getElementById('table-dialog').open);
    assert.match(await other.page.textContent('#notice-text'),
      /The data set https:\/\/example\.org\/breast_cancer\.csv \(\?data=\) could not be fetched: it is not on this page's site/);
  } finally {
    await other.close();
  }
});

test('bad data files say what is wrong and where; the experiment stays', T, async () => {
  const { page } = pg;
  assert.equal((await json(page, 'muplay_load_spec', JSON.stringify({ ...SMALL, name: 'kept' }))).ok, true);
  const cases = [
    ['ragged.csv', Buffer.from('a,b\n1,2\n3\n'), 'ragged.csv line 3: 1 cells, line 2 has 2'],
    ['empty.csv', Buffer.from(''), 'empty.csv is empty'],
    ['header.csv', Buffer.from('a,b,c\n'), 'header.csv has a header line and no rows of numbers'],
    ['photo.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]),
     'photo.csv is not a text file (byte 0x89 at offset 0)'],
    ['x.npy', Buffer.concat([Buffer.from('\x93NUMPY\x01\x00\x46\x00', 'latin1'),
                             Buffer.from("{'descr': '<U5', 'fortran_order': False, 'shape': (2,), }".padEnd(69) + '\n'),
                             Buffer.alloc(40)]), "x.npy: dtype '<U5' is not supported"],
  ];
  for (const [name, bytes, message] of cases) {
    await closeNotice(page);
    await drop(page, name, bytes);
    await page.waitForFunction(() => !document.getElementById('notice').hidden);
    const text = await page.textContent('#notice-text');
    assert.ok(text.startsWith(`Could not open "${name}": ${message}`), text);
    assert.equal((await json(page, 'muplay_get_spec')).name, 'kept');
  }
  await closeNotice(page);
  // Past the page's limit: refused before it is read.
  await page.evaluate(() => {  // made in the page: 33 MiB through the test driver would take minutes
    const t = new DataTransfer();
    t.items.add(new File([new Uint8Array(33 << 20).fill(49)], 'huge.csv', { type: 'text/csv' }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: t, cancelable: true }));
  });
  await page.waitForFunction(() => /huge\.csv" is 33\.0 MiB, more than the 32 MiB/.test(document.getElementById('notice-text').textContent));
  // A target column with one value.
  await closeNotice(page);
  await drop(page, 'one.csv', Buffer.from('x,y\n1,5\n2,5\n3,5\n'));
  await dataWindowOpen(page);
  await click(page, 'a class (classification)', { window: 'Data' });
  await waitFrames(page, 3);
  const texts = await dataTexts(page);
  assert.ok(texts.some((t) => /one\.csv column 1 \("y"\) holds a single class: nothing to classify/.test(t)), texts.join('\n'));
  await click(page, 'Cancel', { window: 'Data' });
  assert.equal((await json(page, 'muplay_get_spec')).name, 'kept');
  assert.deepEqual(pg.errors, []);
});
