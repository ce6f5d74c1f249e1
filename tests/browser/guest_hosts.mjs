// Host pages for an embed's behaviour as a guest (tests/browser/guest_embed*.test.mjs), served from an origin other
// than the playground's: lecture notes taller than the window with embeds in them, and a reveal.js deck built at test
// time by pandoc from Markdown, with reveal.js served from node_modules. Every host page records the messages it gets
// in window.received ({origin, data, frame: the id of the iframe that sent it}).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer } from '../../scripts/static-server.mjs';
import { ROOT } from './harness.mjs';

export const PANDOC = '/usr/bin/pandoc';
export const REVEAL = path.join(ROOT, 'node_modules', 'reveal.js');

// Why the deck cannot be built here, or null.
export function deckMissing() {
  const absent = [PANDOC, path.join(REVEAL, 'dist', 'reveal.js')].filter((p) => !existsSync(p));
  return absent.length ? `not installed: ${absent.join(', ')} (scripts/setup installs them)` : null;
}

const RECORDER = `<link rel="icon" href="data:,">
<script>
window.received = [];
addEventListener('message', (e) => received.push({ origin: e.origin, data: e.data,
  frame: [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === e.source)?.id ?? null }));
window.send = (id, msg) => document.getElementById(id).contentWindow.postMessage(msg, '*');
</script>`;

const PROSE = (n) => Array.from({ length: n }, (_, i) =>
  `<p>Paragraph ${i + 1} of the notes: the reader scrolls past it with the wheel, over the embeds too.</p>`).join('\n');

// Embeds: [{id, query, height?}] between paragraphs of prose; `gap` paragraphs before each embed and after the last.
export function notesPage(playgroundUrl, embeds, { gap = 12, sandbox } = {}) {
  // (the prose after the last embed is at least a window high, so the notes can scroll on past it)
  const iframes = embeds.map(({ id, query, height = 400 }) => `${PROSE(gap)}
<iframe id="${id}" src="${playgroundUrl}?${query}" style="width: 640px; height: ${height}px; border: 0; display: block"
        ${sandbox ? `sandbox="${sandbox}"` : ''} title="μPlayground"></iframe>`).join('\n');
  return `<!doctype html><html><head><meta charset="utf-8">${RECORDER}</head>
<body style="margin: 0 2em; font: 16px/1.5 serif">${iframes}
${PROSE(Math.max(gap, 20))}</body></html>`;
}

// A reveal.js deck from Markdown, by pandoc: `slides` is [{title, embed?: {id, query}, html?}], one horizontal slide
// each; `html` is raw HTML pasted into the slide as it is (a snippet from the Share dialog). Written to NAME.html.
export function buildDeck(dir, playgroundUrl, slides, { name = 'deck' } = {}) {
  const markdown = [];  // no title block: pandoc would make it a slide of its own before the first
  for (const { title, embed, html } of slides) {
    markdown.push(`# ${title}`, '');
    if (html) {
      markdown.push(html, '');
    } else if (embed) {
      markdown.push(`<iframe id="${embed.id}" src="${playgroundUrl}?${embed.query}" width="640" height="400" ` +
                    'style="border: 0" title="μPlayground"></iframe>', '');
    } else {
      markdown.push(`Text of the slide "${title}".`, '');
    }
  }
  writeFileSync(path.join(dir, `${name}.md`), markdown.join('\n'));
  writeFileSync(path.join(dir, 'recorder.html'), RECORDER);
  const r = spawnSync(PANDOC, ['-t', 'revealjs', '-s', '-V', 'revealjs-url=reveal.js', '-V', 'transition=none',
                               '-M', 'pagetitle=An embed in a deck',
                               '--include-in-header', 'recorder.html', '-o', `${name}.html`, `${name}.md`],
                      { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pandoc: ${r.error ?? r.stderr}`);
}

// A folder served on its own loopback origin, with reveal.js at /reveal.js/. Returns { dir, url, close }.
export async function startHost() {
  const dir = mkdtempSync(path.join(tmpdir(), 'muplay-guest-host-'));
  if (existsSync(REVEAL)) symlinkSync(REVEAL, path.join(dir, 'reveal.js'));
  const server = await startServer({ root: dir, port: 0 });
  return {
    dir,
    url: server.url,
    write: (name, text) => writeFileSync(path.join(dir, name), text),
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
