import { createCanvas, loadImage } from '@napi-rs/canvas';
import { zlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { OmrError } from '../../src/errors.js';
import { encodePng } from '../../src/image/png-encode.js';
import type { Raster } from '../../src/image/raster.js';
import { decodePng } from '../../src/input/png.js';
import { orientRaster } from '../../src/input/orientation.js';
import { buildPng, concat, pngChunk, samplesPerPixel, type PngSpec } from '../support/png-build.js';
import { exifApp1Payload, exifTiff, viewerImage } from '../support/orientation-reference.js';

const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Deterministic samples below 2^depth (a 32-bit LCG). */
function randomSamples(count: number, depth: number, seed: number, below = 2 ** depth): number[] {
  let state = seed >>> 0;
  return Array.from({ length: count }, () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 2 ** 32) * below);
  });
}

/** What the decoder must produce, computed from the samples by the PNG specification's rules. */
function expectedRaster(spec: PngSpec): Raster {
  const { width, height, colorType, depth, samples, palette, trns } = spec;
  const to8 = (v: number) => (depth === 16 ? Math.round(v / 257) : Math.round((v * 255) / (2 ** depth - 1)));
  const keyed = trns !== undefined && (colorType === 0 || colorType === 2);
  const key = keyed ? Array.from({ length: trns.length / 2 }, (_, i) => (trns[2 * i]! << 8) | trns[2 * i + 1]!) : [];
  const paletteAlpha = colorType === 3 && trns !== undefined && trns.some((a) => a < 255);
  const channels = colorType === 0 ? (keyed ? 4 : 1) : colorType === 2 ? (keyed ? 4 : 3) : colorType === 3 ? (paletteAlpha ? 4 : 3) : 4;
  const spp = samplesPerPixel(colorType);
  const data = new Uint8Array(width * height * channels);
  for (let p = 0; p < width * height; p++) {
    const s = Array.from({ length: spp }, (_, i) => samples[p * spp + i]!);
    let rgba: number[];
    if (colorType === 3) rgba = [...(palette![s[0]!] ?? [0, 0, 0]), trns?.[s[0]!] ?? 255];
    else if (colorType === 0) rgba = [to8(s[0]!), to8(s[0]!), to8(s[0]!), keyed && s[0] === key[0] ? 0 : 255];
    else if (colorType === 4) rgba = [to8(s[0]!), to8(s[0]!), to8(s[0]!), to8(s[1]!)];
    else if (colorType === 2) rgba = [...s.map(to8), keyed && s.every((v, i) => v === key[i]) ? 0 : 255];
    else rgba = s.map(to8);
    data.set(channels === 1 ? [rgba[0]!] : rgba.slice(0, channels), p * channels);
  }
  return { width, height, channels, data };
}

const COMBINATIONS = [
  [0, 1],
  [0, 2],
  [0, 4],
  [0, 8],
  [0, 16],
  [2, 8],
  [2, 16],
  [3, 1],
  [3, 2],
  [3, 4],
  [3, 8],
  [4, 8],
  [4, 16],
  [6, 8],
  [6, 16],
] as const;
const SIZES = [
  [1, 1],
  [7, 5],
  [17, 9],
  [3, 33],
] as const;

function spec(colorType: PngSpec['colorType'], depth: PngSpec['depth'], width: number, height: number, interlace: boolean, seed: number): PngSpec {
  const count = width * height * samplesPerPixel(colorType);
  if (colorType !== 3) return { width, height, colorType, depth, interlace, samples: randomSamples(count, depth, seed) };
  const entries = Math.min(2 ** depth, 200);
  const palette = Array.from({ length: entries }, (_, i) => [(i * 37) & 0xff, (i * 91 + 13) & 0xff, (255 - i * 5) & 0xff] as const);
  return { width, height, colorType, depth, interlace, palette, samples: randomSamples(count, depth, seed, entries) };
}

