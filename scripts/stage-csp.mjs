// Stages index.html with its Content-Security-Policy completed: 'inline-script-hashes' and 'inline-style-hashes'
// become the sha256 of each inline <script> / <style> block of the file, so exactly these blocks may run and nothing
// injected can.   Usage: node scripts/stage-csp.mjs index.html build/site.new/index.html
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output] = process.argv.slice(2);
let html = readFileSync(input, 'utf8');
for (const tag of ['script', 'style']) {
  const placeholder = `'inline-${tag}-hashes'`;
  const hashes = [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))]
    .map(([, body]) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  if (!html.includes(placeholder) || hashes.length === 0) {
    console.error(`stage-csp: ${input} has no ${placeholder} placeholder or no inline <${tag}> block`);
    process.exit(1);
  }
  html = html.replaceAll(placeholder, hashes.join(' '));
}
writeFileSync(output, html);
