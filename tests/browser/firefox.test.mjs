// The page in Firefox ESR (Gecko), driven by puppeteer-core over WebDriver BiDi: the system's firefox-esr in a
// window on a private Xvfb display (tests/browser/engines.mjs), where it has WebGL2 (Mesa llvmpipe). The shared tests
// are tests/browser/engine_suite.mjs; headless Firefox ESR offers no WebGL2, and the last test checks that the page
// then says so.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServer } from '../../scripts/static-server.mjs';
import { engineSuite } from './engine_suite.mjs';
import { launchEngine, missing } from './engines.mjs';
import { SITE } from './harness.mjs';

engineSuite('firefox', 'Firefox ESR');

test('Firefox ESR headless: no WebGL2, and the page says so instead of drawing', { timeout: 180_000 }, async (t) => {
  const why = missing('firefox');
  if (why) return t.skip(why);
  const server = await startServer({ root: SITE, port: 0 });
  const b = await launchEngine('firefox', { headless: true });
  try {
    await b.goto(server.url);
    const webgl2 = await b.top.eval(() => document.createElement('canvas').getContext('webgl2') !== null);
    const failed = await b.top.eval(() => window.muplay.ready.then(() => null, (e) => e.message));
    if (webgl2) {  // a later Firefox may offer WebGL2 headless: then the page must simply start
      t.diagnostic(`${b.version} headless now offers WebGL2: the page started (${failed === null})`);
      assert.equal(failed, null);
      return;
    }
    t.diagnostic(`${b.version} headless: no WebGL2 context; the page shows: ${failed}`);
    assert.match(failed, /^WebGL2 is not available in this browser/);
    assert.equal(await b.top.eval(() => document.querySelector('[role=alert]').hidden), false);
    assert.equal(await b.top.eval(() => document.getElementById('loading').hidden), true);
    await b.screenshot('firefox-headless-no-webgl2');
    assert.deepEqual(await b.errors(), []);
  } finally {
    await b.close();
    await server.close();
  }
});
