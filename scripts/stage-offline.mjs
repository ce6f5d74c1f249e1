// Writes the staged site's file list and a hash of their contents into its service worker (web/js/service_worker.js),
// which fetches them into the browser's cache at install, so that the page works offline after one visit. Left out:
// the Fashion-MNIST subset, the threaded build and the Chinese catalogue and font (only some pages load them; the worker
// caches them as they pass),
// and the worker itself.   Usage: node scripts/stage-offline.mjs build/site.new
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const site = process.argv[2];
const WORKER = 'service_worker.js';
const leftOut = (rel) => rel === WORKER || rel.startsWith('data/') || rel.startsWith('muplay-threads.') ||
  rel.startsWith('i18n/') || rel.startsWith('fonts/');

function filesUnder(dir, prefix = '') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory()
    ? filesUnder(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]));
}

const files = filesUnder(site).filter((f) => !leftOut(f)).sort();
const hash = createHash('sha256');
for (const f of files) hash.update(f).update(readFileSync(path.join(site, f)));
const list = { version: hash.digest('hex').slice(0, 16), files };
const workerPath = path.join(site, WORKER);
const source = readFileSync(workerPath, 'utf8');
const placeholder = "const SITE = { version: 'unstaged', files: [] };";
if (!source.includes(placeholder)) {
  console.error(`stage-offline: ${workerPath} lacks the line ${placeholder}`);
  process.exit(1);
}
writeFileSync(workerPath, source.replace(placeholder, `const SITE = ${JSON.stringify(list)};`));
console.log(`stage-offline: ${files.length} files for offline use, version ${list.version}`);
