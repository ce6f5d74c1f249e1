// Lecture notes as a course builds them: the Share dialog's own snippets (picked as a lecturer picks them: preset,
// "Share & embed…", "HTML or Markdown") pasted into a two-page MkDocs site with the Material theme (Debian's mkdocs
// and mkdocs-material), built with `mkdocs build` and served from an origin other than the playground's. In Chromium
// and in Firefox ESR each embed opens on the view its snippet names, read back through the page's test hook: the
// coordinate check on vs width (trained: its curves and the step they are taken at), the LR transfer on vs learning
// rate (trained: an eta* per width inside its grid), a depth preset on eta* vs depth, the phase diagram on its
// phase map and the chapter-13 gamma sweep on its attention maps. The page's own frame is an aspect-ratio box of the
// Material theme's column.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startServer } from '../../scripts/static-server.mjs';
import { launchEngine, missing } from './engines.mjs';
import { openPlayground, screenshot, waitFrames } from './harness.mjs';

const T = { timeout: 900_000 };
const MKDOCS = '/usr/bin/mkdocs';

// The notes: [page, [[preset stem, what the embed must open on]]]. `trained`: the embed is run to its end and the
// figure's numbers are checked.
const PAGES = [
  ['index.md', 'Width scaling, live', [
    { stem: '10-coord-check-mup', view: /^width;quantity=act_delta_rms;record=1$/, plot: /^act_delta_rms (at step 1 )?vs width/, trained: true },
    { stem: '14-lr-transfer-toy-mup', view: /^lr$/, plot: /vs learning rate \(dot: eta\*\)$/, trained: true },
  ]],
  ['depth-and-phases.md', 'Depth, phases and reasoning', [
    { stem: '42-depth-transfer-sgd-depth-mup', view: /^depth;quantity=eta$/, plot: /^eta\* vs depth L/ },
    { stem: '23-phase-diagram', view: /^phenomena$/, plot: /^S_w: red linear, blue condensed/ },
    { stem: '31-anchor-gamma-sweep', view: /^anchor$/, heatmap: /^attention, layer 1 head 1/ },
  ]],
];

let playground, host, dir, snippets;

// The snippet the Share dialog writes for a preset, through the toolbar's button and the dialog's system choice.
async function shareSnippet(page, stem) {
  const list = JSON.parse(await page.evaluate(() => window.muplay.muplay_list_presets()));
  const index = list.findIndex((p) => p.path.endsWith(`/${stem}.json`));
  assert.ok(index >= 0, stem);
  await page.evaluate((i) => window.muplay.muplay_load_preset(i), index);
  await waitFrames(page, 4);  // the preset's view is shown, and the address bar follows it
  await page.click('#open-share');
  await page.selectOption('#embed-system', 'html');
  const text = await page.inputValue('#embed-snippet');
  const words = await page.textContent('#share-view');
  const local = await page.isVisible('#share-local');
  await page.keyboard.press('Escape');
  return { text, words, local };
}

