// Stages index.html for the site, completing the two things it leaves to the build:
// - its list of the app's exported functions: 'js-api-exports' becomes [name, return type, argument types] for
//   cwrap of every function web/js_api.cpp exports with EMSCRIPTEN_KEEPALIVE (const char* is a string, void none,
//   any other type a number; the raw heap functions, which take or return void*, are called directly instead), so
//   the page and the module cannot drift apart;
// - its Content-Security-Policy: 'inline-script-hashes' and 'inline-style-hashes' become the sha256 of each inline
//   <script> / <style> block of the file (as completed above), so exactly these blocks may run and nothing injected
//   can.
// Usage: node scripts/stage-index.mjs index.html web/js_api.cpp build/site.new/index.html
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

const [input, api, output] = process.argv.slice(2);
const fail = (message) => {
  console.error(`stage-index: ${message}`);
  process.exit(1);
};
let html = readFileSync(input, 'utf8');

const type = (t) => (t.replace(/\s+/g, ' ').trim() === 'const char*' ? 'string' : 'number');
const exports = [...readFileSync(api, 'utf8').matchAll(/^EMSCRIPTEN_KEEPALIVE\s+([\w\s*]+?)\s*\b(\w+)\(([^)]*)\)/gm)]
  .filter(([, ret, , args]) => !/void\s*\*/.test(ret + args))
  .map(([, ret, name, args]) => [name, ret.trim() === 'void' ? null : type(ret),
    args.trim() === '' ? [] : args.split(',').map((a) => type(a.replace(/\w+\s*$/, '')))]);
if (exports.length === 0 || !html.includes("'js-api-exports'")) {
  fail(`no exports in ${api}, or no 'js-api-exports' in ${input}`);
}
html = html.replace("'js-api-exports'", `[\n${exports.map((e) => `    ${JSON.stringify(e)},`).join('\n')}\n  ]`);

for (const tag of ['script', 'style']) {
  const placeholder = `'inline-${tag}-hashes'`;
  const hashes = [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))]
    .map(([, body]) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  if (!html.includes(placeholder) || hashes.length === 0) {
    fail(`${input} has no ${placeholder} placeholder or no inline <${tag}> block`);
  }
  html = html.replaceAll(placeholder, hashes.join(' '));
}
writeFileSync(output, html);
