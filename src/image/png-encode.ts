/**
 * PNG encoder in plain JavaScript: the same raster gives the same bytes in
 * Node and in every browser, which a canvas or Node's zlib cannot promise
 * (their compressors differ by version and platform). That keeps thumbnails
 * reproducible and comparable byte for byte in tests.
 */
import { zlibSync } from 'fflate';
import { crc32 } from './crc32.js';
import { assertRaster, type Raster } from './raster.js';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** PNG colour type by channel count: gray, truecolour, truecolour with alpha. */
const COLOR_TYPE: Record<Raster['channels'], number> = { 1: 0, 3: 2, 4: 6 };

/**
 * Encodes an 8-bit raster as a non-interlaced PNG with one IDAT chunk.
 *
 * Each row takes the filter (none, sub, up, average or Paeth) whose output
 * has the smallest sum of absolute values as signed bytes, the heuristic
 * libpng uses; ties go to the lower filter number. The compressor's level
 * and memory are fixed because fflate otherwise derives its window from
 * `Math.log`, which engines need not round alike.
 */
export function encodePng(raster: Raster): Uint8Array {
  assertRaster(raster);
  const { width, height, channels } = raster;
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr[8] = 8;
  ihdr[9] = COLOR_TYPE[channels];
  // Bytes 10–12: deflate compression, adaptive filtering, no interlace — all 0.
  const idat = zlibSync(filterRows(raster), { level: 6, mem: 8 });
  const chunks = [chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(SIGNATURE.length + chunks.reduce((n, c) => n + c.length, 0));
  out.set(SIGNATURE, 0);
  let offset = SIGNATURE.length;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

/** The filtered image data: each row prefixed by its filter type byte. */
function filterRows(raster: Raster): Uint8Array {
  const { width, height, channels, data } = raster;
  const stride = width * channels;
  const out = new Uint8Array(height * (stride + 1));
  const candidates = Array.from({ length: 5 }, () => new Uint8Array(stride));
  const zeros = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const row = data.subarray(y * stride, (y + 1) * stride);
    const above = y > 0 ? data.subarray((y - 1) * stride, y * stride) : zeros;
    let best = 0;
    let bestScore = Infinity;
    for (let type = 0; type < 5; type++) {
      const filtered = candidates[type]!;
      let score = 0;
      for (let i = 0; i < stride; i++) {
        const a = i >= channels ? row[i - channels]! : 0;
        const b = above[i]!;
        const c = i >= channels ? above[i - channels]! : 0;
        const value = (row[i]! - predict(type, a, b, c)) & 0xff;
        filtered[i] = value;
        score += value < 128 ? value : 256 - value;
      }
      if (score < bestScore) {
        best = type;
        bestScore = score;
      }
    }
    out[y * (stride + 1)] = best;
    out.set(candidates[best]!, y * (stride + 1) + 1);
  }
  return out;
}

/** The predictor of a PNG filter type from the left (a), upper (b) and upper-left (c) bytes. */
function predict(type: number, a: number, b: number, c: number): number {
  switch (type) {
    case 1:
      return a;
    case 2:
      return b;
    case 3:
      return (a + b) >> 1;
    case 4:
      return paeth(a, b, c);
    default:
      return 0;
  }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/** Length, type, data and the CRC of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}
