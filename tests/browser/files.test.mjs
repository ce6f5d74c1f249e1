// Export and import: the downloaded spec, metrics (CSV) and result document are the very files `muplay` reads and
// writes (byte for byte, for the same spec); the plot downloads as a PNG of what is on screen; a spec or result file
// opens from the file picker or by drag and drop, and a bad one says why.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, openPlayground, screenshot } from './harness.mjs';
import { colourHistogram, decodePng } from './png.mjs';

const T = { timeout: 600_000 };
const MUPLAY = path.join(ROOT, 'build', 'native', 'engine', 'muplay');
const SPEC = { version: 1, name: 'Files test: tiny sweep', model: { widths: [8] }, task: { train_size: 16, test_size: 16 },
               schedule: { steps: 10, record_every: 2 }, sweep: { width: [4, 8] }, metrics: ['train_loss', 'test_loss', 'act_rms'] };

let pg, dir;
before(async () => {
  pg = await openPlayground();
  dir = mkdtempSync(path.join(tmpdir(), 'muplay-files-'));
}, T);
after(async () => {
  await pg?.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (name, ...args) => pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);

// Clicks an entry of the Export menu; returns the download's file name and bytes.
async function exported(id) {
  const { page } = pg;
  await page.click('#export-menu summary');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`#${id}`)]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

test('the exported spec, CSV and result files are byte for byte what muplay reads and writes', T, async () => {
  const { page } = pg;
  await page.waitForSelector('#run:not([disabled])');
  assert.equal(JSON.parse(await call('muplay_load_spec', JSON.stringify(SPEC))).ok, true);
  const spec = await exported('export-spec');
  assert.equal(spec.name, 'files-test-tiny-sweep.spec.json');
  assert.equal(spec.bytes.toString(), await call('muplay_spec_file'));
  const specPath = path.join(dir, spec.name);
  writeFileSync(specPath, spec.bytes);
  assert.match(execFileSync(MUPLAY, ['validate', specPath], { encoding: 'utf8' }), /valid \(Files test: tiny sweep\)/);

  await call('muplay_run');
  await page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 120_000 });
  const csv = await exported('export-csv');
  const results = await exported('export-results');
  assert.equal(csv.name, 'files-test-tiny-sweep.metrics.csv');
  assert.equal(results.name, 'files-test-tiny-sweep.result.json');
  execFileSync(MUPLAY, ['run', specPath, '--out', path.join(dir, 'cli.json'), '--csv', path.join(dir, 'cli.csv'), '--quiet']);
  assert.equal(results.bytes.toString(), readFileSync(path.join(dir, 'cli.json'), 'utf8'));
  assert.equal(csv.bytes.toString(), readFileSync(path.join(dir, 'cli.csv'), 'utf8'));
  const rows = csv.bytes.toString().trim().split('\n');
  assert.equal(rows[0], 'width,lr,seed,status,step,train_loss,test_loss,act_rms/h1,act_rms/f');
  assert.equal(rows.length, 1 + 2 * 6);  // two runs, steps 0, 2, ..., 10
  assert.equal(JSON.parse(results.bytes).schema, 'muplay-result');
});

test('the plot downloads as a PNG of what is on screen', T, async () => {
  const png = await exported('export-png');
  assert.equal(png.name, 'files-test-tiny-sweep.plot.png');
  const image = decodePng(png.bytes);
  assert.ok(image.width > 400 && image.height > 200, `${image.width} x ${image.height}`);
  assert.ok(colourHistogram(image).size > 30, 'the exported plot looks blank');
  writeFileSync(path.join(ROOT, 'build', 'screenshots', 'exported-plot.png'), png.bytes);
});

test('import a spec, an old-version spec and a result file with the picker; a bad file says why', T, async () => {
  const { page } = pg;
  const pick = (name, text) => page.setInputFiles('#import-file', { name, mimeType: 'application/json', buffer: Buffer.from(text) });

  await pick('other.spec.json', JSON.stringify({ ...SPEC, name: 'imported spec' }));
  await page.waitForFunction(() => JSON.parse(window.muplay.muplay_get_spec()).name === 'imported spec');
  await pick('old.json', readFileSync(path.join(ROOT, 'tests', 'fixtures', 'v0_spec.json')));
  await page.waitForFunction(() => JSON.parse(window.muplay.muplay_get_spec()).parametrization.preset === 'sp');
  assert.equal((JSON.parse(await call('muplay_get_spec'))).optimizer.lr, 0.05);
  await pick('cli.json', readFileSync(path.join(dir, 'cli.json')));  // a result document: its spec opens
  await page.waitForFunction(() => JSON.parse(window.muplay.muplay_get_spec()).name === 'Files test: tiny sweep');

  await pick('broken.json', '{"version": 1, "model": {"widths": [8, 0]}, "colour": 2}');
  await page.waitForSelector('#notice:not([hidden])');
  assert.match(await page.textContent('#notice-text'),
               /^Could not open "broken\.json":\nmodel\.widths\[1\]: 0 is not in \[1, 16384\]\n\(and 1 more problems\)$/);
  await screenshot(page, 'import-error');
  await page.click('#notice-close');
  await pick('notes.txt', 'not json at all');
  await page.waitForSelector('#notice:not([hidden])');
  assert.match(await page.textContent('#notice-text'), /Could not open "notes\.txt":\nnot valid JSON/);
  // The editor keeps what it had (here the broken spec, shown with its problems for the user to fix).
  assert.deepEqual(JSON.parse(await call('muplay_get_spec')).model.widths, [8, 0]);
});

test('a spec file dropped on the page opens', T, async () => {
  const { page } = pg;
  await page.evaluate((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], 'dropped.json', { type: 'application/json' }));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    }
  }, JSON.stringify({ ...SPEC, name: 'dropped spec' }));
  await page.waitForFunction(() => JSON.parse(window.muplay.muplay_get_spec()).name === 'dropped spec');
  assert.equal(await page.isVisible('#drop-hint'), false);
  assert.deepEqual(pg.errors, []);
});
