// A tiny static file server for build/site (no npm dependencies), bound to 127.0.0.1 only.
//   CLI:    node scripts/static-server.mjs [--root DIR] [--port N] [--isolated]    (N = 0 picks a free port)
//           prints "Serving DIR at http://127.0.0.1:PORT/" once listening.
//   Module: const { url, close } = await startServer({ root, port: 0 });   (used by tests/browser/harness.mjs)
// It sends no special headers (no COOP/COEP): the page must work on any static host, so we test it that way.
// With `isolated: true` (CLI: --isolated) it adds COOP/COEP, making the page cross-origin isolated
// (SharedArrayBuffer, hence wasm threads, become available; performance.now() gets finer).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',  // required for WebAssembly.instantiateStreaming
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.wgsl': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
};

const ISOLATION_HEADERS = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export async function startServer({ root, port = 8080, host = '127.0.0.1', isolated = false } = {}) {
  const base = path.resolve(root);
  const server = createServer(async (req, res) => {
    const send = (code, text) => { res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8' }); res.end(text); };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n');
    let rel;
    try {
      rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      return send(400, 'bad request\n');
    }
    // Resolve inside the root only: path.join normalises "..", and the prefix check rejects escapes.
    let file = path.join(base, rel);
    if (file !== base && !file.startsWith(base + path.sep)) return send(403, 'forbidden\n');
    try {
      let info = await stat(file);
      if (info.isDirectory()) { file = path.join(file, 'index.html'); info = await stat(file); }
      res.writeHead(200, {
        'Content-Type': MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
        'Content-Length': info.size,
        'Cache-Control': 'no-cache',  // a rebuild is picked up on reload
        ...(isolated ? ISOLATION_HEADERS : {}),
      });
      if (req.method === 'HEAD') return res.end();
      createReadStream(file).on('error', () => res.destroy()).pipe(res);
    } catch {
      send(404, 'not found\n');
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const actual = server.address().port;
  return {
    port: actual,
    url: `http://${host}:${actual}/`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

// CLI entry point (not when imported).
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt; };
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = opt('--root', path.join(here, '..', 'build', 'site'));
  const port = Number(opt('--port', '8080'));
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`static-server: bad --port ${opt('--port')}`);
    process.exit(2);
  }
  try {
    const isolated = args.includes('--isolated');
    const { url } = await startServer({ root, port, isolated });
    console.log(`Serving ${path.resolve(root)} at ${url}${isolated ? ' (cross-origin isolated)' : ''}  (Ctrl-C to stop)`);
  } catch (e) {
    console.error(`static-server: ${e.message}`);
    process.exit(1);
  }
}