function corruptedCode(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(OmrError);
    return (err as OmrError).code;
  }
  throw new Error('expected the decoder to throw');
}

describe('decodePng: colour types, bit depths and interlacing', () => {
  it.each(COMBINATIONS)('colour type %i at %i bits, plain and Adam7, at several sizes', (colorType, depth) => {
    for (const [width, height] of SIZES) {
      for (const interlace of [false, true]) {
        const s = spec(colorType, depth, width, height, interlace, colorType * 1000 + depth * 10 + width);
        const decoded = decodePng(buildPng(s));
        const want = expectedRaster(s);
        expect({ width: decoded.width, height: decoded.height, channels: decoded.channels }).toEqual({
          width: want.width,
          height: want.height,
          channels: want.channels,
        });
        expect(decoded.data, `${width}×${height}${interlace ? ' interlaced' : ''}`).toEqual(want.data);
      }
    }
  });

  it('scales low bit depths to the full range and rounds 16-bit samples to nearest', () => {
    const two = decodePng(buildPng({ width: 4, height: 1, colorType: 0, depth: 2, samples: [0, 1, 2, 3] }));
    expect([...two.data]).toEqual([0, 85, 170, 255]);
    const sixteen = decodePng(buildPng({ width: 4, height: 1, colorType: 0, depth: 16, samples: [0, 128, 0x8080, 65535] }));
    expect([...sixteen.data]).toEqual([0, 0, 128, 255]);
  });

  it('applies palette transparency (tRNS shorter than the palette leaves the rest opaque)', () => {
    const s: PngSpec = {
      width: 4,
      height: 1,
      colorType: 3,
      depth: 2,
      palette: [
        [10, 20, 30],
        [40, 50, 60],
        [70, 80, 90],
        [100, 110, 120],
      ],
      trns: [0, 128],
      samples: [0, 1, 2, 3],
    };
    const decoded = decodePng(buildPng(s));
    expect(decoded.channels).toBe(4);
    expect([...decoded.data]).toEqual([10, 20, 30, 0, 40, 50, 60, 128, 70, 80, 90, 255, 100, 110, 120, 255]);
    // A tRNS chunk of opaque entries needs no alpha channel.
    expect(decodePng(buildPng({ ...s, trns: [255, 255] })).channels).toBe(3);
  });

  it('makes the tRNS key colour of gray and RGB images transparent', () => {
    const gray = decodePng(buildPng({ width: 3, height: 1, colorType: 0, depth: 16, trns: [0x12, 0x34], samples: [0x1234, 0x1235, 0] }));
    expect([...gray.data]).toEqual([18, 18, 18, 0, 18, 18, 18, 255, 0, 0, 0, 255]);
    const rgb = decodePng(buildPng({ width: 2, height: 1, colorType: 2, depth: 8, trns: [0, 1, 0, 2, 0, 3], samples: [1, 2, 3, 1, 2, 4] }));
    expect([...rgb.data]).toEqual([1, 2, 3, 0, 1, 2, 4, 255]);
  });

  it('reads image data split over many IDAT chunks, empty ones included, and skips unknown ancillary chunks', () => {
    const s = spec(6, 8, 9, 7, true, 5);
    const want = expectedRaster(s).data;
    expect(decodePng(buildPng({ ...s, idatChunkSize: 3 })).data).toEqual(want);
    const png = buildPng(s);
    // Put an empty IDAT before the real one and a tEXt chunk before them.
    const firstIdat = indexOfChunk(png, 'IDAT');
    const withExtras = concat([png.subarray(0, firstIdat), pngChunk('tEXt', new TextEncoder().encode('Comment\0hi')), pngChunk('IDAT', new Uint8Array(0)), png.subarray(firstIdat)]);
    expect(decodePng(withExtras).data).toEqual(want);
  });

  it('agrees with Skia on 8-bit and lower images, interlaced or not', async () => {
    for (const [colorType, depth] of [
      [0, 1],
      [0, 4],
      [0, 8],
      [2, 8],
      [3, 2],
      [3, 8],
    ] as const) {
      for (const interlace of [false, true]) {
        const s = spec(colorType, depth, 13, 11, interlace, 77 + depth);
        const png = buildPng(s);
        const mine = decodePng(png);
        const image = await loadImage(Buffer.from(png));
        const canvas = createCanvas(image.width, image.height);
        const context = canvas.getContext('2d');
        context.drawImage(image, 0, 0);
        const skia = context.getImageData(0, 0, image.width, image.height).data;
        const rgb = Array.from({ length: mine.width * mine.height }, (_, p) => [0, 1, 2].map((c) => mine.data[p * mine.channels + (mine.channels === 1 ? 0 : c)]!)).flat();
        const skiaRgb = Array.from({ length: mine.width * mine.height }, (_, p) => [skia[p * 4]!, skia[p * 4 + 1]!, skia[p * 4 + 2]!]).flat();
        expect(rgb, `type ${colorType} depth ${depth}${interlace ? ' interlaced' : ''}`).toEqual(skiaRgb);
      }
    }
  });

  it('round-trips the library encoder exactly', () => {
    const raster: Raster = { width: 5, height: 4, channels: 3, data: new Uint8Array(randomSamples(60, 8, 3)) };
    expect(decodePng(encodePng(raster))).toEqual(raster);
  });
});

