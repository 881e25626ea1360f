/**
 * Builds PNG files of any colour type, bit depth and interlacing for decoder
 * tests, from raw samples, using every row filter. Deliberately
 * straightforward and separate from both the library's encoder and decoder;
 * CRCs come from Node's zlib.
 */
import { zlibSync } from 'fflate';
import { crc32 } from 'node:zlib';

export interface PngSpec {
  width: number;
  height: number;
  /** 0 gray, 2 RGB, 3 palette, 4 gray + alpha, 6 RGBA. */
  colorType: 0 | 2 | 3 | 4 | 6;
  depth: 1 | 2 | 4 | 8 | 16;
  /** Raw samples at the bit depth, row-major, {@link samplesPerPixel} per pixel. */
  samples: ArrayLike<number>;
  interlace?: boolean;
  /** PLTE entries. */
  palette?: readonly (readonly [number, number, number])[];
  /** tRNS chunk bytes. */
  trns?: readonly number[];
  /** Filter types used for successive rows, cycled; default 0–4. */
  filters?: readonly number[];
  /** Split the compressed data into IDAT chunks of this many bytes. */
  idatChunkSize?: number;
  /** Extra chunks written before the image data. */
  chunks?: readonly { type: string; data: Uint8Array }[];
}

export const samplesPerPixel = (colorType: number): number => ({ 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 })[colorType]!;

const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

export function buildPng(spec: PngSpec): Uint8Array {
  const { width, height, colorType, depth } = spec;
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([depth, colorType, 0, 0, spec.interlace ? 1 : 0], 8);
  const chunks = [pngChunk('IHDR', ihdr), ...(spec.chunks ?? []).map((c) => pngChunk(c.type, c.data))];
  if (spec.palette) chunks.push(pngChunk('PLTE', new Uint8Array(spec.palette.flat())));
  if (spec.trns) chunks.push(pngChunk('tRNS', new Uint8Array(spec.trns)));
  const compressed = zlibSync(filteredData(spec));
  const size = spec.idatChunkSize ?? compressed.length;
  for (let at = 0; at < compressed.length; at += size) chunks.push(pngChunk('IDAT', compressed.subarray(at, at + size)));
  chunks.push(pngChunk('IEND', new Uint8Array(0)));
  return concat([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...chunks]);
}

export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The filtered scanlines of every pass, concatenated. */
function filteredData(spec: PngSpec): Uint8Array {
  const { width, height, colorType, depth, samples } = spec;
  const spp = samplesPerPixel(colorType);
  const filters = spec.filters ?? [0, 1, 2, 3, 4];
  const bpp = Math.max(1, (spp * depth) >> 3);
  const passes = spec.interlace ? ADAM7 : ([[0, 0, 1, 1]] as const);
  const out: number[] = [];
  let rowCount = 0;
  for (const [x0, y0, dx, dy] of passes) {
    let previous: number[] | undefined;
    for (let y = y0; y < height; y += dy) {
      const xs: number[] = [];
      for (let x = x0; x < width; x += dx) xs.push(x);
      if (xs.length === 0) break;
      const raw = packRow(xs.map((x) => Array.from({ length: spp }, (_, s) => samples[(y * width + x) * spp + s]!)), depth);
      const filter = filters[rowCount++ % filters.length]!;
      out.push(filter, ...filterRow(filter, raw, previous ?? raw.map(() => 0), bpp));
      previous = raw;
    }
  }
  return new Uint8Array(out);
}

function packRow(pixels: number[][], depth: number): number[] {
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const pixel of pixels) {
    for (const v of pixel) {
      if (depth === 16) {
        bytes.push(v >> 8, v & 0xff);
      } else if (depth === 8) {
        bytes.push(v);
      } else {
        acc = (acc << depth) | v;
        bits += depth;
        if (bits === 8) {
          bytes.push(acc);
          acc = bits = 0;
        }
      }
    }
  }
  if (bits > 0) bytes.push(acc << (8 - bits));
  return bytes;
}

function filterRow(filter: number, raw: number[], above: number[], bpp: number): number[] {
  return raw.map((x, i) => {
    const a = i >= bpp ? raw[i - bpp]! : 0;
    const b = above[i]!;
    const c = i >= bpp ? above[i - bpp]! : 0;
    const predicted = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter]!;
    return (x - predicted) & 0xff;
  });
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
