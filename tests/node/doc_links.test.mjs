// The documents stay connected and the README stays short: every relative link of every tracked Markdown file
// resolves (the file exists; a #anchor names a heading of the target, by GitHub's slug rules), and README.md is at
// most 220 lines with no date and no commit hash in it (dated logs and measurements live in commit messages and in
// tests/bench/RESULTS.md, written by the benchmark scripts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// GitHub's heading anchors: the heading's text without Markdown markup, lower case, every character that is not a
// letter, digit, space, '-' or '_' dropped, each space turned into '-'; a repeated slug gets -1, -2, ...
export function slug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')  // links and images: their text
    .replace(/[`*]/g, '')                       // code spans and emphasis
    .replace(/<[^>]+>/g, '');                   // inline HTML
  return text.trim().toLowerCase().replace(/[^\p{L}\p{N}\p{M} _-]/gu, '').replace(/ /g, '-');
}

// The lines outside fenced code blocks (blank inside them), with code spans blanked when `blankCode` (a link inside
// code is not a link; a heading's code is part of its anchor).
function prose(markdown, blankCode = true) {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) { fenced = !fenced; return ''; }
    if (fenced) return '';
    return blankCode ? line.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length)) : line;
  });
}

// Every anchor a Markdown file offers: its headings' slugs (numbered when repeated).
export function anchors(markdown) {
  const seen = new Map();
  const out = new Set();
  for (const line of prose(markdown, false)) {
    const m = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

// Relative links [text](target) and images ![alt](target) of a Markdown text (their text may wrap onto the next
// line), with the line numbers they start on.
export function relativeLinks(markdown) {
  const text = prose(markdown).join('\n');
  const links = [];
  for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = m[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;  // http:, https:, mailto:, ...
    links.push({ line: text.slice(0, m.index).split('\n').length, target });
  }
  return links;
}

// The problems of one file's links: "FILE:LINE: TARGET: why". `read(path)` gives a repository file's text or null.
export function linkProblems(file, markdown, read) {
  const problems = [];
  for (const { line, target } of relativeLinks(markdown)) {
    const [rawPath, anchor] = target.split('#', 2);
    const resolved = rawPath ? path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(rawPath)))
                             : file;
    const where = `${file}:${line}: ${target}`;
    if (resolved.startsWith('..')) { problems.push(`${where}: leaves the repository`); continue; }
    const text = rawPath ? read(resolved) : markdown;
    if (text === null) { problems.push(`${where}: no such file`); continue; }
    if (anchor === undefined || anchor === '') continue;
    if (!resolved.endsWith('.md')) { problems.push(`${where}: an anchor into a file that is not Markdown`); continue; }
    if (!anchors(text).has(decodeURIComponent(anchor))) problems.push(`${where}: ${resolved} has no heading #${anchor}`);
  }
  return problems;
}

function readRepoFile(relative) {
  const full = path.join(ROOT, relative);
  if (!existsSync(full)) return null;
  return statSync(full).isDirectory() ? '' : readFileSync(full, 'utf8');
}

const markdownFiles = execFileSync('git', ['ls-files', '*.md'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n').filter((f) => f && existsSync(path.join(ROOT, f)));

test('every relative link of every tracked Markdown file resolves, anchors included', () => {
  assert.ok(markdownFiles.includes('README.md'), 'git ls-files lists README.md');
  const problems = markdownFiles.flatMap((f) => linkProblems(f, readFileSync(path.join(ROOT, f), 'utf8'), readRepoFile));
  assert.deepEqual(problems, []);
});

test('README.md is short and holds no dates or commit hashes', () => {
  const lines = readFileSync(path.join(ROOT, 'README.md'), 'utf8').replace(/\n$/, '').split('\n');
  assert.ok(lines.length <= 220, `README.md has ${lines.length} lines; at most 220 (move reference material beside ` +
            'what it describes)');
  const dated = lines.map((l, i) => [i + 1, l]).filter(([, l]) => /\b20\d\d-[01]\d-[0-3]\d\b/.test(l) ||
                                                                 /\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b/.test(l));
  assert.deepEqual(dated, [], 'README.md lines with a date or a commit hash (they belong in commit messages)');
});

test('the link checker sees a broken file, a broken anchor and a good one', () => {
  const files = { 'docs/a.md': '# Title\n\n## Share links, embeds and files\n## Same\n## Same\n## Command line: `muplay`\n',
                  'x.txt': 'x' };
  const read = (p) => files[p] ?? null;
  const text = '[ok](docs/a.md#share-links-embeds-and-files) [ok](docs/a.md#same-1) [ok](x.txt) ' +
               '[ok](docs/a.md#command-line-muplay) ' +
               '[bad](docs/b.md) [bad](docs/a.md#nowhere) [web](https://example.org/#x) `[code](nope.md)`\n' +
               '```\n[fenced](nope.md)\n```\n[self](#nowhere) [wrapped\nlink](docs/c.md)\n';
  assert.deepEqual(linkProblems('README.md', text, read), [
    'README.md:1: docs/b.md: no such file',
    'README.md:1: docs/a.md#nowhere: docs/a.md has no heading #nowhere',
    'README.md:5: #nowhere: README.md has no heading #nowhere',
    'README.md:5: docs/c.md: no such file',
  ]);
  assert.equal(slug('Command line: `muplay`'), 'command-line-muplay');
  assert.equal(slug("The book's phenomena (frequency principle, phase diagram)"),
               'the-books-phenomena-frequency-principle-phase-diagram');
  assert.equal(slug('Depth: residual MLPs and Depth-μP'), 'depth-residual-mlps-and-depth-μp');
});
