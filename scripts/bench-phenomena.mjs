#!/usr/bin/env node
// Wall time of each phenomena preset (examples/2*.json) run to completion in headless Chromium, as a student
// would run it from the page: prints one line per preset and writes build/bench/phenomena.json and its section of
// tests/bench/RESULTS.md.
// Usage: node scripts/bench-phenomena.mjs [pattern]   (after scripts/build; pattern filters preset file names)
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openPlayground, ROOT } from '../tests/browser/harness.mjs';
import { commandLine, loadNow, writeResults } from './bench-results.mjs';

const filter = new RegExp(process.argv[2] ?? 'examples/2\\d-');
const loadBefore = loadNow();
const pg = await openPlayground();
const results = [];
try {
  const presets = JSON.parse(await pg.page.evaluate(() => window.muplay.muplay_list_presets()));
  for (let i = 0; i < presets.length; i++) {
    if (!filter.test(presets[i].path)) continue;
    await pg.page.evaluate((k) => window.muplay.muplay_load_preset(k), i);
    const start = Date.now();
    await pg.page.evaluate(() => window.muplay.muplay_run());
    await pg.page.waitForFunction(() => window.muplay.muplay_state() === 'finished', null,
                                  { timeout: 600_000, polling: 250 });
    const seconds = (Date.now() - start) / 1000;
    const steps = await pg.page.evaluate(() => window.muplay.muplay_total_steps());
    const name = path.basename(presets[i].path);
    results.push({ preset: name, seconds, steps });
    console.log(`${name}: ${seconds.toFixed(1)} s, ${steps} steps`);
  }
} finally {
  await pg.close();
}
mkdirSync(path.join(ROOT, 'build', 'bench'), { recursive: true });
writeFileSync(path.join(ROOT, 'build', 'bench', 'phenomena.json'), JSON.stringify(results, null, 2) + '\n');
const table = ['Wall seconds from Run to finished in headless Chromium, each preset loaded from the page\'s API.', '',
  '| preset | steps (all members) | Chromium s |', '|---|---|---|',
  ...results.map((r) => `| ${r.preset.replace(/\.json$/, '')} | ${r.steps} | ${r.seconds.toFixed(1)} |`)].join('\n');
writeResults('scripts/bench-phenomena.mjs', commandLine(), table, loadBefore);
