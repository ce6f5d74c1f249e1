// Sizing for slides and for a preset's first look (Chromium):
// - the slides snippet, made as a lecturer makes it (the page's Share dialog, "reveal.js slides"), pasted into a pandoc
//   reveal.js deck under a two-line title: at 1280×720 and 1920×1080 the frame ends inside the slide (reveal.js's
//   960×700 box, scaled to the window), opens on the view of the experiment it was made from, draws its canvas at
//   twice the frame's device pixels (scale=2), and so draws text sharper on the scaled-up slide than the same snippet
//   without scale=2 (the mean horizontal gradient of the band above the plot: its title and y label);
// - each of a few presets opens, in a 720×480 embed, on the view its description is about, with a plot or heat map
//   drawn (screenshots: build/screenshots/embed-view-STEM.png).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startServer } from '../../scripts/static-server.mjs';
import { launchEngine, missing } from './engines.mjs';
import { buildDeck, deckMissing, startHost } from './guest_hosts.mjs';
import { decodePng } from './png.mjs';
import { ROOT, SITE, openPlayground, screenshot, waitForPlayground } from './harness.mjs';

const T = { timeout: 600_000 };
let playground, host;

before(async () => {
  playground = await startServer({ root: SITE, port: 0 });
  host = await startHost();
}, T);
after(async () => {
  await host?.close();
  await playground?.close();
});

// The frame trace of the frame after next: the first call turns it on, and the answer of a call describes the frame
// drawn before it.
async function drawn(frame) {
  await frame.evaluate(() => window.muplay.muplay_drawn());
  return frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() =>
    requestAnimationFrame(() => resolve(JSON.parse(window.muplay.muplay_drawn()))))));
}

// Mean absolute difference between horizontal neighbours' luminance over a region of a screenshot (0 to 255): a
// blurred edge spreads its step over several pixels, each difference smaller, and the sum of the absolute steps of a
// thin stroke shrinks as it is smeared into its background.
function horizontalGradient(png, { x, y, width, height }) {
  const img = decodePng(png);
  const lum = (px, py) => {
    const i = (py * img.width + px) * img.channels;
    return 0.299 * img.data[i] + 0.587 * img.data[i + 1] + 0.114 * img.data[i + 2];
  };
  let sum = 0, n = 0;
  for (let py = Math.round(y); py < Math.round(y + height); py++) {
    for (let px = Math.round(x); px < Math.round(x + width) - 1; px++) {
      sum += Math.abs(lum(px + 1, py) - lum(px, py));
      n += 1;
    }
  }
  return sum / n;
}

// The Share dialog's snippet for reveal.js slides, for preset 10 (loaded as from the preset list), as a lecturer
// copies it.
async function slidesSnippet() {
  const pg = await openPlayground({ url: playground.url });
  try {
    const { page } = pg;
    const presets = JSON.parse(await page.evaluate(() => window.muplay.muplay_list_presets()));
    const index = presets.findIndex((p) => p.path.includes('10-coord-check-mup'));
    assert.ok(index >= 0, 'preset 10 is in the list');
    await page.evaluate((i) => window.muplay.muplay_load_preset(i), index);
    await page.click('#open-share');
    await page.selectOption('#embed-system', 'slides');
    const snippet = await page.inputValue('#embed-snippet');
    const view = await page.evaluate(() => window.muplay.muplay_view());
    assert.deepEqual(pg.errors, []);
    return { snippet, view };
  } finally {
    await pg.close();
  }
}

// Two lines of reveal.js's default theme (black: h1 at 105 px, upper case), as a slide title often takes.
const TITLE = 'Coordinate check under muP';

// The two decks, built once: the snippet as the dialog writes it, and the same without scale=2.
let decks;
const buildDecks = () => (decks ??= (async () => {
  const { snippet, view } = await slidesSnippet();
  buildDeck(host.dir, playground.url, [{ title: TITLE, html: snippet }], { name: 'slides' });
  buildDeck(host.dir, playground.url, [{ title: TITLE, html: snippet.replace('&amp;scale=2', '') }],
            { name: 'slides-unscaled' });
  return { snippet, view };
})());

// Where things are, in the deck's CSS pixels: the slide box (reveal.js's 960×700, scaled), the iframe, the title.
// A function whose source runs in the deck's page.
const LAYOUT = () => {
  const box = (el) => { const r = el.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height }; };
  const h1 = document.querySelector('.reveal .slides section.present h1');
  const iframe = document.querySelector('iframe');
  return {
    slides: box(document.querySelector('.reveal .slides')), iframe: box(iframe), title: box(h1),
    titleLines: h1.offsetHeight / parseFloat(getComputedStyle(h1).lineHeight),
    config: { width: window.Reveal.getConfig().width, height: window.Reveal.getConfig().height },
    scale: window.Reveal.getScale(), window: { width: innerWidth, height: innerHeight },
    iframeCss: { width: iframe.offsetWidth, height: iframe.offsetHeight },
  };
};

