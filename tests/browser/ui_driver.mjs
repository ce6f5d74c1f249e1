// Drives the ImGui canvas as a person would. The page's frame trace (window.muplay.muplay_drawn, web/draw/drawn.hpp) says
// where every widget was laid out in the last frame, by its label; these helpers find a widget there and act on it
// with real mouse, wheel and keyboard events only. What a view shows (ticks, legend rows, hover text, heat-map
// textures, panel rectangles) is read back from the same trace.
import { clickImGui, waitFrames } from './harness.mjs';

// The trace's rectangles are in the canvas' CSS pixels; the mouse moves in the page's, and the toolbar sits above
// the canvas. Every [x0, y0, x1, y1] of the trace is moved by the canvas' offset.
function toPage(d, offset) {
  const move = (r) => [r[0] + offset.x, r[1] + offset.y, r[2] + offset.x, r[3] + offset.y];
  for (const list of [d.items, d.windows, d.plots, d.heatmaps, d.text_rects ?? []]) {
    for (const x of list) x.rect = move(x.rect);
  }
  for (const p of d.plots) {
    p.frame = move(p.frame);
    p.legend_rect = move(p.legend_rect);
  }
  return d;
}

// The last frame's trace, in page coordinates. The first call turns recording on, so it waits for two frames drawn
// with it.
export async function drawn(page) {
  const read = () => page.evaluate(() => {
    const r = document.getElementById('canvas').getBoundingClientRect();
    return { d: window.muplay.muplay_drawn(), offset: { x: r.left, y: r.top } };
  });
  let { d, offset } = await read();
  if (JSON.parse(d).items.length === 0) {
    await waitFrames(page, 2);
    ({ d, offset } = await read());
  }
  return toPage(JSON.parse(d), offset);
}

// A translated widget keeps its English label as its id, after "###" (web/draw/i18n.hpp, tr_label: "运行###Run##main"):
// its English label ("Run") and its English id ("Run##main"), the same in both languages.
export const englishId = (item) => (item.id.includes('###') ? item.id.slice(item.id.indexOf('###') + 3) : item.id);
export const englishLabel = (item) => englishId(item).split('##')[0] || item.label;

// A label matches a string exactly (its visible label, its whole id, "##optimizer.lr", or its English label or id, in
// any language) or a RegExp.
function matches(item, match) {
  const names = [item.label, item.id, englishId(item), englishLabel(item)];
  return names.some((name) => (match instanceof RegExp ? match.test(name) : name === match));
}

export const centre = (rect) => ({ x: (rect[0] + rect[2]) / 2, y: (rect[1] + rect[3]) / 2 });
export const inside = (inner, outer) =>
  inner[0] >= outer[0] - 0.5 && inner[1] >= outer[1] - 0.5 && inner[2] <= outer[2] + 0.5 && inner[3] <= outer[3] + 0.5;

// The widgets of the last frame that match (`window`: a part of the window's name).
export async function findItems(page, match, { window } = {}) {
  const d = await drawn(page);
  return d.items.filter((i) => matches(i, match) && (!window || i.window.includes(window)));
}

export async function findItem(page, match, options = {}) {
  const found = await findItems(page, match, options);
  if (found.length === 0) throw new Error(`no widget labelled ${match} in the last frame`);
  return found[0];
}

// ImGui lays out only the widgets in view: one scrolled out of its window is not in the trace. Turns the wheel over
// the window named by `options.window` (the innermost that matches), down to its end and then up, until the widget
// labelled `match` is drawn.
async function wheelUntilDrawn(page, match, options, max) {
  if (!options.window) throw new Error(`no widget labelled ${match} in the last frame (name its window to scroll to it)`);
  for (const dy of [300, -300]) {  // three notches a turn
    for (let i = 0; i < max; i++) {
      const d = await drawn(page);
      if (d.items.some((it) => matches(it, match) && it.window.includes(options.window))) return;
      const win = d.windows.filter((w) => w.name.includes(options.window)).at(-1);
      if (!win) throw new Error(`widget ${match}: no window ${options.window} drawn`);
      if (dy > 0 ? win.scroll_y >= win.scroll_max_y : win.scroll_y <= 0) break;
      const c = centre(win.rect);
      await page.mouse.move(c.x, c.y);
      await page.mouse.wheel(0, dy);
      await waitFrames(page, 2);
    }
  }
  throw new Error(`widget ${match} is not in window ${options.window}, scrolled from end to end`);
}

// Turns the wheel over the widget's window until the widget is in view (at most `max` notches).
export async function scrollIntoView(page, match, options = {}, max = 60) {
  if ((await findItems(page, match, options)).length === 0) await wheelUntilDrawn(page, match, options, max);
  for (let i = 0; i < max; i++) {
    const item = await findItem(page, match, options);
    if (item.visible) {
      const d = await drawn(page);
      const win = d.windows.find((w) => w.name === item.window);
      // Fully inside its window: ImGui counts an item that peeks in by a pixel as visible.
      if (!win || (item.rect[1] >= win.rect[1] && item.rect[3] <= win.rect[3])) return item;
    }
    const d = await drawn(page);
    const win = d.windows.find((w) => w.name === item.window);
    if (!win) throw new Error(`widget ${match}: window ${item.window} not drawn`);
    const c = centre(win.rect);
    await page.mouse.move(c.x, c.y);
    await page.mouse.wheel(0, item.rect[1] < win.rect[1] ? -100 : 100);
    await waitFrames(page, 2);
  }
  throw new Error(`widget ${match} did not scroll into view`);
}

// Clicks the widget labelled `match` at its centre (scrolling it into view first).
export async function click(page, match, options = {}) {
  const item = await scrollIntoView(page, match, options);
  const c = centre(item.rect);
  await clickImGui(page, c.x, c.y);
  return item;
}

// Clicks a text field, selects what it holds, types `text` and presses Enter: the edit a person makes.
export async function typeInto(page, match, text, options = {}) {
  await click(page, match, options);
  await page.keyboard.press('Control+A');
  await waitFrames(page, 2);
  await page.keyboard.type(String(text), { delay: 20 });
  await waitFrames(page, 2);
  await page.keyboard.press('Enter');
  await waitFrames(page, 3);
}

// Presses a key and lets the page draw the frames that react to it.
export async function press(page, key) {
  await page.keyboard.press(key);
  await waitFrames(page, 3);
}

// The plots of the last frame whose title matches.
export async function plots(page, title) {
  const d = await drawn(page);
  return d.plots.filter((p) => (title instanceof RegExp ? title.test(p.title) : p.title === title));
}

// Moves the mouse to (x, y) and returns the hover rows of the plot under it (after the tooltip has been drawn).
export async function hover(page, x, y) {
  await page.mouse.move(x, y);
  await waitFrames(page, 3);
  const d = await drawn(page);
  const under = d.plots.find((p) => x >= p.rect[0] && x <= p.rect[2] && y >= p.rect[1] && y <= p.rect[3]);
  return under ? under.hover : [];
}
