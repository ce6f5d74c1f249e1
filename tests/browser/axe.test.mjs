// axe-core (npm, pinned in package.json) on every surface a student or a university's reviewer meets: the page as it
// opens, after a run, each dialog and menu, an embed, a phone's width, the page in Chinese, and both lecture-notes
// pages with their embeds; in Chromium and in Firefox ESR. axe runs its full default rule set (WCAG 2.0, 2.1 and 2.2
// A and AA, and its best practices); a violation is reported with its rule, its impact and the elements it names.
// The script is evaluated through the browser's automation protocol, so the page's Content-Security-Policy (no eval,
// no foreign scripts) stays as users get it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launchEngine, missing } from './engines.mjs';
import { openPlayground, ROOT, screenshot, waitFrames } from './harness.mjs';

const T = { timeout: 300_000 };
const AXE = readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

// axe's run in the document this evaluates in, as a list of "rule (impact): targets" lines. Frames are checked in
// their own documents (axeFrames), so axe does not reach into them from here.
async function runAxe() {
  const result = await window.axe.run(document, { iframes: false, resultTypes: ['violations'] });
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ` +
    v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(', '));
}

// Every frame of a playwright page: axe injected into each, run in each. Returns { url: [violation lines] } for the
// frames with any.
async function axeFrames(page) {
  const found = {};
  for (const frame of page.frames()) {
    if (frame.url() === 'about:blank') continue;
    await frame.evaluate(AXE);
    const lines = await frame.evaluate(runAxe);
    if (lines.length) found[frame.url().replace(/#.*/, '')] = lines;  // a link's hash says nothing here
  }
  return found;
}

const expectClean = (found, where) => assert.deepEqual(found, {}, `axe-core violations ${where}:\n` +
  Object.entries(found).map(([url, lines]) => `${url}\n  ${lines.join('\n  ')}`).join('\n'));

let pg;
before(async () => { pg = await openPlayground(); });
after(async () => { await pg?.close(); });

test('the page as it opens and after a run has no axe-core violation', T, async () => {
  expectClean(await axeFrames(pg.page), 'on the page as it opens');
  await pg.page.evaluate(() => window.muplay.muplay_step());
  await pg.page.waitForFunction(() => window.muplay.muplay_total_steps() > 0);
  await waitFrames(pg.page, 4);
  expectClean(await axeFrames(pg.page), 'after a step');
  assert.deepEqual(pg.errors, []);
});

test('every dialog and menu of the toolbar has no axe-core violation', T, async () => {
  const { page } = pg;
  for (const [open, what] of [['#open-share', '#share-dialog'], ['#open-saved', '#saved-dialog'],
                              ['#open-help', '#help-dialog']]) {
    await page.click(open);
    await page.waitForSelector(`${what}[open]`);
    expectClean(await axeFrames(page), `with ${what} open`);
    await screenshot(page, `axe-${what.slice(1)}`);
    await page.keyboard.press('Escape');
    await page.waitForSelector(`${what}:not([open])`, { state: 'attached' });
  }
  await page.click('#export-menu summary');
  await page.waitForSelector('#export-menu[open]');
  expectClean(await axeFrames(page), 'with the Export menu open');
  await page.keyboard.press('Escape');
});

test('an embed, a phone and the page in Chinese have no axe-core violation', T, async () => {
  for (const [suffix, viewport, where] of [
    ['?embed=1&preset=14-lr-transfer-toy-mup&panels=controls,plot', { width: 640, height: 400 }, 'in an embed'],
    ['?preset=14-lr-transfer-toy-mup', { width: 375, height: 667 }, 'on a phone'],
    ['?lang=zh', { width: 1280, height: 800 }, 'in Chinese'],
  ]) {
    const other = await openPlayground({ suffix, viewport });
    try {
      expectClean(await axeFrames(other.page), where);
      if (where === 'in Chinese') {
        await other.page.click('#open-help');
        await other.page.waitForSelector('#help-dialog[open]');
        expectClean(await axeFrames(other.page), 'in Chinese with Help open');
      }
      assert.deepEqual(other.errors, []);
    } finally {
      await other.close();
    }
  }
});

test('both lecture-notes pages and their embeds have no axe-core violation', T, async () => {
  for (const notes of ['examples/lecture-notes.html', 'examples/lecture-notes.zh.html']) {
    const other = await openPlayground({ suffix: notes, waitReady: false });
    try {
      // Each embed is loading="lazy": scroll through the notes so every one loads, then wait for each to be ready.
      const height = await other.page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0; y < height; y += 400) await other.page.evaluate((top) => window.scrollTo(0, top), y);
      const embeds = other.page.frames().filter((f) => f.url().includes('embed=1'));
      assert.ok(embeds.length >= 4, `${notes}: ${embeds.length} embeds loaded`);
      for (const frame of embeds) await frame.evaluate(() => window.muplay.ready.then(() => true));
      expectClean(await axeFrames(other.page), `on ${notes}`);
      assert.deepEqual(other.errors, []);
    } finally {
      await other.close();
    }
  }
});

test('in Firefox ESR: the page, Help and the lecture notes have no axe-core violation', T, async (t) => {
  const why = missing('firefox');
  if (why) return t.skip(why);
  const b = await launchEngine('firefox');
  try {
    const check = async (where) => {
      await b.page.evaluate(AXE);
      const lines = await b.page.evaluate(`(${runAxe})()`);
      assert.deepEqual(lines, [], `axe-core violations in Firefox ESR ${where}:\n  ${lines.join('\n  ')}`);
    };
    await b.goto(pg.url);
    await b.top.eval(() => window.muplay.ready.then(() => true));
    await b.top.waitFor(() => document.querySelector('#run:not([disabled])') !== null);
    await check('on the page');
    await b.top.click('#open-help');
    await check('with Help open');
    await b.goto(`${pg.url}examples/lecture-notes.html`);
    await b.top.waitFor(() => document.querySelectorAll('iframe').length > 0);
    await check('on the lecture notes');
    assert.deepEqual(await b.errors(), []);
  } finally {
    await b.close();
  }
});