// The frame lies inside the slide: under a title of two lines, its bottom edge above the slide's (half a pixel for
// rounding), and so inside the window; and it keeps room for the embed's toolbar and a plot, half the slide at least.
function assertFits(l, what) {
  const text = `${what}: ${JSON.stringify(l)}`;
  assert.deepEqual(l.config, { width: 960, height: 700 });
  assert.equal(Math.round(l.titleLines), 2, `the title takes two lines: ${text}`);
  assert.ok(l.iframe.top >= l.title.bottom - 0.5, `the frame starts below the title: ${text}`);
  assert.ok(l.iframe.bottom <= l.slides.bottom + 0.5,
            `the frame's bottom (${l.iframe.bottom}) lies inside the slide (bottom ${l.slides.bottom}): ${text}`);
  assert.ok(l.iframe.left >= l.slides.left - 0.5 && l.iframe.right <= l.slides.right + 0.5, text);
  assert.ok(l.slides.bottom <= l.window.height, text);
  assert.ok(l.iframeCss.height >= l.config.height / 2, `the frame is ${l.iframeCss.height} px high: ${text}`);
}

// The embed's canvas: its backing store against its CSS box and the frame's devicePixelRatio.
const CANVAS = () => {
  const c = document.getElementById('canvas'), r = c.getBoundingClientRect();
  return { width: c.width, height: c.height, css: { width: r.width, height: r.height }, dpr: devicePixelRatio };
};
function assertBackingStore(c, factor, what) {
  assert.ok(Math.abs(c.width - c.css.width * c.dpr * factor) <= 1 && Math.abs(c.height - c.css.height * c.dpr * factor) <= 1,
            `${what}: backing store ${c.width}×${c.height}, CSS ${c.css.width}×${c.css.height} × dpr ${c.dpr} × ${factor}`);
}

test('the slides snippet fits a slide with a two-line title at 1280×720 and 1920×1080, on its view, sharper with scale=2', T, async (t) => {
  const why = deckMissing();
  if (why) return t.skip(why);
  const { snippet, view } = await buildDecks();
  t.diagnostic(`snippet: ${snippet}`);
  assert.match(view, /^width/, 'preset 10 opens on vs width');
  assert.match(snippet, /^<iframe [^>]*src="[^"]*&amp;scale=2#s=1\./, 'the slides snippet asks for scale=2');

  // Opens a deck at a window size, returns its page and the embed's frame.
  const openDeck = async (name, viewport) => {
    const pg = await openPlayground({ url: `${host.url}${name}.html`, viewport, waitReady: false });
    const { page } = pg;
    await page.waitForFunction(() => window.Reveal?.isReady());
    const frame = await (await page.$('iframe')).contentFrame();
    await waitForPlayground(frame);
    return { pg, page, frame };
  };

  const sharpness = {};
  for (const viewport of [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }]) {
    const size = `${viewport.width}x${viewport.height}`;
    for (const name of ['slides', 'slides-unscaled']) {
      const { pg, page, frame } = await openDeck(name, viewport);
      try {
        const d = await drawn(frame);  // (also: the embed has drawn, so the screenshot shows it)
        const png = await screenshot(page, name === 'slides' ? `deck-${size}` : `deck-${size}-unscaled`);
        const l = await page.evaluate(LAYOUT);
        t.diagnostic(`${name} ${size}: ${JSON.stringify(l)}`);
        assertFits(l, `${name} ${size}`);

        assert.match(await frame.evaluate(() => window.muplay.muplay_view()), /^width/, 'the embed opens on its view');
        const plot = d.plots.find((p) => /vs width/.test(p.title));
        assert.ok(plot, `the embed draws the vs width plot: ${JSON.stringify(d.plots.map((p) => p.title))}`);

        const c = await frame.evaluate(CANVAS);
        t.diagnostic(`${name} ${size}: canvas ${c.width}×${c.height} for ${c.css.width}×${c.css.height} CSS px at dpr ${c.dpr}`);
        assertBackingStore(c, name === 'slides' ? 2 : 1, `${name} ${size}`);

        // The band above the plot's data box (its title and y label), mapped from the frame's CSS pixels to the deck's
        // (reveal.js scales the slide by l.scale).
        const s = l.iframe.width / c.css.width;
        const band = { x: l.iframe.left + plot.rect[0] * s, y: l.iframe.top + plot.rect[1] * s,
                       width: (plot.rect[2] - plot.rect[0]) * s, height: (plot.frame[1] - plot.rect[1]) * s };
        sharpness[`${name} ${size}`] = horizontalGradient(png, band);
        assert.deepEqual(pg.errors, []);
      } finally {
        await pg.close();
      }
    }
    const [scaled, plain] = [sharpness[`slides ${size}`], sharpness[`slides-unscaled ${size}`]];
    t.diagnostic(`${size}: mean horizontal gradient above the plot: ${scaled.toFixed(2)} with scale=2, ${plain.toFixed(2)} without`);
    // reveal.js scales the slide to the window, up at 1920×1080 and a little down at 1280×720. The compositor
    // resamples a frame drawn at the frame's own resolution either way; one drawn at twice that is only scaled down,
    // and its text keeps sharper edges.
    assert.ok(scaled > plain, `${size}: scale=2 draws sharper text (${scaled} vs ${plain})`);
  }
});

