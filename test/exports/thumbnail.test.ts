import { describe, expect, it } from 'vitest';
import { writeThumbnail } from '../../src/exports/thumbnail.js';
import { resizeArea, type Raster } from '../../src/image/raster.js';
import { decodePng } from '../../src/input/png.js';

function raster(width: number, height: number, channels: 1 | 3 | 4, pixel: (x: number, y: number) => number[]): Raster {
  const data = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set(pixel(x, y), (y * width + x) * channels);
  }
  return { width, height, channels, data };
}

const gray = (width: number, height: number, value = 200) => raster(width, height, 1, () => [value]);

function thumbnailSize(page: Raster, options?: { maxWidth?: number; maxHeight?: number }) {
  const { width, height, channels } = decodePng(writeThumbnail(page, options));
  return [width, height, channels];
}

describe('writeThumbnail', () => {
  it('fits within 512 × 512 by default, keeping the aspect ratio', () => {
    expect(thumbnailSize(gray(2000, 1000))).toEqual([512, 256, 1]);
    expect(thumbnailSize(gray(1240, 1754))).toEqual([362, 512, 1]);
    expect(thumbnailSize(gray(3000, 7))).toEqual([512, 1, 1]);
  });

  it('fits within the bounds it is given', () => {
    expect(thumbnailSize(gray(400, 300), { maxWidth: 100, maxHeight: 300 })).toEqual([100, 75, 1]);
    expect(thumbnailSize(gray(300, 400), { maxWidth: 100, maxHeight: 100 })).toEqual([75, 100, 1]);
    expect(thumbnailSize(gray(1000, 1000), { maxWidth: 64 })).toEqual([64, 64, 1]);
    expect(thumbnailSize(gray(1000, 500), { maxHeight: 50 })).toEqual([100, 50, 1]);
  });

  it('never enlarges a small page, and keeps its pixels', () => {
    const page = raster(41, 29, 3, (x, y) => [x * 6, y * 8, (x * y) & 0xff]);
    const decoded = decodePng(writeThumbnail(page));
    expect([decoded.width, decoded.height, decoded.channels]).toEqual([41, 29, 3]);
    expect(decoded.data).toEqual(page.data);
  });

  it('composites transparency onto white and drops the alpha channel', () => {
    const page = raster(2, 2, 4, (x, y) => [[0, 0, 0, 0], [255, 0, 0, 128], [10, 20, 30, 255], [0, 255, 0, 51]][y * 2 + x]!);
    const decoded = decodePng(writeThumbnail(page));
    expect(decoded.channels).toBe(3);
    expect([...decoded.data]).toEqual([255, 255, 255, 255, 127, 127, 10, 20, 30, 204, 255, 204]);
  });

  it('averages a checkerboard to mid-gray', () => {
    const checkerboard = raster(4, 4, 1, (x, y) => [(x + y) % 2 ? 255 : 0]);
    const decoded = decodePng(writeThumbnail(checkerboard, { maxWidth: 2, maxHeight: 2 }));
    expect([decoded.width, decoded.height]).toEqual([2, 2]);
    for (const value of decoded.data) expect(Math.abs(value - 128)).toBeLessThanOrEqual(1);
  });

  it('rejects bounds that are not positive integers', () => {
    expect(() => writeThumbnail(gray(10, 10), { maxWidth: 0 })).toThrow(/positive integers/);
    expect(() => writeThumbnail(gray(10, 10), { maxHeight: 2.5 })).toThrow(/positive integers/);
  });
});

describe('resizeArea', () => {
  it('weights input pixels by the fraction of each output pixel they cover', () => {
    // Output pixel 0 covers all of input 0 and half of input 1: (0 × 1 + 90 × ½) / 1½ = 30.
    const row = resizeArea(raster(3, 1, 1, (x) => [[0, 90, 255][x]!]), 2, 1);
    expect([...row.data]).toEqual([30, 200]);
    // In two dimensions the corner output pixel sees 1 + ½ + ½ + ¼ of four input pixels: 225 × 1¼ / 2¼ = 125.
    const square = resizeArea(raster(3, 3, 1, (x, y) => [x === 1 || y === 1 ? 225 : 0]), 2, 2);
    expect([...square.data]).toEqual([125, 125, 125, 125]);
  });

  it('averages each channel on its own and rounds halves up', () => {
    const page = raster(2, 1, 3, (x) => (x ? [1, 100, 255] : [0, 50, 0]));
    expect([...resizeArea(page, 1, 1).data]).toEqual([1, 75, 128]);
  });

  it('is the identity at the same size', () => {
    const page = raster(7, 5, 4, (x, y) => [x * 30, y * 50, 255 - x, 128]);
    expect(resizeArea(page, 7, 5).data).toEqual(page.data);
  });

  it('keeps a uniform image uniform at any ratio', () => {
    const page = gray(97, 61, 173);
    for (const [w, h] of [
      [13, 7],
      [96, 60],
      [50, 61],
      [200, 100],
    ] as const) {
      expect(new Set(resizeArea(page, w, h).data)).toEqual(new Set([173]));
    }
  });
});
