// Browser storage (IndexedDB) of the spec being edited (the draft), of the last finished runs and of the data sets the
// user brought (web/js/tables.js), so that a reload or a crashed tab loses nothing. Data never leaves the browser. Every failure (quota, private browsing, storage
// turned off) is thrown as the browser's DOMException: the page turns it into a message, never into a crash.
import { tr } from './language.js';

const DB_NAME = 'muplay';
const DB_VERSION = 2;  // 2: the 'tables' store
const KEEP_RUNS = 10;
const KEEP_TABLES = 8;  // data sets, each at most 32 MiB
// Chromium drops IndexedDB writes begun while the page unloads, so the last edit before a reload could be lost:
// on the way out (pagehide, or the tab hidden) the draft is also copied here, synchronously, to localStorage.
const BACKUP_KEY = 'muplay.draft-backup';

// A sentence for a storage error: what went wrong, in the user's terms (and language).
export function describeStorageError(e) {
  const name = e?.name ?? '';
  if (name === 'QuotaExceededError') return tr('the browser\'s storage for this site is full (quota exceeded)');
  if (['SecurityError', 'InvalidStateError', 'NotAllowedError', 'NotFoundError'].includes(name)) {
    return tr('storage is turned off here, e.g. in private browsing ({name})', { name });
  }
  return `${name || 'error'}: ${e?.message ?? e}`;
}

const settle = (request) => new Promise((resolve, reject) => {
  request.onsuccess = () => resolve(request.result);
  request.onerror = () => reject(request.error);
});

// Runs `work(stores)` in one transaction and resolves when it is committed (or rejects with why it was not).
function transaction(db, names, mode, work) {
  return new Promise((resolve, reject) => {
    const t = db.transaction(names, mode);
    let result;
    t.oncomplete = () => resolve(result);
    t.onabort = t.onerror = () => reject(t.error ?? new DOMException('transaction aborted', 'AbortError'));
    Promise.resolve(work(...names.map((n) => t.objectStore(n)))).then((r) => { result = r; }, reject);
  });
}

export async function openStorage() {
  if (typeof indexedDB === 'undefined' || !indexedDB) throw new DOMException('no IndexedDB', 'NotFoundError');
  const request = indexedDB.open(DB_NAME, DB_VERSION);
  request.onupgradeneeded = () => {
    const db = request.result;
    if (!db.objectStoreNames.contains('drafts')) db.createObjectStore('drafts');
    if (!db.objectStoreNames.contains('runs')) db.createObjectStore('runs', { keyPath: 'id', autoIncrement: true });
    if (!db.objectStoreNames.contains('tables')) db.createObjectStore('tables', { keyPath: 'name' });
  };
  const db = await settle(request);
  return {
    // The draft: { text: the spec document as edited, fragment: the address bar's share link at that time, previous:
    // the link it showed before that one (web/js/page.js), time }.
    // The newer of the database's and the unload backup's (a draft saved before this field existed has no time).
    loadDraft: async () => {
      const saved = await transaction(db, ['drafts'], 'readonly', (drafts) => settle(drafts.get('current')));
      let backup = null;
      try {
        backup = JSON.parse(localStorage.getItem(BACKUP_KEY));
      } catch {
        // no localStorage, or an unreadable backup: the database's draft it is
      }
      return typeof backup?.text === 'string' && (backup.time ?? 0) > (saved?.time ?? 0) ? backup : saved;
    },
    // Synchronous, for pagehide: returns whether the copy was made (localStorage may be off or full).
    backupDraft: (draft) => {
      try {
        localStorage.setItem(BACKUP_KEY, JSON.stringify(draft));
        return true;
      } catch {
        return false;
      }
    },
    saveDraft: (draft) => transaction(db, ['drafts'], 'readwrite', (drafts) => { drafts.put(draft, 'current'); }),

    // A finished run: { time, name, result: the result document's text }. Keeps the newest KEEP_RUNS.
    saveRun: (run) => transaction(db, ['runs'], 'readwrite', async (runs) => {
      runs.add(run);
      const keys = await settle(runs.getAllKeys());
      for (const key of keys.slice(0, Math.max(0, keys.length - KEEP_RUNS))) runs.delete(key);
    }),
    listRuns: () => transaction(db, ['runs'], 'readonly', (runs) => settle(runs.getAll())).then((all) => all.reverse()),

    // A data set: { name (its file name, the key), bytes, time }. Keeps the newest KEEP_TABLES.
    saveTable: (name, bytes) => transaction(db, ['tables'], 'readwrite', async (tables) => {
      tables.put({ name, bytes, time: Date.now() });
      const all = await settle(tables.getAll());
      all.sort((a, b) => a.time - b.time);
      for (const old of all.slice(0, Math.max(0, all.length - KEEP_TABLES))) tables.delete(old.name);
    }),
    loadTables: () => transaction(db, ['tables'], 'readonly', (tables) => settle(tables.getAll())),

    clear: () => transaction(db, ['drafts', 'runs', 'tables'], 'readwrite', (drafts, runs, tables) => {
      try { localStorage.removeItem(BACKUP_KEY); } catch { /* nothing kept there either */ }
      drafts.clear();
      runs.clear();
      tables.clear();
    }),
  };
}
