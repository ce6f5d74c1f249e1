// The page in a browser engine other than Chromium (tests/browser/firefox.test.mjs, webkit.test.mjs): it draws, a
// preset runs to its end, Present folds the list away and enlarges the view, a share link trains to the command line's result file byte for byte, and an embed on another
// origin runs when its host page asks. One browser per engine serves every test of its file. What the engine cannot
// do here (WebGPU, cross-origin isolation) is said in the test's output (t.diagnostic), with the fallback checked.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startServer } from '../../scripts/static-server.mjs';
import { ERROR_RECORDER, launchEngine, missing, siteWithErrorRecorder } from './engines.mjs';
import { ROOT } from './harness.mjs';
import { colourHistogram, decodePng } from './png.mjs';

const T = { timeout: 300_000 };

// The native command line's result file of `spec` (one thread, as one training worker).
function cliResult(spec) {
  const dir = mkdtempSync(path.join(tmpdir(), 'muplay-engine-'));
  try {
    writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(spec));
    const r = spawnSync(path.join(ROOT, 'build', 'native', 'engine', 'muplay'),
                        ['run', path.join(dir, 'spec.json'), '--out', path.join(dir, 'out.json'), '--quiet', '--threads', '1'],
                        { encoding: 'utf8' });
    assert.ok(r.status === 0 || r.status === 1, `muplay run: ${r.error ?? r.stderr}`);  // 1: a member diverged
    return readFileSync(path.join(dir, 'out.json'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The pixels of a PNG inside `rect` (device pixels).
function crop(png, [x0, y0, x1, y1]) {
  const [w, h] = [Math.min(x1, png.width) - x0, Math.min(y1, png.height) - y0];
  const data = Buffer.alloc(w * h * png.channels);
  for (let y = 0; y < h; y++) {
    png.data.copy(data, y * w * png.channels, ((y0 + y) * png.width + x0) * png.channels,
                  ((y0 + y) * png.width + x0 + w) * png.channels);
  }
  return { width: w, height: h, channels: png.channels, data };
}

// A host page (with the error recorder): collects every message it gets and can post to its first iframe (as tests/browser/embed.test.mjs).
const hostPage = (body) => `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script src="engine-errors.js"></script></head>
<body style="margin: 0; background: #eee"><script>
window.received = [];
addEventListener('message', (e) => received.push({ origin: e.origin, data: e.data }));
window.send = (msg) => document.querySelector('iframe').contentWindow.postMessage(msg, '*');
</script>${body}</body></html>`;

// `name`: 'firefox' or 'webkit'; `label`: how the tests name the engine.
export function engineSuite(name, label) {
  const why = missing(name);
  let b, site, server, isolatedServer, hostDir, host;
  let workerSaid = false;

  before(async () => {
    if (why) return;
    site = siteWithErrorRecorder();
    server = await startServer({ root: site.root, port: 0 });        // origin A: the playground
    isolatedServer = await startServer({ root: site.root, port: 0, isolated: true });  // as scripts/serve --isolated
    hostDir = mkdtempSync(path.join(tmpdir(), 'muplay-engine-host-'));
    host = await startServer({ root: hostDir, port: 0 });            // origin B: a page that embeds it
    b = await launchEngine(name);
  }, T);

  after(async () => {
    await b?.close();
    await host?.close();
    await server?.close();
    await isolatedServer?.close();
    site?.remove();
    if (hostDir) rmSync(hostDir, { recursive: true, force: true });
  });

  const call = (ctx, fn, ...args) => ctx.eval(([f, a]) => window.muplay[f](...a), [fn, args]);
  const json = async (ctx, fn, ...args) => JSON.parse(await call(ctx, fn, ...args));

  // Opens `url` afresh (a new document, even where only the fragment differs) and waits until the app runs and
  // page.js has opened the first experiment (the toolbar is enabled).
  async function open(url) {
    await b.goto('about:blank');
    await b.goto(url);
    const started = await b.top.eval(() => window.muplay.ready.then(() => true, (e) => String(e?.message ?? e)));
    assert.equal(started, true, `the page did not start: ${started}`);
    await b.top.waitFor(() => !document.getElementById('run').disabled, null, { what: 'the toolbar' });
  }

  // Whether the top document is the playground, started (else a test that needs it opens it).
  const onPlayground = () => b.top.eval(() => typeof window.muplay?.muplay_load_spec === 'function' &&
                                              !document.getElementById('run')?.disabled);

  // Waits for the training workers (web/js/trainer_client.js); says where the run will train.
  async function trainingPlace(t) {
    let where;
    try {
      await b.top.waitFor(() => window.muplay.muplay_trains_in_worker() > 0, null, { timeout: 30_000, what: 'workers' });
      where = `in Web Workers (${await call(b.top, 'muplay_trains_in_worker')} worker(s); ` +
              `navigator.hardwareConcurrency: ${await b.top.eval(() => navigator.hardwareConcurrency)})`;
    } catch (e) {
      if (!/^timed out/.test(e.message)) throw e;
      where = "on the page's own thread (its fallback): no training worker had started after 30 s";
    }
    if (!workerSaid) t.diagnostic(`${label}: training runs ${where}`);
    workerSaid = true;
    return where;
  }

  test(`${label}: the page draws its ImGui panels, runs the first preset to its end, no console errors`, T, async (t) => {
    if (why) return t.skip(why);
    t.diagnostic(`${label}: ${b.version}, in a window on Xvfb ${b.display} (software GL)`);
    await open(server.url);

    const caps = await b.top.eval(() => {
      const gl = document.createElement('canvas').getContext('webgl2');
      const info = gl?.getExtension('WEBGL_debug_renderer_info');
      return {
        webgl2: gl ? `${gl.getParameter(gl.VERSION)}, ${info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER)}` : null,
        webgpu: 'gpu' in navigator, isolated: globalThis.crossOriginIsolated === true,
        sab: typeof SharedArrayBuffer, build: window.muplay.build,
      };
    });
    t.diagnostic(`${label}: WebGL2: ${caps.webgl2}`);
    assert.ok(caps.webgl2, 'no WebGL2 context, yet the page started');
    // Served with plain headers (as any static host, and as the Chromium tests): not cross-origin isolated, so the
    // one-thread build runs.
    assert.equal(caps.build, 'plain');
    t.diagnostic(`${label}: cross-origin isolated: ${caps.isolated} (plain headers); SharedArrayBuffer: ${caps.sab}; ` +
                 `build: ${caps.build} (muplay.js, one thread)`);
    const backend = await json(b.top, 'muplay_backend');
    if (!caps.webgpu) {
      // No WebGPU in this engine here: the backend "auto" trains every member on the CPU.
      assert.equal(backend.gpu_started, false);
      t.diagnostic(`${label}: WebGPU: not offered (navigator.gpu is absent); backend ${backend.requested} trains on the CPU`);
    } else {
      t.diagnostic(`${label}: WebGPU: navigator.gpu present; adapter: ${backend.adapter || 'none'}`);
    }

    // The first preset, which the page opens, cut to 40 of its 150 steps (as harness.mjs's runPreset cuts presets).
    const presets = await json(b.top, 'muplay_list_presets');
    const spec = await json(b.top, 'muplay_get_spec');
    assert.equal(spec.name, presets[0].name, 'the page did not open the first preset');
    spec.schedule.steps = 40;
    assert.equal((await json(b.top, 'muplay_load_spec', JSON.stringify(spec))).ok, true);
    await trainingPlace(t);
    const start = Date.now();
    await call(b.top, 'muplay_run');
    await b.top.waitFor(() => window.muplay.muplay_state() === 'finished', null, { timeout: 240_000, polling: 200,
                                                                                   what: 'the run to finish' });
    const results = await json(b.top, 'muplay_get_results');
    t.diagnostic(`${label}: ${presets[0].path} cut to 40 steps: ${results.runs.length} runs finished in ${((Date.now() - start) / 1000).toFixed(1)} s`);
    assert.deepEqual(results.runs.map((r) => r.status), spec.sweep.width.map(() => 'finished'));

    // Frame rate over two seconds, and the frame trace (web/draw/drawn.hpp): first call turns recording on.
    const f0 = await call(b.top, 'muplay_frame_count');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const fps = ((await call(b.top, 'muplay_frame_count')) - f0) / 2;
    t.diagnostic(`${label}: ${fps.toFixed(1)} frames/s (idle page, 2 cores shared with other tests)`);
    assert.ok(fps > 0, 'the frame loop stopped');
    await call(b.top, 'muplay_drawn');
    await b.top.waitFor((f) => window.muplay.muplay_frame_count() >= f, (await call(b.top, 'muplay_frame_count')) + 2);
    const drawn = await json(b.top, 'muplay_drawn');
    const windows = drawn.windows.filter((w) => w.rect[2] - w.rect[0] > 50 && w.rect[3] - w.rect[1] > 50);
    assert.ok(windows.length >= 3, `windows laid out: ${JSON.stringify(drawn.windows.map((w) => w.name))}`);
    const labels = new Set(drawn.items.filter((i) => i.visible).map((i) => i.label));
    for (const want of ['Run (Space)', 'Step (S)', 'Reset (R)', 'vs step', presets[0].name, ...spec.sweep.width.map((w) => `n=${w}`)]) {
      assert.ok(labels.has(want), `no visible "${want}" in the frame trace`);
    }
    assert.ok(drawn.plots.some((p) => p.y.ticks.length > 1), 'no plot with ticks');
    t.diagnostic(`${label}: frame trace: ${drawn.windows.length} windows, ${drawn.items.length} items, ${drawn.plots.length} plot(s)`);

    // The screenshot's canvas area: not one blank fill.
    const png = decodePng(await b.screenshot(`${name}-smoke`));
    const rect = await b.top.eval(() => {
      const r = document.getElementById('canvas').getBoundingClientRect();
      return [r.left, r.top, r.right, r.bottom].map((v) => Math.round(v * devicePixelRatio));
    });
    const canvas = crop(png, rect);
    const counts = [...colourHistogram(canvas).values()].sort((x, y) => y - x);
    const total = canvas.width * canvas.height;
    assert.ok(total > 0.5 * png.width * png.height, `canvas ${canvas.width}×${canvas.height} of ${png.width}×${png.height}`);
    assert.ok(counts.length >= 20, `only ${counts.length} distinct colours on the canvas`);
    assert.ok(total - counts[0] > 0.05 * total, `only ${total - counts[0]} of ${total} canvas pixels differ from its background`);
    assert.deepEqual(await b.errors(), []);
  });

  // Present (index.html's button, web/js/present.js): the list and the editor fold away and the UI is drawn
  // kPresentZoom times larger; pressed again, the page is as it was.
  test(`${label}: Present folds the list away and draws the view larger; pressed again, the page is back`, T,
    async (t) => {
      if (why) return t.skip(why);
      if (!(await onPlayground())) await open(server.url);
      const frames = async (n) => b.top.waitFor((f) => window.muplay.muplay_frame_count() >= f,
                                                (await call(b.top, 'muplay_frame_count')) + n);
      const trace = async () => { await call(b.top, 'muplay_drawn'); await frames(3); return json(b.top, 'muplay_drawn'); };
      const height = (d, label) => {
        const item = d.items.find((i) => i.label === label && i.visible);
        return item ? item.rect[3] - item.rect[1] : 0;
      };
      const before = await trace();
      assert.ok(before.windows.some((w) => w.name.includes('presets')), 'no preset list before presenting');
      await b.top.click('#present');
      await frames(4);
      const zooms = await json(b.top, 'muplay_zooms');
      assert.equal(zooms.presenting, true);
      const shown = await trace();
      assert.ok(!shown.windows.some((w) => /presets|fields/.test(w.name)), 'the list or the editor is still drawn');
      const ratio = height(shown, 'vs step') / height(before, 'vs step');
      assert.ok(Math.abs(ratio - zooms.present) < 0.15, `the tab is ${ratio.toFixed(2)}× as tall at zoom ${zooms.present}`);
      await b.screenshot(`${name}-present`);
      await b.top.click('#present');
      await frames(4);
      assert.equal((await json(b.top, 'muplay_zooms')).presenting, false);
      assert.ok((await trace()).windows.some((w) => w.name.includes('presets')), 'the list did not come back');
      assert.deepEqual(await b.errors(), []);
    });

  test(`${label}: a share link trains to the command line's result file, byte for byte`, T, async (t) => {
    if (why) return t.skip(why);
    // Preset 02 cut to 60 steps: SP at learning rate 2, where width 512 diverges (at step 3); the result file records
    // that too. The link is the engine's (muplay_share_link), opened afresh.
    const spec = JSON.parse(readFileSync(path.join(ROOT, 'examples', '02-sp-toy.json'), 'utf8'));
    spec.schedule.steps = 60;
    if (!await onPlayground()) await open(server.url);
    assert.equal((await json(b.top, 'muplay_load_spec', JSON.stringify(spec))).ok, true);
    const link = await call(b.top, 'muplay_share_link');
    assert.match(link, /^s=1\./);
    const loaded = await json(b.top, 'muplay_get_spec');
    await open(`${server.url}#${link}`);
    // The link pins the backend this page resolved (auto: the CPU). Once the edit above has settled (300 ms), this
    // browser's draft is saved at the same link and wins over it (web/js/page.js: edits are never lost to a reload),
    // with the backend as edited (auto): the same experiment either way.
    const opened = await json(b.top, 'muplay_get_spec');
    assert.ok([undefined, 'cpu'].includes(opened.backend), `backend ${opened.backend}`);
    assert.deepEqual({ ...opened, backend: 'cpu' }, { ...loaded, backend: 'cpu' });
    assert.equal(await b.top.eval(() => document.getElementById('notice').hidden), true, 'the page shows a notice');
    const where = await trainingPlace(t);
    const start = Date.now();
    await call(b.top, 'muplay_run');
    await b.top.waitFor(() => window.muplay.muplay_state() === 'finished', null, { timeout: 240_000, polling: 200,
                                                                                   what: 'the run to finish' });
    const page = await call(b.top, 'muplay_result_file');
    t.diagnostic(`${label}: the link (${link.length} characters) trained its ${spec.sweep.width.length} runs ${where} in ` +
                 `${((Date.now() - start) / 1000).toFixed(1)} s; result file ${page.length} bytes`);
    assert.equal(page, cliResult(opened));
    assert.deepEqual(JSON.parse(page).runs.map((r) => r.status), ['finished', 'finished', 'finished', 'finished', 'diverged']);
    assert.deepEqual(await b.errors(), []);
  });

  test(`${label}: an embed from the share dialog, hosted on another origin, runs to finished when asked`, T, async (t) => {
    if (why) return t.skip(why);
    if (!await onPlayground()) await open(server.url);
    const spec = { version: 1, name: 'embedded in another engine', model: { widths: [8] },
                   task: { train_size: 16, test_size: 16 }, schedule: { steps: 12 }, sweep: { width: [4, 8] } };
    assert.equal((await json(b.top, 'muplay_load_spec', JSON.stringify(spec))).ok, true);
    // The snippet the share dialog offers (its defaults: panels controls and plot, no autoplay).
    await b.top.click('#open-share');
    await b.top.waitFor(() => document.getElementById('share-dialog').open &&
                              document.getElementById('embed-snippet').value.includes('embedded in another engine'));
    const snippet = await b.top.eval(() => document.getElementById('embed-snippet').value);
    await b.top.eval(() => document.getElementById('share-dialog').close());
    const A = server.url.replace(/\/$/, '');
    assert.match(snippet, new RegExp(`^<iframe src="${A}/\\?embed=1&amp;panels=controls,plot#s=1\\.[A-Za-z0-9_-]+&amp;r=1" `));
    writeFileSync(path.join(hostDir, 'host.html'), hostPage(snippet));
    writeFileSync(path.join(hostDir, 'engine-errors.js'), ERROR_RECORDER);
    await b.goto(`${host.url}host.html`);
    const readyEvent = await b.top.waitFor(() => window.received.find((m) => m.data?.event === 'ready'), null,
                                           { what: "the embed's ready event" });
    assert.equal(readyEvent.origin, A);
    await b.top.eval(() => window.send({ muplay: 1, type: 'run', id: 'run' }));
    const finished = await b.top.waitFor(() => window.received.find((m) => m.data?.event === 'finished')?.data, null,
                                         { timeout: 240_000, what: "the embed's finished event" });
    assert.deepEqual(finished.runs.map((r) => [r.width, r.status, r.steps_done]), [[4, 'finished', 12], [8, 'finished', 12]]);
    const reply = await b.top.eval(() => window.received.find((m) => m.data?.type === 'reply' && m.data.id === 'run')?.data);
    assert.equal(reply?.ok, true);
    const shot = decodePng(await b.screenshot(`${name}-embed`));
    assert.ok([...colourHistogram(shot).keys()].length >= 20, 'the host page with its embed is nearly blank');
    t.diagnostic(`${label}: the embed (origin ${A}) in a page of ${new URL(host.url).origin} ran to finished`);
    assert.deepEqual(await b.frame('iframe').eval(() => window.__engineErrors), []);
    assert.deepEqual(await b.errors(), []);
  });

  test(`${label}: served cross-origin isolated (COOP/COEP), the threaded build trains to the command line's result`, T,
    async (t) => {
      if (why) return t.skip(why);
      await open(isolatedServer.url);
      const info = await b.top.eval(() => ({ isolated: self.crossOriginIsolated === true, sab: typeof SharedArrayBuffer,
                                             build: window.muplay.build, cores: navigator.hardwareConcurrency,
                                             threads: JSON.parse(window.muplay.muplay_frame_stats()).threads }));
      const spec = { version: 1, name: 'threads in another engine', model: { widths: [16, 16] },
                     task: { train_size: 32, test_size: 32 }, schedule: { steps: 30, record_every: 5 },
                     sweep: { width: [8, 16, 32, 64] } };
      assert.equal((await json(b.top, 'muplay_load_spec', JSON.stringify(spec))).ok, true);
      if (info.isolated && info.sab === 'function') {
        assert.equal(info.build, 'threads');
        assert.ok(info.threads >= 2, `${info.threads} thread(s) on ${info.cores} core(s)`);
        t.diagnostic(`${label}: cross-origin isolated; SharedArrayBuffer; the threaded build (muplay-threads.js) ` +
                     `trains on ${info.threads} threads`);
      } else {
        // The page's fallback: the one-thread build, which must work all the same.
        assert.equal(info.build, 'plain');
        t.diagnostic(`${label}: no threads under COOP/COEP (crossOriginIsolated: ${info.isolated}, SharedArrayBuffer: ` +
                     `${info.sab}): the page falls back to its one-thread build, as on a plain host`);
      }
      await call(b.top, 'muplay_run');
      await b.top.waitFor(() => window.muplay.muplay_state() === 'finished', null, { timeout: 240_000, polling: 200,
                                                                                     what: 'the run to finish' });
      assert.equal(await call(b.top, 'muplay_result_file'), cliResult(spec));
      await b.screenshot(`${name}-isolated`);
      assert.deepEqual(await b.errors(), []);
    });
}
