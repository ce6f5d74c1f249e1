// Minimal PNG decoder for screenshots (8-bit RGB/RGBA, non-interlaced: what Chromium writes). Node's zlib only.
import { inflateSync } from 'node:zlib';

// Returns { width, height, channels, data } with data = unfiltered pixel bytes, row-major.
export function decodePng(buf) {
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let width, height, channels;
  const idat = [];
  for (let pos = 8; pos < buf.length;) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const body = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colorType, , , interlace] = body.subarray(8, 13);
      channels = { 2: 3, 6: 4 }[colorType];
      if (depth !== 8 || !channels || interlace) throw new Error(`unsupported PNG: depth ${depth} type ${colorType}`);
    } else if (type === 'IDAT') {
      idat.push(body);
    }
    pos += 12 + len;  // length + type + body + CRC
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const data = Buffer.alloc(stride * height);
  // Undo the per-row filters (PNG spec section 9); a = left, b = up, c = up-left.
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? data[row + x - channels] : 0;
      const b = y > 0 ? data[row - stride + x] : 0;
      const c = x >= channels && y > 0 ? data[row - stride + x - channels] : 0;
      let p;
      switch (filter) {
        case 0: p = 0; break;
        case 1: p = a; break;
        case 2: p = b; break;
        case 3: p = (a + b) >> 1; break;
        case 4: {
          const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c);
          p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default: throw new Error(`bad PNG filter ${filter}`);
      }
      data[row + x] = (src[x] + p) & 0xff;
    }
  }
  return { width, height, channels, data };
}

// Counts pixels per RGB colour; returns a Map from 0xRRGGBB to count.
export function colourHistogram({ width, height, channels, data }) {
  const counts = new Map();
  for (let i = 0; i < width * height * channels; i += channels) {
    const key = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
