// Where the keyboard goes: a single-key shortcut acts only while an element of the page has the keyboard (never with
// the focus on <body>, where a stray R would reset a finished run); an Export item hands the keyboard back to Export,
// not to <body>; an embed that gives a key back to its host leaves the host's focus on the iframe, so the host's
// Tab goes on from there rather than from the top of the notes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startServer } from '../../scripts/static-server.mjs';
import { notesPage, startHost } from './guest_hosts.mjs';
import { SITE, openPlayground, waitFrames } from './harness.mjs';

const T = { timeout: 180_000 };
let pg;
before(async () => { pg = await openPlayground(); });
after(async () => { await pg?.close(); });

const call = (name, ...args) => pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);
const active = () => pg.page.evaluate(() => {
  const e = document.activeElement;
  return e === document.body ? 'body' : e?.id || e?.closest('[id]')?.id || e?.tagName;
});

test('Space, S and R pressed with nothing focused change nothing; on the focused panels they act', T, async () => {
  const { page } = pg;
  await call('muplay_load_preset', 0);
  await call('muplay_step');
  await page.waitForFunction(() => window.muplay.muplay_total_steps() === 1);
  await page.evaluate(() => document.activeElement?.blur());
  assert.equal(await active(), 'body');
  for (const key of ['KeyR', 'KeyS', 'Space']) {
    await page.keyboard.press(key);
    await waitFrames(page, 4);
    assert.equal(await call('muplay_total_steps'), 1, `${key} with nothing focused changed the runs`);
    assert.equal(await call('muplay_state'), 'paused');
  }
  await page.focus('#canvas');
  await page.keyboard.press('KeyS');
  await page.waitForFunction(() => window.muplay.muplay_total_steps() === 2);
  await page.keyboard.press('KeyR');
  await page.waitForFunction(() => window.muplay.muplay_total_steps() === 0);
  assert.deepEqual(pg.errors, []);
});

test('an Export item chosen with the keyboard hands the keyboard back to Export', T, async () => {
  const { page } = pg;
  await page.focus('#export-menu summary');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#export-menu[open]');
  await page.focus('#export-spec');
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  await download;
  assert.equal(await page.evaluate(() => document.activeElement === document.querySelector('#export-menu summary')),
               true, `the keyboard went to ${await active()}`);
  assert.equal(await page.evaluate(() => document.querySelector('#export-menu').open), false);
});

test('an embed that gives an arrow key back scrolls the notes and leaves the host\'s keyboard on its iframe', T, async () => {
  const playground = await startServer({ root: SITE, port: 0 });
  const host = await startHost();
  const notes = notesPage(playground.url, [{ id: 'plot', query: 'embed=1&panels=plot' }], { gap: 2 })
    .replace(/<body([^>]*)>/, '<body$1><a id="before" href="#before">before the embed</a>')
    .replace('</body>', '<a id="after" href="#after">after the embed</a></body>');
  host.write('notes.html', notes);
  const other = await openPlayground({ url: `${host.url}notes.html`, waitReady: false });
  try {
    const { page } = other;
    const frame = await (await page.$('#plot')).contentFrame();
    await frame.evaluate(() => window.muplay.ready.then(() => true));
    const box = await page.locator('#plot').boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.6);
    const hostActive = () => page.evaluate(() => document.activeElement.id || document.activeElement.tagName);
    assert.equal(await hostActive(), 'plot');
    const before = await page.evaluate(() => window.scrollY);
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction((y) => window.scrollY > y, before, { timeout: 10_000 });
    assert.equal(await hostActive(), 'plot', 'the host\'s keyboard stays on the embed\'s iframe');
    assert.equal(await frame.evaluate(() => document.activeElement === document.body), true,
                 'inside the embed nothing keeps the keyboard, so its shortcuts stop');
    await page.keyboard.press('PageDown');
    await page.waitForFunction((y) => window.scrollY > y + 200, before, { timeout: 10_000 });
    // Tab goes on from where the keyboard is: into the embed's next control, or past it; never to the top of the notes.
    await page.keyboard.press('Tab');
    assert.ok(['plot', 'after'].includes(await hostActive()), `Tab went to ${await hostActive()}`);
    assert.deepEqual(other.errors, []);
  } finally {
    await other.close();
    await host.close();
    await playground.close();
  }
});
