import jpeg from 'jpeg-js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OmrError } from '../../src/errors.js';
import type { Raster } from '../../src/image/raster.js';
import { decodeJpeg, readJpegHeader } from '../../src/input/jpeg.js';
import { exifApp1Payload, viewerImage, withExif } from '../support/orientation-reference.js';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/input/${name}`, import.meta.url)));

/** RGB of the four 16×8 blocks of the test picture: top-left, top-right, bottom-left, bottom-right. */
const BLOCKS = [
  [230, 20, 20],
  [20, 200, 20],
  [20, 20, 230],
  [245, 245, 245],
] as const;

/** A 32×16 JPEG of four solid blocks (aligned to JPEG's 8×8 grid, so they survive compression nearly exactly). */
function blocksJpeg(): Uint8Array {
  const width = 32;
  const height = 16;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      data.set([...BLOCKS[(x >= 16 ? 1 : 0) + (y >= 8 ? 2 : 0)]!, 255], (y * width + x) * 4);
    }
  }
  return new Uint8Array(jpeg.encode({ width, height, data }, 100).data);
}

function pixel(r: Raster, x: number, y: number): number[] {
  return [...r.data.subarray((y * r.width + x) * r.channels, (y * r.width + x + 1) * r.channels)];
}

function expectNear(actual: number[], expected: readonly number[], tolerance: number): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((v, i) => expect(Math.abs(v - expected[i]!), `${actual} vs ${expected}`).toBeLessThanOrEqual(tolerance));
}

function errorOf(fn: () => unknown): OmrError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(OmrError);
    return err as OmrError;
  }
  throw new Error('expected the decoder to throw');
}

/** Offset of the first frame header marker (FF C0–C2). */
function sofOffset(bytes: Uint8Array): number {
  for (let i = 2; i < bytes.length - 1; i++) if (bytes[i] === 0xff && bytes[i + 1]! >= 0xc0 && bytes[i + 1]! <= 0xc2) return i;
  throw new Error('no SOF');
}

describe('decodeJpeg', () => {
  const plain = blocksJpeg();

  it('decodes colour JPEGs as RGB with the right pixels', () => {
    const r = decodeJpeg(plain);
    expect([r.width, r.height, r.channels]).toEqual([32, 16, 3]);
    expectNear(pixel(r, 4, 4), BLOCKS[0], 4);
    expectNear(pixel(r, 27, 4), BLOCKS[1], 4);
    expectNear(pixel(r, 4, 12), BLOCKS[2], 4);
    expectNear(pixel(r, 27, 12), BLOCKS[3], 4);
  });

  it('decodes one-component JPEGs as one-channel gray', () => {
    const r = decodeJpeg(fixture('gray.jpg'));
    expect([r.width, r.height, r.channels]).toEqual([48, 32, 1]);
    expectNear(pixel(r, 5, 5), [0], 3);
    expectNear(pixel(r, 40, 5), [200], 3);
    expectNear(pixel(r, 5, 28), [100], 3);
    expectNear(pixel(r, 40, 28), [255], 3);
  });

  it('decodes progressive JPEGs', () => {
    const r = decodeJpeg(fixture('progressive.jpg'));
    expect([r.width, r.height, r.channels]).toEqual([48, 32, 3]);
    expectNear(pixel(r, 5, 5), [220, 30, 30], 10);
    expectNear(pixel(r, 40, 5), [30, 200, 30], 10);
    expectNear(pixel(r, 5, 28), [30, 30, 220], 10);
    expectNear(pixel(r, 40, 28), [250, 250, 250], 10);
  });

  it('gives the same pixels as jpeg-js on a dev-set photo', () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../bench/dev-set/mono-aubade-voice/photo-1.jpg', import.meta.url)));
    const mine = decodeJpeg(bytes);
    const reference = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: false });
    expect([mine.width, mine.height]).toEqual([reference.width, reference.height]);
    expect(mine.data.length === reference.data.length && mine.data.every((v, i) => v === reference.data[i])).toBe(true);
  });
});

describe('decodeJpeg: Exif orientation', () => {
  const plain = blocksJpeg();
  const stored = decodeJpeg(plain);

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('orientation %i shows the photo as a viewer does', (orientation) => {
    for (const littleEndian of [true, false]) {
      const bytes = withExif(plain, exifApp1Payload(orientation, { littleEndian }));
      expect(readJpegHeader(bytes).orientation).toBe(orientation);
      expect(decodeJpeg(bytes, { applyOrientation: false })).toEqual(stored);
      expect(decodeJpeg(bytes)).toEqual(viewerImage(stored, orientation));
    }
  });

  it('turns a phone photo held upright (orientation 6) a quarter clockwise', () => {
    const r = decodeJpeg(withExif(plain, exifApp1Payload(6)));
    expect([r.width, r.height]).toEqual([16, 32]);
    // The stored top-left block (red) is now top-right; the stored top-right (green) bottom-right.
    expectNear(pixel(r, 12, 4), BLOCKS[0], 4);
    expectNear(pixel(r, 12, 28), BLOCKS[1], 4);
    expectNear(pixel(r, 3, 4), BLOCKS[2], 4);
    expectNear(pixel(r, 3, 28), BLOCKS[3], 4);
  });

  it('reads the first Exif segment only, and ignores orientations outside 1–8 and malformed blocks', () => {
    const twice = withExif(withExif(plain, exifApp1Payload(3)), exifApp1Payload(8));
    expect(readJpegHeader(twice).orientation).toBe(8);
    expect(readJpegHeader(withExif(plain, exifApp1Payload(0))).orientation).toBe(1);
    expect(readJpegHeader(withExif(plain, exifApp1Payload(300, { type: 4 }))).orientation).toBe(1);
    expect(readJpegHeader(withExif(plain, exifApp1Payload(6).subarray(0, 14))).orientation).toBe(1);
    // XMP shares the APP1 marker and must not be mistaken for Exif.
    expect(readJpegHeader(withExif(plain, new TextEncoder().encode('http://ns.adobe.com/xap/1.0/\0<x/>'))).orientation).toBe(1);
  });
});

describe('decodeJpeg: refusals', () => {
  const plain = blocksJpeg();

  it('names JPEG variants jpeg-js cannot decode as unsupported', () => {
    const arithmetic = errorOf(() => decodeJpeg(fixture('arithmetic.jpg'), { filename: 'a.jpg' }));
    expect(arithmetic.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(arithmetic.message).toMatch(/"a\.jpg" is an arithmetic-coded JPEG/);
    const lossless = plain.slice();
    lossless[sofOffset(plain) + 1] = 0xc3;
    expect(errorOf(() => decodeJpeg(lossless)).message).toMatch(/lossless JPEG/);
    const twelveBit = plain.slice();
    twelveBit[sofOffset(plain) + 4] = 12;
    expect(errorOf(() => decodeJpeg(twelveBit)).code).toBe('UNSUPPORTED_FILE_TYPE');
  });

  it('refuses oversized images from the frame header, before decoding', () => {
    const huge = plain.slice();
    const sof = sofOffset(plain);
    huge.set([0xea, 0x60, 0xea, 0x60], sof + 5); // 60000×60000
    const err = errorOf(() => decodeJpeg(huge, { filename: 'big.jpg' }));
    expect(err.code).toBe('FILE_TOO_LARGE');
    expect(err.message).toMatch(/"big\.jpg" is too large: 60000×60000 pixels/);
    expect(errorOf(() => decodeJpeg(plain, { limits: { maxPixels: 511 } })).code).toBe('FILE_TOO_LARGE');
    expect(decodeJpeg(plain, { limits: { maxPixels: 512 } }).width).toBe(32);
  });

  it('refuses truncated and damaged files as corrupted, naming the file', () => {
    for (const cut of [1, 3, 40, plain.length - 2]) {
      const err = errorOf(() => decodeJpeg(plain.subarray(0, cut), { filename: 'scan.jpg' }));
      expect(err.code, `cut at ${cut}`).toBe('CORRUPTED_FILE');
      expect(err.message).toMatch(/^"scan\.jpg" is not a readable JPEG file/);
    }
    expect(errorOf(() => decodeJpeg(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]))).message).toMatch(/before any image data/);
    expect(errorOf(() => decodeJpeg(new Uint8Array([0xff, 0xd8, 0x12, 0x34]))).code).toBe('CORRUPTED_FILE');
  });

  it('accepts data after the end-of-image marker, as cameras write it', () => {
    const trailer = new Uint8Array(plain.length + 100).fill(0x55);
    trailer.set(plain);
    expect(decodeJpeg(trailer)).toEqual(decodeJpeg(plain));
  });
});
