// Heat maps are drawn as one texture each (web/draw/heatmap.hpp), so a large matrix no longer overflows ImGui's vertex
// indices and smears the frame (issue 20, item 2). The phase map of preset 23 is clicked at its m = 400 point with
// the mouse, then the widest two-layer net a spec allows (model widths up to 16 384, engine/spec/spec.cpp kMaxWidth)
// is drawn; each time the trace must show the cosine matrix as a texture of its rows × cols, every draw list
// addressable by its index size, and the view tabs all present in one row. Screenshots:
// build/screenshots/heatmaps-m400.png, heatmaps-m16384.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { clickImGui, openPlayground, runPreset, screenshot, waitFrames } from './harness.mjs';
import { click, drawn, plots } from './ui_driver.mjs';

const T = { timeout: 600_000 };
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const TABS = ['vs step', 'vs width', 'vs learning rate', 'embeddings', 'phenomena', 'parametrization', 'max LR'];

// The frame is whole: no draw list has more vertices than its indices can address, and the view tabs are all
// laid out in one row, left to right, inside the right-hand panel.
function assertWhole(d) {
  assert.ok(d.largest_draw_list < 2 ** (8 * d.index_bytes),
    `${d.largest_draw_list} vertices in one draw list with ${d.index_bytes}-byte indices`);
  const right = d.windows.find((w) => /^µPlayground\/right_[0-9A-F]+$/.test(w.name));
  const tabs = TABS.map((label) => d.items.find((i) => i.label === label && i.window === right.name));
  tabs.forEach((t, k) => assert.ok(t, `tab ${TABS[k]} missing`));
  for (const [k, t] of tabs.entries()) {
    const [x0, y0, x1, y1] = t.rect;
    assert.ok(y1 - y0 > 10 && y1 - y0 < 40 && x1 - x0 > 20, `tab ${TABS[k]}: ${t.rect}`);
    assert.ok(x0 >= right.rect[0] && x1 <= right.rect[2] && y0 >= right.rect[1], `tab ${TABS[k]} outside the panel`);
    assert.equal(y0, tabs[0].rect[1], `tab ${TABS[k]} not in the row`);
    if (k > 0) assert.ok(x0 >= tabs[k - 1].rect[2], `tab ${TABS[k]} overlaps ${TABS[k - 1]}`);
  }
}

// The page position of phase point (gamma, gamma') on the map, from its axes in the trace.
async function mapPoint(gamma, gammaPrime) {
  const [map] = await plots(pg.page, /^S_w/);
  assert.ok(map, 'no phase map in the trace');
  const [x0, y0, x1, y1] = map.frame;
  return { x: x0 + (gamma - map.x.lo) / (map.x.hi - map.x.lo) * (x1 - x0),
           y: y1 - (gammaPrime - map.y.lo) / (map.y.hi - map.y.lo) * (y1 - y0) };
}

const cosine = (d) => d.heatmaps.find((h) => h.id === '##cosine');

// Turns the wheel over the tab's scrolling panel until the cosine matrix is in view, for the screenshot.
async function scrollToCosine() {
  for (let i = 0; i < 30; i++) {
    const d = await drawn(pg.page);
    const panel = d.windows.find((w) => /\/phenomena tab_[0-9A-F]+$/.test(w.name));
    const h = cosine(d);
    if (h.rect[3] <= panel.rect[3]) return;
    await pg.page.mouse.move((panel.rect[0] + panel.rect[2]) / 2, (panel.rect[1] + panel.rect[3]) / 2);
    await pg.page.mouse.wheel(0, 100);
    await waitFrames(pg.page, 2);
  }
  throw new Error('the cosine matrix did not scroll into view');
}

test('the m = 400 point of the phase map: its 400 x 400 cosine matrix is one 400 x 400 texture', T, async () => {
  await runPreset(pg.page, /23-phase-diagram/, (s) => {
    s.sweep.width = [50, 400];
    s.sweep.phase_points = [[0.5, 0], [2, -0.5]];
    s.schedule.steps = 2000;
  });
  await click(pg.page, 'phenomena', { window: 'right_' });
  const p = await mapPoint(2, -0.5);
  await clickImGui(pg.page, p.x, p.y);
  await waitFrames(pg.page, 3);
  const d = await drawn(pg.page);
  assert.match(d.items.find((i) => i.label === 'run').value, /^n=400 .*gamma=2 gamma'=-0\.5$/);
  const h = cosine(d);
  assert.ok(h, 'no cosine matrix in the trace');
  assert.deepEqual([h.rows, h.cols, h.texture_w, h.texture_h], [400, 400, 400, 400]);
  assert.match(h.title, /400 neurons/);
  assert.deepEqual(h.labels, ['-1', '+1']);  // the colour bar's ends
  assertWhole(d);
  // One texture per heat map drawn; none left once the tab shows no heat map.
  assert.equal(d.heatmap_textures, d.heatmaps.length);
  await click(pg.page, 'vs step');
  await waitFrames(pg.page, 2);
  assert.equal((await drawn(pg.page)).heatmap_textures, 0);
  await click(pg.page, 'phenomena', { window: 'right_' });
  await scrollToCosine();
  await screenshot(pg.page, 'heatmaps-m400');
  assert.deepEqual(pg.errors, []);
});

test('the widest net a spec allows (m = 16384): the cosine matrix of its 1024 largest neurons, the frame whole', T,
  async () => {
    await runPreset(pg.page, /23-phase-diagram/, (s) => {
      s.sweep.width = [16384];
      s.sweep.phase_points = [[2, -0.5]];
      s.schedule.steps = 20;
      s.schedule.record_every = 10;
    });
    await click(pg.page, 'phenomena', { window: 'right_' });
    await waitFrames(pg.page, 3);
    const d = await drawn(pg.page);
    const h = cosine(d);
    assert.ok(h, 'no cosine matrix in the trace');
    assert.deepEqual([h.rows, h.cols, h.texture_w, h.texture_h], [1024, 1024, 1024, 1024]);
    assert.match(h.title, /1024 largest of 16384 neurons/);
    // The polar view draws 2 x 16384 neurons: past 16-bit indices, so the build must use 32-bit ones.
    assert.ok(d.largest_draw_list > 65536, `${d.largest_draw_list} vertices`);
    assertWhole(d);
    await scrollToCosine();
    await screenshot(pg.page, 'heatmaps-m16384');
    assert.deepEqual(pg.errors, []);
  });
