// Benchmark: how fast an embed of a preset starts, for two staged sites side by side (e.g. before and after a change).
// For each site: the wasm's size, the bytes the embed fetched, and its time to ready (navigation start to
// window.muplay.ready, i.e. the first frame drawn), median of N cold starts (fresh browser profile each), alternating
// between the sites, on loopback and on an emulated 20 Mbit/s link. Prints a table and writes JSON and its section of
// tests/bench/RESULTS.md.
//   node scripts/bench-embed-start.mjs SITE_A SITE_B [--preset 02-sp-toy] [--runs 5] [--out build/bench/embed-start.json]
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { commandLine, loadNow, writeResults } from './bench-results.mjs';
import { startServer } from './static-server.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args.splice(i, 2)[1] : dflt; };
const preset = opt('--preset', '02-sp-toy');
const runs = Number(opt('--runs', '5'));
const out = opt('--out', 'build/bench/embed-start.json');
const sites = args.slice(0, 2);
if (sites.length !== 2) {
  console.error('usage: node scripts/bench-embed-start.mjs SITE_A SITE_B [--preset STEM] [--runs N] [--out FILE]');
  process.exit(2);
}
const loadBefore = loadNow();
const LINKS = { loopback: null, '20 Mbit/s': { latency: 20, downloadThroughput: 20e6 / 8, uploadThroughput: 5e6 / 8 } };

async function coldStart(url, link) {
  const profile = mkdtempSync(path.join(tmpdir(), 'muplay-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    viewport: { width: 720, height: 460 },
  });
  try {
    const page = context.pages()[0] ?? await context.newPage();
    let bytes = 0;
    page.on('requestfinished', async (r) => { bytes += (await r.sizes().catch(() => ({ responseBodySize: 0 }))).responseBodySize; });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    if (link) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...link });
    await page.goto(url);
    const ms = await page.evaluate(() => window.muplay.ready.then(() => performance.now()));
    await page.waitForTimeout(300);  // late requests (none expected) still count
    return { ms, bytes };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const servers = await Promise.all(sites.map((root) => startServer({ root, port: 0 })));
const results = sites.map((site) => ({ site, wasm_bytes: statSync(path.join(site, 'muplay.wasm')).size, links: {} }));
for (const [name, link] of Object.entries(LINKS)) {
  const samples = sites.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (let s = 0; s < sites.length; s++) samples[s].push(await coldStart(`${servers[s].url}?embed=1&preset=${preset}`, link));
  }
  samples.forEach((xs, s) => {
    results[s].links[name] = { median_ms: median(xs.map((x) => x.ms)), runs_ms: xs.map((x) => Math.round(x.ms)),
                               bytes_fetched: median(xs.map((x) => x.bytes)) };
  });
}
await Promise.all(servers.map((s) => s.close()));
for (const r of results) {
  console.log(`${r.site}: muplay.wasm ${r.wasm_bytes} B`);
  for (const [name, l] of Object.entries(r.links)) {
    console.log(`  ${name}: time to ready ${l.median_ms.toFixed(0)} ms median (${l.runs_ms.join(', ')}), ${l.bytes_fetched} B fetched`);
  }
}
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ preset, runs, results }, null, 2));
console.log(`wrote ${out}`);
const names = Object.keys(LINKS);
const table = [`Cold starts of \`?embed=1&preset=${preset}\` in headless Chromium, median of ${runs} per site and link.`, '',
  `| site | muplay.wasm B | ${names.map((n) => `fetched B (${n}) | time to ready ms (${n})`).join(' | ')} |`,
  `|---|---|${names.map(() => '---|---|').join('')}`,
  ...results.map((r) => `| ${r.site} | ${r.wasm_bytes} | ` +
    `${names.map((n) => `${r.links[n].bytes_fetched} | ${r.links[n].median_ms.toFixed(0)}`).join(' | ')} |`)].join('\n');
writeResults('scripts/bench-embed-start.mjs', commandLine(), table, loadBefore);