describe('decodePng: eXIf orientation', () => {
  const stored = expectedRaster(spec(2, 8, 5, 3, false, 42));
  const png = (block: Uint8Array) => buildPng({ ...spec(2, 8, 5, 3, false, 42), chunks: [{ type: 'eXIf', data: block }] });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('orientation %i shows the image as a viewer does', (orientation) => {
    expect(decodePng(png(exifTiff(orientation)))).toEqual(viewerImage(stored, orientation));
    expect(decodePng(png(exifTiff(orientation, { littleEndian: false, type: 4 })))).toEqual(viewerImage(stored, orientation));
  });

  it('accepts blocks with the JPEG "Exif" header, ignores nonsense values, and can be told to leave pixels as stored', () => {
    expect(decodePng(png(exifApp1Payload(6)))).toEqual(viewerImage(stored, 6));
    expect(decodePng(png(exifTiff(9)))).toEqual(stored);
    expect(decodePng(png(new Uint8Array([1, 2, 3])))).toEqual(stored);
    expect(decodePng(png(exifTiff(6)), { applyOrientation: false })).toEqual(stored);
  });

  it('orientRaster keeps every pixel (a permutation) for every orientation and channel count', () => {
    for (const channels of [1, 3, 4] as const) {
      const r: Raster = { width: 4, height: 3, channels, data: new Uint8Array(randomSamples(12 * channels, 8, channels)) };
      for (let o = 1; o <= 8; o++) expect(orientRaster(r, o as 1)).toEqual(viewerImage(r, o));
    }
  });
});

