// The page boots: the module runs, ImGui draws, the JS hook answers, and failures are shown, not silent.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, screenshot } from './harness.mjs';
import { colourHistogram, decodePng } from './png.mjs';

// Generous per-test limits (a cold Chromium start on a busy 2-core machine takes seconds), so that a page that
// never becomes ready fails the test instead of hanging the run.
const T = { timeout: 600_000 };

let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

test('page loads without console errors and hides the loading and error notices', T, async () => {
  assert.deepEqual(pg.errors, []);
  assert.equal(await pg.page.isVisible('#loading'), false);
  assert.equal(await pg.page.isVisible('[role=alert]'), false);
});

test('the canvas shows the ImGui window, not a blank fill', T, async () => {
  const png = decodePng(await screenshot(pg.page, 'smoke'));
  const counts = [...colourHistogram(png).values()].sort((a, b) => b - a);
  const total = png.width * png.height;
  // The background is one colour; an ImGui window with text adds a sizeable area of other colours.
  assert.ok(counts.length >= 3, `only ${counts.length} distinct colours`);
  assert.ok(total - counts[0] > 0.02 * total, `only ${total - counts[0]} of ${total} pixels differ from the background`);
});

test('window.muplay exposes the C exports', T, async () => {
  const version = await pg.page.evaluate(() => window.muplay.muplay_version());
  assert.equal(typeof version, 'string');
  assert.match(version, /ImGui 1\.86/);
  const f0 = await pg.page.evaluate(() => window.muplay.muplay_frame_count());
  await pg.page.waitForFunction((f) => window.muplay.muplay_frame_count() > f, f0);  // the frame loop runs
});

// Failure paths: the page must say what went wrong instead of staying blank.
async function alertTextWith(name, beforeLoad) {
  const p = await openPlayground({ waitReady: false, beforeLoad });
  try {
    const rejected = await p.page.evaluate(() => window.muplay.ready.then(() => false, () => true));
    assert.equal(rejected, true, 'muplay.ready should reject');
    assert.equal(await p.page.isVisible('#loading'), false);
    await screenshot(p.page, name);
    return await p.page.textContent('[role=alert]');
  } finally {
    await p.close();
  }
}

test('without WebGL2 the page shows an error', T, async () => {
  const text = await alertTextWith('error-no-webgl2', (page) => page.addInitScript(() => {
    const getContext = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
      return type === 'webgl2' ? null : getContext.call(this, type, ...rest);
    };
  }));
  assert.match(text, /WebGL2/);
});

test('a missing wasm file shows an error', T, async () => {
  const text = await alertTextWith('error-no-wasm', (page) => page.route('**/muplay.wasm', (route) => route.abort()));
  assert.match(text, /stopped/);
});
