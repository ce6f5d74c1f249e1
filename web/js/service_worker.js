// Offline use: after one visit the playground loads and trains without a network (a lecture hall's network fails).
// At install this worker fetches the site's files into a cache named by the hash of their contents (the list and the
// hash are written into this file when the site is staged: scripts/stage-offline.mjs), and it answers every request
// from that cache, else from the network (the Fashion-MNIST subset, the threaded build and the Chinese files, which
// only some pages load, are kept the first time they pass). A new version of the site is a new version of this file: the browser
// installs it, it fetches the new files into a new cache and drops the old one, and the next load uses them.
const SITE = { version: 'unstaged', files: [] };  // replaced when the site is staged
const CACHE = `muplay-${SITE.version}`;

self.addEventListener('install', (event) => {
  const fresh = SITE.files.map((file) => new Request(file, { cache: 'reload' }));  // not the HTTP cache's copies
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(fresh)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  const old = (name) => name.startsWith('muplay-') && name !== CACHE;
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter(old).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin) return;
  event.respondWith(cacheElseNetwork(event.request));
});

// A page is cached under its path alone: "?embed=1&view=…" and every share link open the same index.html.
function cacheKey(request) {
  if (request.mode !== 'navigate') return request;
  const url = new URL(request.url);
  return url.origin + (url.pathname.endsWith('/') ? url.pathname + 'index.html' : url.pathname);
}

async function cacheElseNetwork(request) {
  const cache = await caches.open(CACHE);
  const key = cacheKey(request);
  const cached = await cache.match(key);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.status === 200) await cache.put(key, response.clone());
  return response;
}
