import { deflateSync } from 'node:zlib';

/**
 * The app and tray icons, drawn in code (no binary assets): a rounded square with an arch, and a red
 * badge with the unread count. Encoded as PNG so any platform reads the colours the same way.
 */

type Rgba = readonly [number, number, number, number];
const BRAND: Rgba = [37, 99, 235, 255];
const WHITE: Rgba = [255, 255, 255, 255];
const BADGE: Rgba = [220, 38, 38, 255];

/** 3x5 digits and a plus, one string per row. */
const GLYPHS: Record<string, readonly string[]> = {
  '0': ['111', '101', '101', '101', '111'],
  '1': ['010', '110', '010', '010', '111'],
  '2': ['111', '001', '111', '100', '111'],
  '3': ['111', '001', '111', '001', '111'],
  '4': ['101', '101', '111', '001', '001'],
  '5': ['111', '100', '111', '001', '111'],
  '6': ['111', '100', '111', '101', '111'],
  '7': ['111', '001', '010', '010', '010'],
  '8': ['111', '101', '111', '101', '111'],
  '9': ['111', '101', '111', '001', '111'],
  '+': ['000', '010', '111', '010', '000'],
};

/** What the badge says: nothing for 0, the count up to 9, then "9+". */
export function badgeLabel(count: number): string {
  if (!Number.isFinite(count) || count <= 0) return '';
  return count > 9 ? '9+' : String(Math.floor(count));
}

class Canvas {
  readonly pixels: Uint8Array;
  constructor(readonly size: number) {
    this.pixels = new Uint8Array(size * size * 4);
  }

  /** Paints colour over every pixel, weighted by how much of the pixel `inside` covers (4x4 samples). */
  fill(colour: Rgba, inside: (x: number, y: number) => boolean): void {
    const { size, pixels } = this;
    for (let py = 0; py < size; py++) {
      for (let px = 0; px < size; px++) {
        let hits = 0;
        for (let sy = 0; sy < 4; sy++) for (let sx = 0; sx < 4; sx++) if (inside(px + (sx + 0.5) / 4, py + (sy + 0.5) / 4)) hits++;
        if (hits === 0) continue;
        const alpha = ((hits / 16) * colour[3]) / 255;
        const i = (py * size + px) * 4;
        const below = pixels[i + 3] / 255;
        const outAlpha = alpha + below * (1 - alpha);
        for (let c = 0; c < 3; c++) {
          pixels[i + c] = Math.round((colour[c] * alpha + pixels[i + c] * below * (1 - alpha)) / outAlpha);
        }
        pixels[i + 3] = Math.round(outAlpha * 255);
      }
    }
  }
}

const roundedRect = (x0: number, y0: number, x1: number, y1: number, r: number) => (x: number, y: number) => {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};

const circle = (cx: number, cy: number, r: number) => (x: number, y: number) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;

/**
 * Raw RGBA pixels, `size` px square: the icon with a badge for `count`, or with `badgeOnly` just the
 * badge filling the square (the Windows taskbar overlay).
 */
export function drawIconPixels(size: number, count = 0, options: { badgeOnly?: boolean } = {}): Uint8Array {
  const canvas = new Canvas(size);
  const s = size / 32;
  if (options.badgeOnly !== true) {
    canvas.fill(BRAND, roundedRect(1 * s, 1 * s, 31 * s, 31 * s, 7 * s));
    // An arch (the atrium's doorway): a ring's upper half on two pillars.
    const archOuter = (x: number, y: number) => (y <= 15 * s ? circle(16 * s, 15 * s, 9 * s)(x, y) : x >= 7 * s && x <= 25 * s && y <= 26 * s);
    const archInner = (x: number, y: number) => (y <= 15 * s ? circle(16 * s, 15 * s, 5 * s)(x, y) : x >= 11 * s && x <= 21 * s && y <= 26 * s);
    canvas.fill(WHITE, (x, y) => archOuter(x, y) && !archInner(x, y));
  }

  const label = badgeLabel(count);
  if (label !== '') {
    // A 10/32 radius badge in the top-right corner, or centred and as large as the square when alone.
    const r = (options.badgeOnly === true ? 15 : 10) * s;
    const cx = options.badgeOnly === true ? size / 2 : size - r - 0.5 * s;
    const cy = options.badgeOnly === true ? size / 2 : r + 0.5 * s;
    canvas.fill(WHITE, circle(cx, cy, r + 1 * s));
    canvas.fill(BADGE, circle(cx, cy, r));
    // Glyphs 3 cells wide with one cell between them, 2 px cells at 32 px.
    const cell = (options.badgeOnly === true ? 3 : 2) * s;
    const width = (label.length * 4 - 1) * cell;
    const left = cx - width / 2;
    const top = cy - (5 * cell) / 2;
    canvas.fill(WHITE, (x, y) => {
      const col = Math.floor((x - left) / cell);
      const row = Math.floor((y - top) / cell);
      if (x < left || y < top || row > 4 || col >= label.length * 4) return false;
      const glyph = GLYPHS[label[Math.floor(col / 4)]];
      return col % 4 < 3 && glyph[row][col % 4] === '1';
    });
  }
  return canvas.pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A truecolour-with-alpha PNG of square RGBA pixels. */
export function encodePng(size: number, rgba: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, rgba.byteOffset + y * size * 4, size * 4).copy(rows, y * (size * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** The icon as PNG, `size` px square, with a badge when count > 0. */
export function drawIconPng(size: number, count = 0): Buffer {
  return encodePng(size, drawIconPixels(size, count));
}

/** Only the badge, as PNG. */
export function drawBadgePng(size: number, count: number): Buffer {
  return encodePng(size, drawIconPixels(size, count, { badgeOnly: true }));
}