// Each preset's opening view as a student meets it in a 720×480 embed: the view the preset names, and its figure
// (a plot or a heat map, by title). Presets 10 and 14 are short: they run to the end first, so that the figure has
// data (at least `curves` curves with points); a figure of a preset not run says that it has none yet.
const PRESETS = [
  { stem: '10-coord-check-mup', curves: 3, view: /^width;quantity=act_delta_rms;record=1$/,
    figure: /^act_delta_rms at step 1 vs width/ },
  { stem: '14-lr-transfer-toy-mup', curves: 4, view: /^lr$/, figure: /^mean train loss over the run vs learning rate/ },
  { stem: '42-depth-transfer-sgd-depth-mup', view: /^depth;quantity=eta$/, figure: /^eta\* vs depth L/ },
  { stem: '23-phase-diagram', view: /^phenomena/, figure: /^S_w: red linear, blue condensed/ },
  { stem: '31-anchor-gamma-sweep', view: /^anchor/, figure: /^phase plot: OOD accuracy, x = gamma, y = weight decay/ },
  { stem: '27-edge-of-stability', view: /^phenomena/, figure: /^sharpness \(top Hessian eigenvalue\) vs step/ },
];
const NO_DATA = 'no data yet: press Run';  // web/draw/plot.cpp

test('each preset opens an embed on the view it names, with its figure drawn (screenshots embed-view-STEM)', T, async (t) => {
  const pg = await openPlayground({ url: `${playground.url}?embed=1&preset=${PRESETS[0].stem}`,
                                    viewport: { width: 720, height: 480 } });
  try {
    const { page } = pg;
    for (const { stem, curves, view, figure } of PRESETS) {
      await page.goto(`${playground.url}?embed=1&preset=${stem}`);
      await waitForPlayground(page);
      assert.equal(await page.evaluate(() => JSON.parse(window.muplay.muplay_get_spec()).name),
                   JSON.parse(readFileSync(path.join(ROOT, 'examples', `${stem}.json`), 'utf8')).name);
      if (curves) {
        await page.evaluate(() => window.muplay.muplay_run());
        await page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 300_000 });
      }
      const shown = await page.evaluate(() => window.muplay.muplay_view());
      const d = await drawn(page.mainFrame());
      const titles = [...d.plots.map((p) => p.title), ...d.heatmaps.map((h) => h.title)];
      t.diagnostic(`${stem}: view ${shown}; drawn ${JSON.stringify(titles)}; texts ${JSON.stringify(d.texts.slice(0, 6))}`);
      await screenshot(page, `embed-view-${stem}`);
      assert.match(shown, view, `${stem} opens on its view`);
      assert.ok(titles.some((title) => figure.test(title)), `${stem} draws its figure: ${JSON.stringify(titles)}`);
      // No plot is an empty box: each draws points or says that it has none yet.
      for (const p of d.plots) {
        const points = p.curves.filter((c) => c.points > 0).length;
        assert.ok(points > 0 || p.markers > 0 || p.notes.includes(NO_DATA),
                  `${stem}: "${p.title}" has no points and does not say so: ${JSON.stringify({ curves: p.curves.length, markers: p.markers, notes: p.notes })}`);
        if (curves && figure.test(p.title)) assert.ok(points >= curves, `${stem}: ${points} curves with points`);
      }
    }
    assert.deepEqual(pg.errors, []);
  } finally {
    await pg.close();
  }
});

// Firefox ESR lays the deck out with its own fonts and line heights: the frame must fit there too, and draw at twice
// its resolution (tests/browser/engines.mjs: Firefox on a private Xvfb display).
test('Firefox ESR: the slides snippet fits the slide at 1280×720 and 1920×1080 and draws at twice the resolution', T, async (t) => {
  const why = missing('firefox') ?? deckMissing();
  if (why) return t.skip(why);
  await buildDecks();
  const b = await launchEngine('firefox', { viewport: { width: 1280, height: 720 } });
  try {
    for (const viewport of [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }]) {
      const size = `${viewport.width}x${viewport.height}`;
      await b.page.setViewport(viewport);
      await b.goto(`${host.url}slides.html`);
      await b.top.waitFor(() => window.Reveal?.isReady() ?? false);
      await b.frame('iframe').waitFor(() => window.muplay?.muplay_frame_count?.() > 2);
      const l = await b.top.eval(LAYOUT);
      t.diagnostic(`firefox ${size}: ${JSON.stringify(l)}`);
      await b.screenshot(`deck-${size}-firefox`);
      assertFits(l, `firefox ${size}`);
      assert.match(await b.frame('iframe').eval(() => window.muplay.muplay_view()), /^width/);
      const c = await b.frame('iframe').eval(CANVAS);
      t.diagnostic(`firefox ${size}: canvas ${c.width}×${c.height} for ${c.css.width}×${c.css.height} CSS px at dpr ${c.dpr}`);
      assertBackingStore(c, 2, `firefox ${size}`);
    }
    assert.deepEqual(b.errors(), []);
  } finally {
    await b.close();
  }
});
