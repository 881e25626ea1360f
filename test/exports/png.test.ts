import { unzlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { encodePng } from '../../src/image/png-encode.js';
import type { Raster } from '../../src/image/raster.js';
import { decodePng } from '../../src/input/png.js';

/** The filter type of each row of a non-interlaced PNG, read straight from its inflated image data. */
function rowFilters(png: Uint8Array, raster: Raster): number[] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const parts: number[] = [];
  for (let at = 8; at < png.length; at += 12 + view.getUint32(at)) {
    if (String.fromCharCode(...png.subarray(at + 4, at + 8)) === 'IDAT') parts.push(...png.subarray(at + 8, at + 8 + view.getUint32(at)));
  }
  const filtered = unzlibSync(new Uint8Array(parts));
  const stride = raster.width * raster.channels + 1;
  return Array.from({ length: raster.height }, (_, y) => filtered[y * stride]!);
}

/** Deterministic pseudo-random bytes (a 32-bit LCG), mixed with smooth gradients so that every filter has a use. */
function testRaster(width: number, height: number, channels: 1 | 3 | 4, seed: number): Raster {
  const data = new Uint8Array(width * height * channels);
  let state = seed;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < channels; c++) {
        state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
        const noise = state >>> 24;
        const band = Math.floor(y / 4) % 4;
        const value = band === 0 ? noise : band === 1 ? x * 7 + c * 40 : band === 2 ? y * 5 + c : (x * y + noise / 16) & 0xff;
        data[(y * width + x) * channels + c] = value & 0xff;
      }
    }
  }
  return { width, height, channels, data };
}

describe('encodePng', () => {
  it.each([
    [1, 17, 13],
    [3, 9, 21],
    [4, 31, 7],
    [1, 1, 1],
    [4, 1, 5],
  ] as const)('round-trips a %i-channel %i×%i raster exactly', (channels, width, height) => {
    const raster = testRaster(width, height, channels, width * 31 + height);
    const decoded = decodePng(encodePng(raster));
    expect(decoded.width).toBe(width);
    expect(decoded.height).toBe(height);
    expect(decoded.channels).toBe(channels);
    expect(decoded.data).toEqual(raster.data);
  });

  it('chooses among the filter types row by row, and each one round-trips', () => {
    const used = new Set<number>();
    for (const channels of [1, 3, 4] as const) {
      const raster = testRaster(37, 40, channels, channels);
      const png = encodePng(raster);
      expect(decodePng(png).data).toEqual(raster.data);
      for (const f of rowFilters(png, raster)) used.add(f);
    }
    expect([...used].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('round-trips low-contrast noise, where predictors tie', () => {
    // Values 0–3 make the Paeth predictor's tie-breaks matter on many bytes.
    for (let seed = 1; seed <= 200; seed++) {
      const raster = testRaster(9, 8, 1, seed);
      const lowContrast = { ...raster, data: raster.data.map((v) => v & 3) };
      expect(decodePng(encodePng(lowContrast)).data).toEqual(lowContrast.data);
    }
  });

  it('writes the colour type for the channel count', () => {
    for (const [channels, colorType] of [
      [1, 0],
      [3, 2],
      [4, 6],
    ] as const) {
      expect(encodePng(testRaster(2, 2, channels, 1))[8 + 8 + 9]).toBe(colorType);
    }
  });

  it('writes valid CRCs', () => {
    const bytes = encodePng(testRaster(5, 3, 3, 3));
    // IEND has no data, so its chunk is the same in every PNG, CRC included.
    expect([...bytes.subarray(-12)]).toEqual([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
    const corrupted = bytes.slice();
    corrupted[20] = corrupted[20]! ^ 1;
    expect(() => decodePng(corrupted)).toThrow(/CRC in IHDR/);
  });

  it('encodes the same raster to the same bytes', () => {
    const raster = testRaster(23, 19, 3, 7);
    const first = encodePng(raster);
    const second = encodePng({ ...raster, data: raster.data.slice() });
    expect(second).toEqual(first);
  });

  it('rejects data that does not match the size', () => {
    expect(() => encodePng({ width: 3, height: 2, channels: 3, data: new Uint8Array(17) })).toThrow(/18/);
    expect(() => encodePng({ width: 0, height: 2, channels: 1, data: new Uint8Array(0) })).toThrow(/positive/);
  });
});
