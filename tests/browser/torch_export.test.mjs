// Export → PyTorch script (.zip): the download is a stored zip (web/js/zip.js) of `muplay export torch`'s files for the
// page's spec, byte for byte, in a folder named after the experiment; Python's zipfile reads it and checks every
// entry's CRC-32. A spec the exporter cannot express is refused with the fields at fault, and nothing changes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, openPlayground, waitFrames, stepOnce } from './harness.mjs';

const T = { timeout: 600_000 };
const MUPLAY = path.join(ROOT, 'build', 'native', 'engine', 'muplay');
const SPEC = { version: 1, name: 'Torch zip: muP sweep', model: { widths: [64, 64] }, parametrization: { preset: 'mup' },
               task: { train_size: 16, test_size: 16 }, schedule: { steps: 10, record_every: 2 },
               sweep: { width: [32, 64] }, metrics: ['train_loss', 'act_rms'] };

let pg, dir;
before(async () => {
  pg = await openPlayground();
  dir = mkdtempSync(path.join(tmpdir(), 'muplay-torch-zip-'));
}, T);
after(async () => {
  await pg?.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (name, ...args) => pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);

async function clickTorchExport() {
  await pg.page.click('#export-menu summary');
  await pg.page.click('#export-torch');
}

// Python's zipfile: the entries, after testing every one (its CRC-32 included); extracts into `into`.
function unzip(zipPath, into) {
  const script = 'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nbad = z.testzip()\nassert bad is None, bad\n' +
                 'print("\\n".join(i.filename for i in z.infolist()))\nz.extractall(sys.argv[2])\n';
  return execFileSync('/usr/bin/python3', ['-c', script, zipPath, into], { encoding: 'utf8' }).trim().split('\n');
}

test('the PyTorch zip holds muplay export torch\'s files for the spec, byte for byte', T, async () => {
  const { page } = pg;
  await page.waitForSelector('#run:not([disabled])');
  assert.equal(JSON.parse(await call('muplay_load_spec', JSON.stringify(SPEC))).ok, true);
  const [download] = await Promise.all([page.waitForEvent('download'), clickTorchExport()]);
  assert.equal(download.suggestedFilename(), 'torch-zip-mup-sweep-pytorch.zip');
  const zipPath = path.join(dir, download.suggestedFilename());
  writeFileSync(zipPath, readFileSync(await download.path()));

  const entries = unzip(zipPath, path.join(dir, 'unzipped'));
  assert.deepEqual(entries.sort(), ['README.md', 'requirements.txt', 'spec.json', 'train.py']
    .map((f) => `torch-zip-mup-sweep-pytorch/${f}`));
  // The CLI's export of the same spec (the page's own spec file, as Export → Spec writes it).
  writeFileSync(path.join(dir, 'spec.json'), await call('muplay_spec_file'));
  execFileSync(MUPLAY, ['export', 'torch', path.join(dir, 'spec.json'), '--out', path.join(dir, 'cli')]);
  const unzipped = path.join(dir, 'unzipped', 'torch-zip-mup-sweep-pytorch');
  assert.deepEqual(readdirSync(unzipped).sort(), readdirSync(path.join(dir, 'cli')).sort());
  for (const file of readdirSync(unzipped)) {
    assert.ok(readFileSync(path.join(unzipped, file)).equals(readFileSync(path.join(dir, 'cli', file))), file);
  }
  assert.match(readFileSync(path.join(unzipped, 'train.py'), 'utf8'), /^#!\/usr\/bin\/env python3\n/);
  assert.deepEqual(pg.errors, []);
});

test('a spec the exporter cannot express is refused with its fields, and nothing changes', T, async () => {
  const { page } = pg;
  // train.py scales every hidden layer with one width: unequal widths without a width sweep are refused
  const spec = { ...SPEC, name: 'Torch zip: unequal widths', model: { widths: [64, 32] }, sweep: { seeds: [0] } };
  assert.equal(JSON.parse(await call('muplay_load_spec', JSON.stringify(spec))).ok, true);
  const before = { spec: await call('muplay_get_spec'), revision: await call('muplay_spec_revision') };
  let downloads = 0;
  page.on('download', () => { downloads++; });
  await clickTorchExport();
  await page.waitForSelector('#notice:not([hidden])');
  assert.match(await page.textContent('#notice-text'),
               /^Export failed: the PyTorch script cannot express this spec:\nmodel\.widths: /);
  await waitFrames(page, 5);
  assert.equal(downloads, 0);
  assert.deepEqual({ spec: await call('muplay_get_spec'), revision: await call('muplay_spec_revision') }, before);
  await page.click('#notice-close');
  await stepOnce(page);  // the page still trains
  assert.equal(await call('muplay_total_steps'), 1);
  assert.deepEqual(pg.errors, []);
});
