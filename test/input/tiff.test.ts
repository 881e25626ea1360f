import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/image/raster.js';
import { openTiff, type TiffDecodeOptions } from '../../src/input/tiff.js';
import { inflateCcitt, inflateLzw, unpackBits } from '../../src/input/tiff-compression.js';
import { drawnPage, errorOf, expectUprightPicture, fixture, meanDifference, photographedPage } from './fixture-picture.js';

const bilevel = fixture('scan-bilevel.tif');
const grayColour = fixture('scan-gray-colour.tif');
const tiled = fixture('tiled.tif');

function decodeAll(bytes: Uint8Array, options?: TiffDecodeOptions): Raster[] {
  const tiff = openTiff(bytes, options);
  return Array.from({ length: tiff.pageCount }, (_, i) => tiff.decodePage(i));
}

/** Where a tag's entry lies in a file's directory `page` (counting every directory), for tests that alter it. */
function entryOf(bytes: Uint8Array, page: number, tag: number): { at: number; little: boolean } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = bytes[0] === 0x49;
  let dir = view.getUint32(4, little);
  for (let i = 0; i < page; i++) dir = view.getUint32(dir + 2 + 12 * view.getUint16(dir, little), little);
  for (let e = dir + 2; e < dir + 2 + 12 * view.getUint16(dir, little); e += 12) if (view.getUint16(e, little) === tag) return { at: e, little };
  throw new Error(`no tag ${tag} on page ${page}`);
}

/**
 * A copy of the file with one SHORT or LONG tag of one page set to `value`;
 * a tag the page lacks takes the place of its Orientation tag (readers do
 * not require the tags in order).
 */
function withTag(bytes: Uint8Array, page: number, tag: number, value: number): Uint8Array {
  const out = bytes.slice();
  let entry: { at: number; little: boolean };
  try {
    entry = entryOf(out, page, tag);
  } catch {
    entry = entryOf(out, page, 274);
  }
  const { at, little } = entry;
  const view = new DataView(out.buffer);
  view.setUint16(at, tag, little);
  if (view.getUint16(at + 2, little) === 3) view.setUint16(at + 8, value, little);
  else view.setUint32(at + 8, value, little);
  return out;
}

describe('TIFF: pages', () => {
  it('reads every page of a multi-page bilevel scan, in order: CCITT Group 4, Group 3 (2-D, and 1-D with fill and reversed bits) and PackBits, both photometric interpretations', () => {
    const pages = decodeAll(bilevel, { filename: 'scan.tif' });
    expect(pages.map((p) => `${p.width}×${p.height}×${p.channels}`)).toEqual(['160×96×1', '152×92×1', '144×88×1', '136×84×1', '128×80×1']);
    // Lossless: each is exactly the picture, black ink on white paper, whether 0 meant white (pages 1, 3, 4) or black (2, 5).
    pages.forEach((p, i) => expect(p, `page ${i + 1}`).toEqual(drawnPage(p.width, p.height)));
  });

  it('turns a page upright by its Orientation tag', () => {
    // Page 2 is stored a quarter turn anticlockwise, with Orientation 6 (turn it clockwise to view).
    const stored = openTiff(bilevel, { applyOrientation: false }).decodePage(1);
    expect([stored.width, stored.height]).toEqual([92, 152]);
    const upright = openTiff(bilevel).decodePage(1);
    expect([upright.width, upright.height]).toEqual([152, 92]);
    expectUprightPicture(upright);
  });

  it('reads gray, colour and palette pages: LZW and Deflate with predictors, JPEG, uncompressed 4-bit palette and 16-bit gray, big-endian', () => {
    expect(grayColour[0]).toBe(0x4d); // "MM"
    const [gray, rgb, jpeg, palette, gray16] = decodeAll(grayColour);
    expect(gray).toEqual(drawnPage(160, 96));
    expect(rgb).toEqual(photographedPage(152, 92));
    expect([jpeg!.width, jpeg!.height, jpeg!.channels]).toEqual([144, 88, 3]);
    expect(meanDifference(jpeg!, photographedPage(144, 88))).toBeLessThan(6);
    expectUprightPicture(jpeg!);
    expect(palette).toEqual(photographedPage(128, 80));
    expect(gray16).toEqual(drawnPage(120, 76));
  });

  it('assembles tiled pages, cutting the tiles at the right and bottom edges', () => {
    expect(decodeAll(tiled)).toEqual([drawnPage(136, 84)]);
  });

  it('counts pages from the directories alone, leaving out reduced-resolution copies', () => {
    expect(openTiff(bilevel).pageCount).toBe(5);
    expect(openTiff(grayColour).pageCount).toBe(5);
    // NewSubfileType 1 marks a thumbnail.
    const thumbnail = withTag(bilevel, 2, 254, 1);
    const tiff = openTiff(thumbnail);
    expect(tiff.pageCount).toBe(4);
    expect(tiff.decodePage(2).width).toBe(136);
  });
});

