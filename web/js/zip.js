// A zip archive of files (text, or bytes as they are), stored without compression: the Export menu's "PyTorch script
// (.zip)", whose data file may be binary. A stored archive needs only three parts of the format (PKWARE's
// APPNOTE.TXT, sections 4.3.7, 4.3.12 and 4.3.16): per file a local header and its bytes, then a central directory
// with one entry per file, then the end record. Numbers are little-endian; names are UTF-8 (flag bit 11). No zip64: a
// project of a few files (its data set at most 32 MiB) is far below 4 GB.
const LOCAL_HEADER = 0x04034b50, CENTRAL_HEADER = 0x02014b50, END_RECORD = 0x06054b50;
const VERSION = 10;        // 1.0: stored entries need nothing newer
const UTF8_NAMES = 0x0800;

// CRC-32 (the polynomial 0xEDB88320, reflected), as zip checks each file's bytes with.
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// MS-DOS time and date, the only timestamp a plain zip header holds (2-second resolution, local time).
function dosTimeDate(date) {
  const time = (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1);
  const day = ((Math.max(date.getFullYear(), 1980) - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  return { time, day };
}

// Writes fields of 2 or 4 bytes in order: [[size, value], ...].
function record(fields, tail = new Uint8Array(0)) {
  const head = fields.reduce((n, [size]) => n + size, 0);
  const out = new Uint8Array(head + tail.length);
  const view = new DataView(out.buffer);
  let at = 0;
  for (const [size, value] of fields) {
    if (size === 2) view.setUint16(at, value, true);
    else view.setUint32(at, value, true);
    at += size;
  }
  out.set(tail, head);
  return out;
}

// files: [{ path, text }] or [{ path, bytes }] → the archive's bytes.
export function storedZip(files, date = new Date()) {
  const { time, day } = dosTimeDate(date);
  const encoder = new TextEncoder();
  const parts = [], central = [];
  let offset = 0;
  for (const file of files) {
    const name = encoder.encode(file.path), data = file.bytes ?? encoder.encode(file.text);
    const crc = crc32(data);
    // Fields both headers share: flags, method (0: stored), time, date, CRC-32, compressed and real size, name length.
    const common = [[2, UTF8_NAMES], [2, 0], [2, time], [2, day], [4, crc], [4, data.length], [4, data.length],
                    [2, name.length]];
    const local = record([[4, LOCAL_HEADER], [2, VERSION], ...common, [2, 0]], name);
    // Central entry: made by and needed, the shared fields, no extra field, comment, disk, attributes; the offset.
    central.push(record([[4, CENTRAL_HEADER], [2, VERSION], [2, VERSION], ...common, [2, 0], [2, 0], [2, 0], [2, 0],
                         [4, 0], [4, offset]], name));
    parts.push(local, data);
    offset += local.length + data.length;
  }
  const directorySize = central.reduce((n, c) => n + c.length, 0);
  const end = record([[4, END_RECORD], [2, 0], [2, 0], [2, files.length], [2, files.length], [4, directorySize],
                      [4, offset], [2, 0]]);
  const all = [...parts, ...central, end];
  const out = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of all) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