describe('decodePng: damaged and oversized files', () => {
  const good = buildPng(spec(2, 8, 6, 4, false, 9));

  it('refuses what is not a PNG, and says which file', () => {
    expect(() => decodePng(new Uint8Array([1, 2, 3]), { filename: 'page.png' })).toThrow(/"page\.png" is not a readable PNG file: it does not start with the PNG signature/);
  });

  it.each([
    ['a bad CRC', (b: Uint8Array) => flipBit(b, 20), /bad CRC in IHDR/],
    ['a cut inside a chunk', (b: Uint8Array) => b.subarray(0, b.length - 20), /truncated/],
    ['a missing IEND', (b: Uint8Array) => b.subarray(0, b.length - 12), /before its IEND/],
    ['a palette image without PLTE', () => buildPng({ ...spec(3, 8, 2, 2, false, 1), palette: undefined }), /without a palette/],
    ['an invalid depth for the colour type', (b: Uint8Array) => patchHeader(b, 8, 4), /not a valid combination/],
    ['a zero width', (b: Uint8Array) => patchHeader(b, 3, 0), /size is 0×4/],
    ['an unknown critical chunk', (b: Uint8Array) => insertBefore(b, 'IDAT', pngChunk('ABCD', new Uint8Array(2))), /unknown critical chunk ABCD/],
    ['image data too short', () => withIdat(6, 4, 2, zlibSync(new Uint8Array(10))), /ends early/],
    ['image data too long', () => withIdat(6, 4, 2, zlibSync(new Uint8Array(4 * 19 + 5))), /longer than the image/],
    ['an unknown filter type', () => withIdat(2, 1, 0, zlibSync(new Uint8Array([5, 0, 0]))), /unknown filter type 5/],
    ['a damaged deflate stream', () => withIdat(2, 1, 0, new Uint8Array([0x78, 0x9c, 0xff, 0xff, 0xff, 0, 0, 0, 0])), /compressed image data is damaged/],
  ] as const)('%s gives CORRUPTED_FILE', (_, make, message) => {
    const bytes = make(good);
    expect(corruptedCode(() => decodePng(bytes))).toBe('CORRUPTED_FILE');
    expect(() => decodePng(bytes)).toThrow(message);
  });

  it('stops a decompression bomb as soon as it overflows the image', () => {
    // 1000×1000 gray needs 1,001,000 bytes; the stream inflates to 100 MB of zeros.
    const bomb = withIdat(1000, 1000, 0, zlibSync(new Uint8Array(100 * 1024 * 1024)));
    expect(bomb.length).toBeLessThan(150_000);
    expect(() => decodePng(bomb)).toThrow(/longer than the image/);
  });

  it('refuses oversized images from the header alone, before touching the image data', () => {
    const huge = withIdat(30_000, 30_000, 0, new Uint8Array(4));
    expect(corruptedCode(() => decodePng(huge))).toBe('FILE_TOO_LARGE');
    expect(() => decodePng(huge)).toThrow(/30000×30000 pixels is 900 megapixels/);
    const strip = withIdat(100_000, 1, 0, new Uint8Array(4));
    expect(() => decodePng(strip)).toThrow(/no side may exceed 32768/);
    expect(corruptedCode(() => decodePng(good, { limits: { maxPixels: 23 } }))).toBe('FILE_TOO_LARGE');
    expect(decodePng(good, { limits: { maxPixels: 24 } }).width).toBe(6);
  });
});

function indexOfChunk(png: Uint8Array, type: string): number {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  for (let at = 8; at < png.length; at += 12 + view.getUint32(at)) {
    if (String.fromCharCode(...png.subarray(at + 4, at + 8)) === type) return at;
  }
  throw new Error(`no ${type} chunk`);
}

function insertBefore(png: Uint8Array, type: string, chunk: Uint8Array): Uint8Array {
  const at = indexOfChunk(png, type);
  return concat([png.subarray(0, at), chunk, png.subarray(at)]);
}

function flipBit(bytes: Uint8Array, at: number): Uint8Array {
  const out = bytes.slice();
  out[at]! ^= 1;
  return out;
}

/** Rewrites one IHDR data byte (0–12) and its CRC. */
function patchHeader(png: Uint8Array, byte: number, value: number): Uint8Array {
  const data = png.slice(16, 29);
  data[byte] = value;
  return concat([png.subarray(0, 8), pngChunk('IHDR', data), png.subarray(33)]);
}

/** A PNG with the given header and raw IDAT contents (already compressed, or not, as the test needs). */
function withIdat(width: number, height: number, colorType: number, idat: Uint8Array): Uint8Array {
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([8, colorType, 0, 0, 0], 8);
  return concat([SIGNATURE, pngChunk('IHDR', ihdr), pngChunk('IDAT', idat), pngChunk('IEND', new Uint8Array(0))]);
}
