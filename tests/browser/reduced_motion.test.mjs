// prefers-reduced-motion: while a sweep trains, the canvas draws training's progress at most once a second (counted by
// muplay_drawn_frame_count), yet keeps answering every frame, and a move of the mouse is drawn at once; without the
// setting the same run is drawn several times a second. No CSS transition or animation runs in the page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, waitFrames } from './harness.mjs';
import { centre, findItem } from './ui_driver.mjs';

const T = { timeout: 300_000 };
let pg;
before(async () => {
  pg = await openPlayground({ beforeLoad: (page) => page.emulateMedia({ reducedMotion: 'reduce' }) });
  const { page } = pg;
  await page.mouse.move(1, 1);
  const presets = JSON.parse(await page.evaluate(() => window.muplay.muplay_list_presets()));
  await page.evaluate((i) => window.muplay.muplay_load_preset(i), presets.findIndex((p) => /01-sp-vs-mup/.test(p.path)));
  const spec = JSON.parse(await page.evaluate(() => window.muplay.muplay_get_spec()));
  spec.schedule.steps = 10_000;  // trains for the whole test; reset at the end
  const loaded = JSON.parse(await page.evaluate((t) => window.muplay.muplay_load_spec(t), JSON.stringify(spec)));
  assert.ok(loaded.ok, loaded.errors.join('\n'));
  await page.evaluate(() => window.muplay.muplay_run());
  await page.waitForFunction(() => window.muplay.muplay_total_steps() > 20);
}, T);
after(async () => {
  await pg?.page.evaluate(() => window.muplay.muplay_reset()).catch(() => {});
  await pg?.close();
});

const counts = () => pg.page.evaluate(() => ({ frames: window.muplay.muplay_frame_count(),
                                               drawn: window.muplay.muplay_drawn_frame_count(),
                                               steps: window.muplay.muplay_total_steps(), at: performance.now() }));

// Frames answered and drawn per second over `ms` of training with the mouse still.
async function rates(ms) {
  const a = await counts();
  await new Promise((r) => setTimeout(r, ms));
  const b = await counts();
  const s = (b.at - a.at) / 1000;
  return { frames: (b.frames - a.frames) / s, drawn: (b.drawn - a.drawn) / s, steps: b.steps - a.steps };
}

test('under reduced motion, training is drawn at most once a second; input at once', T, async () => {
  const { page } = pg;
  const reduced = await rates(4000);
  console.log(`reduced motion: ${reduced.frames.toFixed(1)} frames/s answered, ${reduced.drawn.toFixed(2)} drawn/s, ` +
              `${reduced.steps} steps`);
  assert.ok(reduced.steps > 0, 'training did not go on');
  assert.ok(reduced.frames >= 3, `the page answers ${reduced.frames} frames/s`);
  assert.ok(reduced.drawn <= 1.3, `${reduced.drawn} frames/s drawn while training`);

  // A hover over Reset is drawn within a few frames, not at the next second.
  const reset = await findItem(page, 'Reset (R)');
  await waitFrames(page, 2);
  const before = await counts();
  await page.mouse.move(centre(reset.rect).x, centre(reset.rect).y);
  await page.waitForFunction((b) => window.muplay.muplay_drawn_frame_count() > b.drawn, before, { polling: 10 });
  const after = await counts();
  assert.ok(after.at - before.at < 900, `the hover was drawn ${after.at - before.at} ms later`);
  await page.mouse.move(1, 1);

  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await waitFrames(page, 3);
  const full = await rates(2000);
  console.log(`no preference: ${full.frames.toFixed(1)} frames/s, ${full.drawn.toFixed(2)} drawn/s`);
  assert.ok(full.drawn >= 2.5, `without reduced motion only ${full.drawn} frames/s drawn while training`);
  await page.emulateMedia({ reducedMotion: 'reduce' });
});

test('no CSS transition or animation runs', T, async () => {
  const { page } = pg;
  await page.click('#open-help');
  const found = await page.evaluate(() => {
    const moving = [...document.querySelectorAll('*')].filter((el) => {
      const s = getComputedStyle(el);
      return s.transitionDuration.split(',').some((d) => parseFloat(d) > 0) ||
             s.animationName !== 'none' || s.scrollBehavior === 'smooth';
    }).map((el) => el.id || el.tagName);
    return { moving, animations: document.getAnimations().length };
  });
  await page.keyboard.press('Escape');
  assert.deepEqual(found, { moving: [], animations: 0 });
  assert.deepEqual(pg.errors, []);
});
