// The page in WebKitGTK (WebKit, the engine of Safari), driven over W3C WebDriver classic by WebKitWebDriver, whose
// browser is WebKitGTK's MiniBrowser, in a window on a private Xvfb display (tests/browser/engines.mjs), where it has
// WebGL2. The shared tests are tests/browser/engine_suite.mjs. MiniBrowser has no headless mode: the last test checks
// that it cannot start without a display, which is why these tests use Xvfb.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { engineSuite } from './engine_suite.mjs';
import { miniBrowserWithoutDisplay, missing } from './engines.mjs';

engineSuite('webkit', 'WebKitGTK');

test('WebKitGTK headless: MiniBrowser cannot start without a display (so the tests above use Xvfb)', { timeout: 60_000 },
  async (t) => {
    const why = missing('webkit');
    if (why) return t.skip(why);
    const { status, output } = miniBrowserWithoutDisplay();
    t.diagnostic(`MiniBrowser --automation without DISPLAY: exit ${status}: ${output.split('\n').at(-1)}`);
    assert.match(output, /cannot open display/);
  });
