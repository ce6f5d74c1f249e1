// Data sets the user brings (task.kind "table": a CSV, .npy or .npz file). The file never leaves the browser: it is put
// into the module's file system at /data/tables/NAME (web/app/page_limits.hpp), where the engine reads it, goes to
// the training workers with the spec (web/js/trainer_client.js), and is kept in browser storage for the next visit.
//
//   importTable   a file picked (Import…) or dropped: opened in the Data window, where its columns are chosen
//                 (web/app/table_import.hpp).
//   links         a data set of at most MAX_LINK_DATA bytes once compressed rides inside the share link, after the
//                 engine's part: "#s=1.<spec>&r=1&d=<base64url(deflate-raw(NAME \n BYTES))>"; a larger one is named
//                 by the spec only (file name, size, SHA-256) and asked for when the link opens.
//   asking        while the editor's spec names a table the page does not hold, a dialog asks for it; a file
//                 of other bytes is refused, with both names and sizes.
//   ?data=URL     a data set served on the page's own site, fetched before the experiment opens (fetchTable).
import { tr } from './language.js';

const $ = (id) => document.getElementById(id);

export const TABLE_DIR = '/data/tables';
const INCOMING_DIR = '/data/incoming';
export const MAX_TABLE_BYTES = 32 << 20;  // engine/task/table_file.hpp: kMaxTableFileBytes
export const MAX_LINK_DATA = 32 << 10;    // compressed bytes a link may carry (about 44 000 characters)
const DATA_PART = '&d=';

// Opened as a data set when picked or dropped; a .txt (which the engine also reads as CSV) opens as a spec, as it
// always has: rename a data file .csv or .tsv.
export const isTableFile = (name) => /\.(csv|tsv|npy|npz)$/i.test(name);
// The name the spec gives it: no folders.
const fileName = (name) => name.replace(/^.*[\\/]/, '');

function base64url(bytes) {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function through(stream, bytes) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

function putFile(dir, name, bytes) {
  const fs = window.Module.FS;
  fs.mkdirTree(dir);
  fs.writeFile(`${dir}/${name}`, bytes);
}

// Browser storage for the data sets (web/js/storage.js), where there is one: a reload finds them again.
let storage = null;
const keepTable = (name, bytes, report) => storage?.saveTable(name, bytes).catch((e) => {
  report(tr('{name} is used, but not kept in this browser ({why}): after a reload it is asked for again.',
            { name, why: `${e.name}: ${e.message}` }));
});

// The data sets kept from earlier visits, back into the page (before the first experiment opens).
export async function restoreTables(kept, report) {
  storage = kept;
  if (!storage) return;
  try {
    for (const { name, bytes } of await storage.loadTables()) putFile(TABLE_DIR, name, bytes);
  } catch (e) {
    report(tr('The data sets kept in this browser could not be read ({why}).', { why: `${e.name}: ${e.message}` }));
  }
}

// A file the user picked or dropped: into the page, then into the Data window.
export async function importTable(m, file, ui) {
  if (file.size > MAX_TABLE_BYTES) {
    return ui.notice(tr('"{file}" is {size} MiB, more than the 32 MiB a data set may have in the page. Use a part of its rows, or train it from the command line.',
                        { file: file.name, size: (file.size / 2 ** 20).toFixed(1) }));
  }
  const name = fileName(file.name);
  const bytes = new Uint8Array(await file.arrayBuffer());
  putFile(TABLE_DIR, name, bytes);
  const why = m.muplay_open_table(name);
  if (why) return ui.notice(tr('Could not open "{file}": {why}', { file: file.name, why }));
  keepTable(name, bytes, ui.notice);
  return ui.status(tr('{file}: choose its target and inputs in the Data window.', { file: file.name }));
}

// The table the editor's spec trains on: { file, sha256 } or null.
function specTable(m) {
  const table = JSON.parse(m.muplay_get_spec())?.task?.table;  // written for a table task only
  return table?.file ? table : null;
}

// The link's data part for the editor's spec ('' when there is no table, or it is too large to ride along). It is
// compressed once per file; until then '' is returned and `ready` is called when it is there.
export function linkData(m, ready) {
  const table = specTable(m);
  if (!table) return '';
  const key = `${table.file} ${table.sha256}`;
  if (linkData.key === key) return linkData.part;
  if (linkData.pending !== key) {
    linkData.pending = key;
    const path = `${TABLE_DIR}/${table.file}`;
    if (!window.Module.FS.analyzePath(path).exists) return '';
    const named = new TextEncoder().encode(`${table.file}\n`);
    const bytes = window.Module.FS.readFile(path);
    const payload = new Uint8Array(named.length + bytes.length);
    payload.set(named);
    payload.set(bytes, named.length);
    through(new CompressionStream('deflate-raw'), payload).then((packed) => {
      linkData.key = key;
      linkData.part = packed.length <= MAX_LINK_DATA ? DATA_PART + base64url(packed) : '';
      linkData.tooLarge = packed.length > MAX_LINK_DATA ? packed.length : 0;
      ready();
    }).catch((e) => console.warn(`The data set does not ride in the link: ${e.message}`));
  }
  return '';
}

// Why the link carries no data, for the share dialog ('' when it does, or there is no table).
export function linkDataNote(m) {
  const table = specTable(m);
  if (!table || !linkData.tooLarge || linkData.key !== `${table.file} ${table.sha256}`) return '';
  return tr('{file} is {size} KiB compressed, more than the {limit} KiB a link carries: whoever opens the link is asked for the file.',
            { file: table.file, size: (linkData.tooLarge / 1024).toFixed(0), limit: MAX_LINK_DATA / 1024 });
}

// A data set served beside the page, named by the address's ?data= (a lecturer's notes can point an embed at the file
// they serve): fetched from the page's own site (its content-security policy allows no other: connect-src 'self'),
// kept under the last part of its path, which is the name the spec's task.table.file must give.
export async function fetchTable(address, report) {
  let url;
  try {
    url = new URL(address, location.href);
    if (url.origin !== location.origin) throw new Error(tr('it is not on this page\'s site ({origin})', { origin: location.origin }));
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length > MAX_TABLE_BYTES) throw new Error(tr('{bytes} bytes, more than a data set may have', { bytes: bytes.length }));
    const name = fileName(decodeURIComponent(url.pathname));
    putFile(TABLE_DIR, name, bytes);
    keepTable(name, bytes, report);
  } catch (e) {
    report(tr('The data set {address} (?data=) could not be fetched: {why}. The page asks for the file instead.',
              { address, why: e.message }));
  }
}

