// The page draws a frame only when it differs from the one on the canvas (web/draw/frame_fingerprint.hpp): at rest it
// keeps answering input every frame but draws (almost) nothing, and every change, a hover or training's progress,
// is still drawn and seen.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPlayground, waitFrames } from './harness.mjs';
import { decodePng } from './png.mjs';
import { centre, findItem, plots } from './ui_driver.mjs';

const T = { timeout: 300_000 };
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const counts = () => pg.page.evaluate(() => ({ frames: window.muplay.muplay_frame_count(),
                                               drawn: window.muplay.muplay_drawn_frame_count() }));
const since = (a, b) => ({ frames: b.frames - a.frames, drawn: b.drawn - a.drawn });

// The canvas' pixel at page point (x, y), as [r, g, b].
async function pixel(x, y) {
  const clip = { x: Math.round(x), y: Math.round(y), width: 1, height: 1 };
  const png = decodePng(await pg.page.screenshot({ clip }));
  return [...png.data.subarray(0, 3)];
}

test('at rest the page answers every frame but draws only what changed', T, async () => {
  await pg.page.mouse.move(1, 1);
  await waitFrames(pg.page, 10);
  const a = await counts();
  await new Promise((r) => setTimeout(r, 2000));
  const d = since(a, await counts());
  // The status bar's rates are refreshed twice a second: at most a frame each time they change.
  assert.ok(d.frames >= 10, `${d.frames} frames in 2 s`);
  assert.ok(d.drawn <= 5, `${d.drawn} of ${d.frames} frames drawn at rest`);
});

test('a hover is drawn: the button under the mouse changes colour on the canvas', T, async () => {
  const button = await findItem(pg.page, 'Reset (R)');
  const c = centre(button.rect);
  const at = { x: button.rect[0] + 3, y: c.y };  // inside the button, left of its label
  const before = await pixel(at.x, at.y);
  const a = await counts();
  await pg.page.mouse.move(c.x, c.y);
  await waitFrames(pg.page, 3);
  const hovered = await pixel(at.x, at.y);
  assert.ok(since(a, await counts()).drawn >= 1, 'no frame drawn after the hover');
  assert.notDeepEqual(hovered, before, `button pixel ${before} -> ${hovered}`);
  await pg.page.mouse.move(c.x, button.rect[3] + 40);  // off the button, still on the canvas
  await waitFrames(pg.page, 3);
  assert.deepEqual(await pixel(at.x, at.y), before, 'the button does not return to its colour');
});

test('training progress is drawn as it arrives', T, async () => {
  await pg.page.evaluate(() => {
    window.muplay.muplay_load_preset(window.muplay.muplay_find_preset('14-lr-transfer-toy-mup'));
    window.muplay.muplay_apply_view('step');  // its curves per step (the preset opens on vs learning rate)
  });
  await waitFrames(pg.page, 3);
  const shot = async () => Buffer.from(await pg.page.screenshot());
  const rest = await shot();
  const a = await counts();
  await pg.page.evaluate(() => window.muplay.muplay_run());
  await pg.page.waitForFunction(() => window.muplay.muplay_total_steps() > 2000, null, { polling: 50 });
  const d = since(a, await counts());
  assert.ok(d.drawn >= 3, `${d.drawn} frames drawn while training`);
  assert.ok(!(await shot()).equals(rest), 'the canvas did not change while training');
  await pg.page.evaluate(() => window.muplay.muplay_pause());
  assert.deepEqual(pg.errors, []);
});

// The plot's dark background is an opaque clear issued in draw order (web/draw/opaque_fill.hpp): it must cover the frame
// in a grey darker than the page's, under the curves (run before: preset 14, paused, its curves drawn).
test('the plot keeps its darker background, with the curves drawn over it', T, async () => {
  const [plot] = await plots(pg.page, /train_loss vs step/);
  assert.ok(plot, 'no vs step plot drawn');
  const mode = (png) => {
    const n = new Map();
    for (let i = 0; i < png.data.length; i += png.channels) {
      const key = png.data.subarray(i, i + 3).join(',');
      n.set(key, (n.get(key) ?? 0) + 1);
    }
    const [key, count] = [...n].sort((a, b) => b[1] - a[1])[0];
    return { rgb: key.split(',').map(Number), share: count / (png.width * png.height) };
  };
  const page = mode(decodePng(await pg.page.screenshot()));
  const [x0, y0, x1, y1] = plot.frame.map(Math.round);
  const inner = decodePng(await pg.page.screenshot({ clip: { x: x0 + 2, y: y0 + 2, width: x1 - x0 - 4,
                                                             height: y1 - y0 - 4 } }));
  const background = mode(inner);
  const [r, g, b] = background.rgb;
  assert.ok(r === g && g === b, `plot background ${background.rgb} is not grey`);
  assert.ok(r < page.rgb[0] && r >= page.rgb[0] - 6, `plot background ${r} against the page's ${page.rgb[0]}`);
  assert.ok(background.share > 0.5, `the background covers ${background.share} of the frame`);
  let coloured = 0;  // curve pixels: not grey
  for (let i = 0; i < inner.data.length; i += inner.channels) {
    const [pr, pg_, pb] = inner.data.subarray(i, i + 3);
    if (Math.max(pr, pg_, pb) - Math.min(pr, pg_, pb) > 40) coloured++;
  }
  assert.ok(coloured > 500, `${coloured} curve pixels in the frame`);
});
