// What a reader's browser downloads to open the page, in English and in Chinese (lang=zh adds the catalogue and the
// font cut to its characters: web/js/language.js), and the font atlas' texture the page then keeps on the GPU.
// Loads the staged site (build/site) in headless Chromium once per language, with a fresh profile and no cache, and
// sums the bytes of every response until the page is ready and one second has passed.
//   node scripts/bench-payload.mjs      prints a table, writes build/bench/payload.json and its section of
//                                       tests/bench/RESULTS.md
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, openPlayground, waitFrames } from '../tests/browser/harness.mjs';
import { commandLine, loadNow, writeResults } from './bench-results.mjs';

const loadBefore = loadNow();

async function measure(language) {
  const responses = [];
  const pg = await openPlayground({
    suffix: `?lang=${language}`,
    beforeLoad: (page) => page.on('response', (r) => responses.push(r)),
  });
  try {
    await pg.page.waitForFunction((l) => document.documentElement.lang === l, language === 'zh' ? 'zh-CN' : 'en');
    await waitFrames(pg.page, 10);
    await pg.page.waitForTimeout(1000);
    const files = {};
    for (const r of responses) {
      const body = await r.body().catch(() => null);  // redirects and aborted requests have none
      if (body) files[new URL(r.url()).pathname.replace(/^\//, '') || 'index.html'] = body.length;
    }
    const font = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_font_glyphs('')));
    return { language, bytes: Object.values(files).reduce((a, b) => a + b, 0), files, glyphs: font.glyphs,
             atlas: [font.atlas_width, font.atlas_height] };
  } finally {
    await pg.close();
  }
}

const results = [await measure('en'), await measure('zh')];
const kB = (n) => (n / 1000).toFixed(0);
const rows = ['| language | downloaded | of which Chinese files | glyphs | font atlas (RGBA texels) |', '|---|---|---|---|---|'];
for (const r of results) {
  const chinese = (r.files['i18n/zh.json'] ?? 0) + (r.files['fonts/zh.ttf'] ?? 0);
  rows.push(`| ${r.language} | ${kB(r.bytes)} kB | ${kB(chinese)} kB (catalogue ${kB(r.files['i18n/zh.json'] ?? 0)}, ` +
            `font ${kB(r.files['fonts/zh.ttf'] ?? 0)}) | ${r.glyphs} | ${r.atlas.join(' × ')} ` +
            `(${((r.atlas[0] * r.atlas[1] * 4) / 1e6).toFixed(1)} MB) |`);
}
const table = rows.join('\n');
console.log(table);
writeResults('scripts/bench-payload.mjs', commandLine([]), `Bytes of every response until the page is ready, ` +
             `headless Chromium, device pixel ratio 1.\n\n${table}`, loadBefore);
const out = path.join(ROOT, 'build', 'bench');
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'payload.json'), JSON.stringify({ date: new Date().toISOString(), results }, null, 2));