// A link's fragment without its data part, after putting the data it carries into the page. A data part that cannot
// be read is reported (the spec then asks for the file as if the link had none).
export async function takeLinkData(fragment, report) {
  const at = fragment.indexOf(DATA_PART);
  if (at < 0) return fragment;
  try {
    const payload = await through(new DecompressionStream('deflate-raw'), fromBase64url(fragment.slice(at + DATA_PART.length)));
    const newline = payload.indexOf(10);
    if (newline <= 0) throw new Error(tr('it has no file name'));
    const name = fileName(new TextDecoder().decode(payload.subarray(0, newline)));
    putFile(TABLE_DIR, name, payload.subarray(newline + 1));
    keepTable(name, payload.slice(newline + 1), report);
  } catch (e) {
    report(tr('The data set in this link could not be read ({why}; the link may be cut short).', { why: e.message }));
  }
  return fragment.slice(0, at);
}

// While the editor's spec names a table the page does not hold, a dialog asks for it.
export function startTableRequests(m, ui) {
  const dialog = $('table-dialog');
  const picker = $('table-file');
  let asked = '';
  const ask = () => {
    const wanted = m.muplay_table_wanted();
    if (!wanted) {
      asked = '';
      if (dialog.open) dialog.close();
      return;
    }
    if (wanted === asked) return;
    asked = wanted;
    const { file, bytes, sha256 } = JSON.parse(wanted);
    $('table-wanted').textContent = tr('This experiment trains on {file} ({bytes} bytes, SHA-256 {sha256}…), a data file of its own that its link does not carry. Choose that file on this computer: it stays in this browser.',
                                       { file, bytes, sha256: String(sha256).slice(0, 12) });
    $('table-refused').textContent = '';
    if (!dialog.open) dialog.showModal();
  };
  $('table-choose').addEventListener('click', () => picker.click());
  picker.addEventListener('change', async () => {
    const file = picker.files[0];
    picker.value = '';
    if (!file) return;
    if (file.size > MAX_TABLE_BYTES) {
      $('table-refused').textContent = tr('{file} is {bytes} bytes, more than a data set may have.',
                                          { file: file.name, bytes: file.size });
      return;
    }
    const name = fileName(file.name);
    const bytes = new Uint8Array(await file.arrayBuffer());
    putFile(INCOMING_DIR, name, bytes);
    const wanted = JSON.parse(asked).file;
    const why = m.muplay_offer_table(`${INCOMING_DIR}/${name}`, name);
    $('table-refused').textContent = why;
    if (!why) {
      keepTable(wanted, bytes, ui.notice);
      dialog.close();
      ui.status(tr('{file} is the experiment\'s data: Run trains on it.', { file: file.name }));
    }
  });
  setInterval(ask, 300);
}
