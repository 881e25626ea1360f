/**
 * Reads binary Netpbm images (P5 gray, P6 colour, 8 bits), the plain format
 * pdftoppm writes, into a Raster: no decoder dependency for rasterised PDFs.
 */
import type { Raster } from '../../src/image/raster.js';

export function parseNetpbm(bytes: Uint8Array): Raster {
  let pos = 0;
  const token = (): string => {
    for (;;) {
      while (pos < bytes.length && /\s/.test(String.fromCharCode(bytes[pos]!))) pos++;
      if (bytes[pos] === 0x23) {
        while (pos < bytes.length && bytes[pos] !== 0x0a) pos++; // # comment to end of line
        continue;
      }
      break;
    }
    const start = pos;
    while (pos < bytes.length && !/\s/.test(String.fromCharCode(bytes[pos]!))) pos++;
    return String.fromCharCode(...bytes.subarray(start, pos));
  };
  const magic = token();
  if (magic !== 'P5' && magic !== 'P6') throw new Error(`not a binary PGM/PPM image (magic ${magic})`);
  const width = Number(token());
  const height = Number(token());
  const maxval = Number(token());
  if (!(width > 0 && height > 0 && maxval === 255)) throw new Error(`unsupported Netpbm header ${width}×${height} max ${maxval}`);
  pos++; // the single whitespace after maxval
  const channels = magic === 'P5' ? 1 : 3;
  const size = width * height * channels;
  if (bytes.length - pos < size) throw new Error('truncated Netpbm image');
  return { width, height, channels, data: bytes.slice(pos, pos + size) };
}
