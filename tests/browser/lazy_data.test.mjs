// Data on demand: an embed of a preset without Fashion-MNIST starts without ever asking for the data files; a
// Fashion-MNIST spec fetches them (the page says it is loading), and Run pressed meanwhile trains once they are in;
// a failed fetch says why, keeps the spec, and Run tries again.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, screenshot } from './harness.mjs';

const T = { timeout: 600_000 };
const FASHION = { version: 1, name: 'Fashion-MNIST, lazily loaded', model: { widths: [32] },
  task: { kind: 'fashion_mnist', input_dim: 784, train_size: 512, test_size: 256 }, optimizer: { kind: 'adam', lr: 0.01 },
  schedule: { steps: 24, batch_size: 64, record_every: 8 }, metrics: ['train_loss', 'test_accuracy'] };

let pg;
const requests = [];
before(async () => {
  pg = await openPlayground({
    suffix: '?embed=1&panels=controls,plot,runs,status&preset=02-sp-toy',
    beforeLoad: (page) => page.on('request', (r) => requests.push(new URL(r.url()).pathname)),
  });
}, T);
after(async () => { await pg?.close(); });

const call = (name, ...args) => pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);
const dataRequests = () => requests.filter((p) => p.includes('/data/'));

test('an embed of a preset without Fashion-MNIST makes no data request', T, async () => {
  assert.match(JSON.parse(await call('muplay_get_spec')).name, /^SP on the sin toy/);
  await call('muplay_run');
  await pg.page.waitForFunction(() => window.muplay.muplay_total_steps() > 100);  // it trains
  await call('muplay_pause');
  assert.deepEqual(dataRequests(), []);
  assert.ok(requests.some((p) => p.endsWith('/muplay.wasm')), requests.join(' '));
  // Every preset is listed as valid without the data: Fashion-MNIST presets are checked against the sizes of the
  // subset this build serves (the files are checked when they arrive).
  const presets = JSON.parse(await call('muplay_list_presets'));
  assert.ok(presets.some((p) => /Fashion-MNIST/.test(p.name)) && presets.every((p) => p.valid), JSON.stringify(presets));
  assert.deepEqual(dataRequests(), []);
});

test('a failed data fetch says why, keeps the spec, and the page keeps working', T, async () => {
  const { page } = pg;
  await page.route('**/data/fashion-mnist/**', (route) => route.fulfill({ status: 404, body: 'not found' }));
  assert.deepEqual(JSON.parse(await call('muplay_load_spec', JSON.stringify(FASHION))), { ok: true, errors: [] });
  await page.waitForSelector('#notice:not([hidden])');
  assert.match(await page.textContent('#notice-text'), new RegExp('^Could not load the fashion-mnist data: ' +
               'data/fashion-mnist/train-images\\.idx3: HTTP 404.*\\. Your spec is kept; Run tries again\\.$'));
  assert.equal(JSON.parse(await call('muplay_get_spec')).name, FASHION.name);
  assert.match(JSON.parse(await call('muplay_get_errors')).message, /^Could not load the fashion-mnist data: .*HTTP 404/);
  assert.equal(await call('muplay_state'), 'idle');
  await screenshot(page, 'lazy-data-fetch-failed');
  await page.unroute('**/data/fashion-mnist/**');
  await page.click('#notice-close');
});

test('a Fashion-MNIST preset fetches the data, shows that it is loading, and trains once it is in', T, async () => {
  const { page } = pg;
  const before = dataRequests().length;
  await page.route('**/data/fashion-mnist/train-images.idx3', async (route) => {
    await new Promise((r) => setTimeout(r, 500));  // slow enough to see the loading state
    await route.continue();
  });
  // The preset, and Run at once: the app waits for the data (the status says so), then trains.
  const preset = await call('muplay_find_preset', '15-fashion-mnist-transfer-mup');
  assert.ok(preset >= 0);
  assert.equal(await call('muplay_load_preset', preset), 1);  // a valid spec in the editor; its data is on the way
  assert.equal(JSON.parse(await call('muplay_get_spec')).name, 'LR transfer on Fashion-MNIST, muP (Adam)');
  await call('muplay_run');
  await page.waitForFunction(() => /^Loading data \(fashion-mnist\)/.test(document.getElementById('bar-status').textContent));
  assert.equal(await call('muplay_data_wanted'), 'fashion-mnist');
  await screenshot(page, 'lazy-data-loading');
  // The workers train shards of the sweep side by side: wait for the first run's own first record, not for any step.
  await page.waitForFunction(() => JSON.parse(window.muplay.muplay_get_results())?.runs?.[0]?.series.train_loss?.length > 0,
                             null, { timeout: 120_000, polling: 200 });
  await call('muplay_pause');
  assert.deepEqual(dataRequests().slice(before).map((p) => p.split('/').pop()),
                   ['train-images.idx3', 'train-labels.idx1', 'test-images.idx3', 'test-labels.idx1']);
  const runs = JSON.parse(await call('muplay_get_results')).runs;
  assert.equal(runs.length, 18);
  assert.ok(Number.isFinite(runs[0].series.train_loss[0]), JSON.stringify(runs[0].series));

  // Loaded once: a shorter Fashion-MNIST spec trains to the end without fetching again, and learns.
  assert.deepEqual(JSON.parse(await call('muplay_load_spec', JSON.stringify(FASHION))), { ok: true, errors: [] });
  await call('muplay_run');
  await page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 120_000 });
  const run = JSON.parse(await call('muplay_get_results')).runs[0];
  assert.equal(run.status, 'finished');
  const accuracy = run.series.test_accuracy;
  console.log(`Fashion-MNIST in the page after on-demand loading: test accuracy ${accuracy[0]} -> ${accuracy.at(-1)}`);
  assert.ok(accuracy.at(-1) > 0.5 && accuracy.at(-1) > accuracy[0] + 0.2, `accuracy ${accuracy}`);
  assert.equal(dataRequests().length, before + 4);
  assert.deepEqual(pg.errors.filter((e) => !/404/.test(e)), []);
});