describe('TIFF: limits and refusals', () => {
  it('refuses oversized pages from their directory, before reading any image data', async () => {
    // 60000 wide, and the strips' places pointing nowhere: the size is what is checked first.
    const huge = withTag(withTag(bilevel, 0, 256, 60000), 0, 273, 0xfffff);
    const tiff = openTiff(huge, { filename: 'big.tif' });
    const err = await errorOf(() => tiff.decodePage(0));
    expect(err.code).toBe('FILE_TOO_LARGE');
    expect(err.message).toMatch(/^"big\.tif" is too large: 60000×96 pixels/);
    // Only the page that is too large fails.
    expect(tiff.decodePage(1).width).toBe(152);
    expect((await errorOf(() => openTiff(bilevel, { limits: { maxPixels: 160 * 96 - 1 } }).decodePage(0))).code).toBe('FILE_TOO_LARGE');
  });

  it('refuses a page whose pixels are too large to hold, though their count passes, before allocating them', async () => {
    // 64 megapixels (the most accepted) of sixteen 16-bit samples in one strip: 2 GB of samples, from a file of 2 KB.
    let bomb: Uint8Array = grayColour;
    for (const [tag, value] of [[256, 8000], [257, 8000], [277, 16], [258, 16], [278, 8000]] as const) bomb = withTag(bomb, 0, tag, value);
    const err = await errorOf(() => openTiff(bomb, { filename: 'bomb.tif' }).decodePage(0));
    expect(err.code).toBe('FILE_TOO_LARGE');
    expect(err.message).toBe('"bomb.tif" is too large: 8000×8000 pixels at 33 bytes a pixel need 2014.2 MiB to decode, and at most 512 MiB is accepted (the decoding memory limit).');
    // The bound counts the samples as stored and the raster made of them: 2 bytes a pixel for 8-bit gray.
    expect(openTiff(grayColour, { limits: { maxBytes: 160 * 96 * 2 } }).decodePage(0).width).toBe(160);
    expect((await errorOf(() => openTiff(grayColour, { limits: { maxBytes: 160 * 96 * 2 - 1 } }).decodePage(0))).code).toBe('FILE_TOO_LARGE');
  });

  it('refuses what it cannot decode by name', async () => {
    const jpeg2000 = await errorOf(() => openTiff(withTag(bilevel, 0, 259, 34712), { filename: 'a.tif' }).decodePage(0));
    expect(jpeg2000.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(jpeg2000.message).toMatch(/^"a\.tif" has a page \(1\) with JPEG 2000 compression, which ScoreSight cannot decode/);
    expect((await errorOf(() => openTiff(withTag(grayColour, 0, 339, 3)).decodePage(0))).message).toMatch(/floating-point samples/);
    expect((await errorOf(() => openTiff(withTag(grayColour, 0, 262, 8)).decodePage(0))).message).toMatch(/photometric interpretation 8/);
    const bigTiff = new Uint8Array([0x49, 0x49, 43, 0, 8, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0]);
    expect((await errorOf(() => openTiff(bigTiff, { filename: 'b.tif' }))).message).toMatch(/^"b\.tif" is a BigTIFF file/);
  });

  it('refuses truncated files as corrupted, at any length', async () => {
    for (const file of [bilevel, grayColour, tiled]) {
      for (const cut of [0, 1, 7, 8, 100, file.length >> 2, file.length >> 1, file.length - 300, file.length - 1]) {
        const err = await errorOf(() => decodeAll(file.subarray(0, cut), { filename: 'cut.tif' }));
        expect(err.code, `cut at ${cut}`).toBe('CORRUPTED_FILE');
        expect(err.message).toMatch(/^"cut\.tif" is not a readable TIFF file: /);
      }
    }
  });

  it('ends a chain of directories that loops, and names damaged image data', async () => {
    const looped = bilevel.slice();
    const { at, little } = entryOf(looped, 0, 256);
    const view = new DataView(looped.buffer);
    const first = view.getUint32(4, little);
    view.setUint32(first + 2 + 12 * view.getUint16(first, little), first, little);
    expect(at).toBeGreaterThan(first);
    expect((await errorOf(() => openTiff(looped))).message).toMatch(/its chain of image directories loops/);

    // The first strip of page 1 (Group 4), overwritten with bits that are no code.
    const { at: offsets } = entryOf(bilevel, 0, 273);
    const strip = new DataView(bilevel.buffer, bilevel.byteOffset).getUint32(offsets + 8, true);
    const damaged = bilevel.slice();
    damaged.fill(0, strip, strip + 8);
    const err = await errorOf(() => openTiff(damaged, { filename: 'fax.tif' }).decodePage(0));
    expect(err.code).toBe('CORRUPTED_FILE');
    expect(err.message).toMatch(/^"fax\.tif" is not a readable TIFF file: its page 1 has damaged image data \(/);
  });
});

describe('TIFF compression schemes', () => {
  it('PackBits: literals, runs and the no-op, never past the output', () => {
    const out = new Uint8Array(8);
    expect(unpackBits(new Uint8Array([2, 1, 2, 3, 0xfe, 9, 0x80, 0xfd, 7]), out)).toBe(8);
    expect([...out]).toEqual([1, 2, 3, 9, 9, 9, 7, 7]);
  });

  it('LZW: stops at the end of its input when the end code is missing, and refuses codes not yet defined', () => {
    // Codes 9 bits wide: clear, 'A', 'B', 258 ("AB"), no end code.
    const codes = [256, 65, 66, 258];
    const bits = codes.map((c) => c.toString(2).padStart(9, '0')).join('').padEnd(40, '0');
    const src = Uint8Array.from({ length: 5 }, (_, i) => parseInt(bits.slice(i * 8, i * 8 + 8), 2));
    const out = new Uint8Array(16);
    expect(inflateLzw(src, out)).toBe(4);
    expect(String.fromCharCode(...out.subarray(0, 4))).toBe('ABAB');
    const undefinedCode = Uint8Array.from([0x80, 0x20, 0x7f, 0xff]); // clear, 'A', then 511
    expect(() => inflateLzw(undefinedCode, new Uint8Array(16))).toThrow(/not yet in the table/);
  });

  it('CCITT: an all-white Group 4 row is one vertical code; damaged codes throw', () => {
    const out = new Uint8Array(2 * 2);
    // Two rows of 16 white pixels: V0 against the imaginary white row, twice.
    expect(inflateCcitt(new Uint8Array([0b11000000]), out, 16, 2, 'g4')).toBe(4);
    expect([...out]).toEqual([0, 0, 0, 0]);
    expect(() => inflateCcitt(new Uint8Array([0, 0, 0]), new Uint8Array(2), 16, 1, 'g4')).toThrow();
    expect(() => inflateCcitt(new Uint8Array(0), new Uint8Array(2), 16, 1, 'g3')).toThrow();
  });
});
