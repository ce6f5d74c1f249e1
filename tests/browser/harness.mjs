// Shared set-up for the browser tests: serves build/site on a random 127.0.0.1 port, launches the system Chromium
// headless (playwright-core never downloads a browser), opens the page and collects console errors.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/static-server.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SITE = path.join(ROOT, 'build', 'site');
export const SCREENSHOTS = path.join(ROOT, 'build', 'screenshots');

// No network beyond loopback here: everything that could phone home is off. A fresh profile per launch.
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// Headless Chromium offers a WebGPU adapter only with this flag: SwiftShader, a software fallback (correct, slow).
export const WEBGPU_ARGS = ['--enable-unsafe-webgpu'];

// Opens the playground. Options: waitReady (default true) awaits window.muplay.ready and page.js's enabled toolbar;
// beforeLoad(page) runs before navigation (e.g. to add init scripts or routes); suffix is appended to the served URL
// ('?embed=1#s=...'); url opens another address instead (a link copied from another test's page); deviceScaleFactor
// (default 1); args: more Chromium flags (WEBGPU_ARGS for a WebGPU adapter); isolated: serve with COOP/COEP
// (scripts/serve --isolated), so the page loads its threaded build.
// Returns { page, context, errors, url (the served site's), close }.
export async function openPlayground({ waitReady = true, beforeLoad, viewport = { width: 1280, height: 800 }, suffix = '',
                                       url, deviceScaleFactor = 1, args = [], isolated = false, hasTouch = false,
                                       serviceWorkers = 'block' } = {}) {
  const server = await startServer({ root: SITE, port: 0, isolated });
  const profile = mkdtempSync(path.join(tmpdir(), 'muplay-chromium-'));
  let context;
  const close = async () => {
    await context?.close().catch(() => {});
    await server.close();
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    // A persistent context is playwright's way to pass our own fresh --user-data-dir.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium',
      args: [...CHROMIUM_ARGS, ...args],
      viewport,
      deviceScaleFactor,
      hasTouch,  // a touch screen: page.touchscreen, and CDP's Input.dispatchTouchEvent for swipes
      // The offline worker (web/js/service_worker.js) only where a test asks for it (tests/browser/offline.test.mjs):
      // requests it answers pass by page.route, and each page would fetch the whole site into its cache.
      serviceWorkers,
      acceptDownloads: true,
    });
    // Waits that name no timeout get two minutes: a loaded machine (or a VM losing CPU to steal) is several
    // times slower than an idle one, and a test that waits on frames or a run should fail on a hang, not on that.
    context.setDefaultTimeout(120_000);
    const page = context.pages()[0] ?? await context.newPage();
    const errors = [];
    page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
    page.on('pageerror', (err) => errors.push(String(err)));
    if (beforeLoad) await beforeLoad(page);
    await page.goto(url ?? server.url + suffix);
    if (waitReady) await waitForPlayground(page);
    return { page, context, errors, url: server.url, close };
  } catch (e) {
    await close();
    throw e;
  }
}

// Waits until the playground in `page` is ready for input: its module started and page.js's toolbar enabled. page.js
// wires the toolbar, the file picker and share links only after it has opened the first experiment (storage first,
// which a loaded machine can take seconds to open); it enables the toolbar in the same task. A file picked before
// that is lost.
export async function waitForPlayground(page) {
  await page.evaluate(() => window.muplay.ready.then(() => true));
  await page.waitForSelector('#run:not([disabled])', { state: 'attached' });
}

// Saves a screenshot to build/screenshots/NAME.png and returns the PNG bytes.
export async function screenshot(page, name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

// Waits until the page has drawn `n` more frames. Tests wait on frames, not milliseconds: headless Chromium's software
// GL draws several times fewer frames a second on a loaded machine than on an idle one.
export async function waitFrames(page, n) {
  const target = await page.evaluate(() => window.muplay.muplay_frame_count()) + n;
  await page.waitForFunction((t) => window.muplay.muplay_frame_count() >= t, target, { polling: 50 });
}

// One training step through the page's hook, resolved once it has arrived: the run trains in a Web Worker
// (web/js/trainer_client.js), which sends the step back in a message.
export async function stepOnce(page) {
  const before = await page.evaluate(() => window.muplay.muplay_total_steps());
  await page.evaluate(() => window.muplay.muplay_step());
  await page.waitForFunction((b) => window.muplay.muplay_total_steps() > b || window.muplay.muplay_state() === 'finished',
                             before, { polling: 20 });
}

// Clicks an ImGui widget: ImGui reacts to a press only when it sees move, down and up in separate frames.
export async function clickImGui(page, x, y) {
  await page.mouse.move(x, y);
  await waitFrames(page, 2);
  await page.mouse.down();
  await waitFrames(page, 2);
  await page.mouse.up();
  await waitFrames(page, 3);
}

// Loads the preset whose path matches `pattern`, lets `edit(spec)` shorten it, runs it to the end and returns the
// result document. Logs the wall time of the run.
export async function runPreset(page, pattern, edit) {
  const presets = JSON.parse(await page.evaluate(() => window.muplay.muplay_list_presets()));
  const index = presets.findIndex((p) => pattern.test(p.path));
  if (index < 0) throw new Error(`no preset matches ${pattern}`);
  if (!presets[index].valid) throw new Error(`invalid preset: ${JSON.stringify(presets[index])}`);
  await page.evaluate((i) => window.muplay.muplay_load_preset(i), index);
  const spec = JSON.parse(await page.evaluate(() => window.muplay.muplay_get_spec()));
  edit(spec);
  const loaded = JSON.parse(await page.evaluate((t) => window.muplay.muplay_load_spec(t), JSON.stringify(spec)));
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  const start = Date.now();
  await page.evaluate(() => window.muplay.muplay_run());
  await page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 200_000 });
  console.log(`${pattern.source}: ${((Date.now() - start) / 1000).toFixed(1)} s`);
  return JSON.parse(await page.evaluate(() => window.muplay.muplay_get_results()));
}

// Least-squares slope of log y on log x (engine/analysis/analysis.hpp's loglog_slope).
export function loglogSlope(xs, ys) {
  const lx = xs.map(Math.log), ly = ys.map(Math.log);
  const mx = lx.reduce((a, b) => a + b) / lx.length, my = ly.reduce((a, b) => a + b) / ly.length;
  let sxy = 0, sxx = 0;
  for (let i = 0; i < lx.length; i++) {
    sxy += (lx[i] - mx) * (ly[i] - my);
    sxx += (lx[i] - mx) ** 2;
  }
  return sxy / sxx;
}
