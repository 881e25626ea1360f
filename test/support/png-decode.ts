/**
 * A deliberately plain PNG reader for tests, sharing no code with the
 * encoder: 8-bit gray, RGB and RGBA, non-interlaced, all five filter types.
 * It checks every chunk's CRC and the chunk layout, and throws on anything
 * it does not expect, so a test that decodes an encoder's output checks the
 * file as well as the pixels.
 */
import { unzlibSync } from 'fflate';
import type { Raster } from '../../src/image/raster.js';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const CHANNELS: Record<number, 1 | 3 | 4> = { 0: 1, 2: 3, 6: 4 };

/** The pixels, and the filter type of each row. */
export function decodePng(bytes: Uint8Array): Raster & { filters: number[] } {
  if (SIGNATURE.some((b, i) => bytes[i] !== b)) throw new Error('not a PNG signature');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const types: string[] = [];
  const idat: Uint8Array[] = [];
  let header: Uint8Array | undefined;
  let offset = 8;
  while (offset < bytes.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (view.getUint32(offset + 8 + length) !== bitwiseCrc32(bytes.subarray(offset + 4, offset + 8 + length))) {
      throw new Error(`bad CRC in ${type}`);
    }
    types.push(type);
    if (type === 'IHDR') header = data;
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  if (offset !== bytes.length) throw new Error('truncated chunk');
  if (types[0] !== 'IHDR' || types.at(-1) !== 'IEND' || !header || header.length !== 13) throw new Error(`bad chunk layout ${types.join(' ')}`);
  const ihdr = new DataView(header.buffer, header.byteOffset, 13);
  const width = ihdr.getUint32(0);
  const height = ihdr.getUint32(4);
  const channels = CHANNELS[header[9]!];
  if (header[8] !== 8 || !channels || header[10] !== 0 || header[11] !== 0 || header[12] !== 0) {
    throw new Error(`unsupported IHDR ${[...header.subarray(8)].join(',')}`);
  }

  const compressed = new Uint8Array(idat.reduce((n, d) => n + d.length, 0));
  let at = 0;
  for (const d of idat) {
    compressed.set(d, at);
    at += d.length;
  }
  const filtered = unzlibSync(compressed);
  const stride = width * channels;
  if (filtered.length !== height * (stride + 1)) throw new Error(`image data has ${filtered.length} bytes`);
  const data = new Uint8Array(height * stride);
  const filters: number[] = [];
  for (let y = 0; y < height; y++) {
    const filter = filtered[y * (stride + 1)]!;
    filters.push(filter);
    for (let i = 0; i < stride; i++) {
      const x = filtered[y * (stride + 1) + 1 + i]!;
      const a = i >= channels ? data[y * stride + i - channels]! : 0;
      const b = y > 0 ? data[(y - 1) * stride + i]! : 0;
      const c = i >= channels && y > 0 ? data[(y - 1) * stride + i - channels]! : 0;
      data[y * stride + i] = (x + predictor(filter, a, b, c)) % 256;
    }
  }
  return { width, height, channels, data, filters };
}

function predictor(filter: number, a: number, b: number, c: number): number {
  if (filter === 0) return 0;
  if (filter === 1) return a;
  if (filter === 2) return b;
  if (filter === 3) return Math.floor((a + b) / 2);
  if (filter === 4) {
    const p = a + b - c;
    const pa = Math.abs(p - a);
    const pb = Math.abs(p - b);
    const pc = Math.abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
  }
  throw new Error(`bad filter type ${filter}`);
}

/** CRC-32 one bit at a time, so it shares no table with the encoder's. */
function bitwiseCrc32(bytes: Uint8Array): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}