before(async () => {
  playground = await startServer({ root: (await import('./harness.mjs')).SITE, port: 0 });
  const pg = await openPlayground({ url: playground.url });
  try {
    snippets = {};
    for (const [, , embeds] of PAGES) for (const { stem } of embeds) snippets[stem] = await shareSnippet(pg.page, stem);
    assert.deepEqual(pg.errors, []);
  } finally {
    await pg.close();
  }
  dir = mkdtempSync(path.join(tmpdir(), 'muplay-notes-'));
  if (!existsSync(MKDOCS)) return;
  mkdirSync(path.join(dir, 'docs'));
  // font: false: the theme would fetch Google Fonts, and this machine has no network beyond loopback.
  writeFileSync(path.join(dir, 'mkdocs.yml'), 'site_name: Width scaling you can see\ntheme:\n  name: material\n  font: false\n' +
    `nav:\n${PAGES.map(([file, title]) => `  - '${title}': ${file}`).join('\n')}\n`);
  for (const [file, title, embeds] of PAGES) {
    const body = embeds.map(({ stem }) => `## ${stem}\n\nThe figure below trains in your browser.\n\n` +
      `${snippets[stem].text}\n\nWhat to look for is in the description.\n`).join('\n');
    writeFileSync(path.join(dir, 'docs', file), `# ${title}\n\n${body}`);
  }
  const r = spawnSync(MKDOCS, ['build', '--quiet', '--site-dir', 'site'], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  host = await startServer({ root: path.join(dir, 'site'), port: 0 });
}, T);

after(async () => {
  await host?.close();
  await playground?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const pageUrl = (file) => `${host.url}${file === 'index.md' ? '' : `${file.replace(/\.md$/, '')}/`}`;

test('the Share dialog writes a column-wide snippet on the current view, and says what the reader will see', () => {
  const { text, words } = snippets['10-coord-check-mup'];
  assert.match(text, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?embed=1&amp;panels=controls,plot#s=1\.[\w-]+&amp;r=\d+"/);
  assert.match(text, /style="width: 100%; aspect-ratio: 3 \/ 2; border: 0"/);
  assert.match(words, /^A reader opens it on vs width: act_delta_rms against the width at record 1\.$/);
  assert.match(snippets['14-lr-transfer-toy-mup'].words, /vs learning rate/);
  // The playground is served on 127.0.0.1 here: the dialog warns that nobody else can open such a link.
  assert.ok(Object.values(snippets).every((s) => s.local), 'no warning about a 127.0.0.1 address');
});

// What an embed's frame shows: its view, and the titles of the plots and heatmaps of its last frame.
const FRAME_STATE = () => new Promise((resolve) => {
  window.muplay.muplay_drawn();  // turns the frame trace on
  requestAnimationFrame(() => requestAnimationFrame(() => {
    const d = JSON.parse(window.muplay.muplay_drawn());
    resolve({ view: window.muplay.muplay_view(), plots: d.plots.map((p) => p.title),
              heatmaps: d.heatmaps.map((h) => h.title) });
  }));
});

function checkOpened(embed, state) {
  assert.match(state.view, embed.view, embed.stem);
  if (embed.plot) assert.ok(state.plots.some((t) => embed.plot.test(t)), `${embed.stem}: ${JSON.stringify(state.plots)}`);
  if (embed.heatmap) assert.ok(state.heatmaps.some((t) => embed.heatmap.test(t)), `${embed.stem}: ${JSON.stringify(state.heatmaps)}`);
}

// The trained figures' numbers: the coordinate check's curves at the widths 64 … 1024 at step 1, and an eta* inside
// the grid for every width of the LR transfer.
function checkTrained(stem, numbers) {
  if (stem === '10-coord-check-mup') {
    assert.equal(numbers.width.step, 1);
    assert.deepEqual(numbers.width.curves[0].x, [64, 128, 256, 512, 1024]);
  } else {
    assert.equal(numbers.lr.length, 4, JSON.stringify(numbers.lr));  // one eta* dot per width, none at the grid's edge
    for (const name of numbers.lr) assert.match(name, /^n=\d+ eta\* \(parabola vertex\)$/);
  }
}

const TRAINED_NUMBERS = () => new Promise((resolve) => requestAnimationFrame(() => {
  const d = JSON.parse(window.muplay.muplay_drawn());
  const lrPlot = d.plots.find((p) => / vs learning rate \(dot: eta\*\)$/.test(p.title));
  resolve({ width: JSON.parse(window.muplay.muplay_width_view()),
            lr: (lrPlot?.curves ?? []).map((c) => c.name).filter((n) => / eta\*/.test(n)) });
}));

test('Chromium: each embed of the MkDocs notes opens on its view; the short ones train to their figure', T, async (t) => {
  if (!host) return t.skip(`not installed: ${MKDOCS} (scripts/setup installs mkdocs and mkdocs-material)`);
  const notes = await openPlayground({ url: pageUrl('index.md'), waitReady: false });
  try {
    const { page } = notes;
    for (const [file, , embeds] of PAGES) {
      await page.goto(pageUrl(file));
      assert.match(await page.textContent('.md-content'), /The figure below trains in your browser/);
      for (const [i, embed] of embeds.entries()) {
        const iframe = page.locator('.md-content iframe').nth(i);
        await iframe.scrollIntoViewIfNeeded();
        const box = await iframe.boundingBox();
        const column = await page.locator('.md-content').boundingBox();
        assert.ok(Math.abs(box.width / box.height - 1.5) < 0.02 && box.width <= column.width, JSON.stringify(box));
        const frame = await (await iframe.elementHandle()).contentFrame();
        await frame.evaluate(() => window.muplay.ready.then(() => true));
        await frame.waitForFunction(() => window.muplay.muplay_frame_count() > 4);
        checkOpened(embed, await frame.evaluate(FRAME_STATE));
        if (embed.trained) {
          await frame.evaluate(() => window.muplay.muplay_run());
          await frame.waitForFunction(() => window.muplay.muplay_state() === 'finished', null, { timeout: 300_000 });
          await frame.evaluate(FRAME_STATE);
          checkTrained(embed.stem, await frame.evaluate(TRAINED_NUMBERS));
        }
        await screenshot(page, `notes-site-${embed.stem}`);
      }
    }
    await page.goto(pageUrl('index.md'));
    await screenshot(page, 'notes-site');
    assert.deepEqual(notes.errors, []);
  } finally {
    await notes.close();
  }
});

test('Firefox ESR: each embed of the MkDocs notes opens on its view', T, async (t) => {
  const why = missing('firefox') ?? (host ? null : `not installed: ${MKDOCS}`);
  if (why) return t.skip(why);
  const b = await launchEngine('firefox');
  try {
    for (const [file, , embeds] of PAGES) {
      await b.goto(pageUrl(file));
      for (const [i, embed] of embeds.entries()) {
        await b.top.eval((k) => document.querySelectorAll('.md-content iframe')[k].scrollIntoView(), i);
        const id = `embed-${i}`;
        await b.top.eval((k, name) => { document.querySelectorAll('.md-content iframe')[k].id = name; }, i, id);
        const frame = b.frame(`#${id}`);
        await frame.waitFor(() => window.muplay?.muplay_frame_count?.() > 4, null, { timeout: 120_000 });
        checkOpened(embed, await frame.eval(FRAME_STATE));
      }
      await b.screenshot(`notes-site-firefox-${file.replace(/\.md$/, '')}`);
    }
    assert.deepEqual(await b.errors(), []);
  } finally {
    await b.close();
  }
});
