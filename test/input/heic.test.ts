import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Raster } from '../../src/image/raster.js';
import { openHeic, type HeicOpenOptions } from '../../src/input/heic.js';
import { errorOf, expectUprightPicture, fixture, meanDifference, photographedPage } from './fixture-picture.js';

const photo = fixture('photo.heic');
const twoImages = fixture('two-images.heic');

async function decodeAll(bytes: Uint8Array, options?: HeicOpenOptions): Promise<Raster[]> {
  const heic = await openHeic(bytes, options);
  try {
    const pages: Raster[] = [];
    for (let i = 0; i < heic.pageCount; i++) pages.push(await heic.decodePage(i));
    return pages;
  } finally {
    heic.close();
  }
}

/** A copy of the file with the first `ispe` box (an image's stored size) saying `width`×`height`. */
function withStoredSize(bytes: Uint8Array, width: number, height: number): Uint8Array {
  const out = bytes.slice();
  const at = Buffer.from(out).indexOf('ispe');
  const view = new DataView(out.buffer);
  view.setUint32(at + 8, width);
  view.setUint32(at + 12, height);
  return out;
}

// libheif reports what it cannot parse on the console; the tests check the errors instead.
beforeAll(() => void vi.spyOn(console, 'log').mockImplementation(() => undefined));
afterAll(() => vi.restoreAllMocks());

describe('HEIC', () => {
  it('decodes a phone photo upright: libheif applies its irot box, and its Exif orientation is not applied again', async () => {
    // Stored 96×160 (sideways) with an irot box, and an Exif block that also says orientation 6.
    expect(Buffer.from(photo).includes('irot')).toBe(true);
    const [page, ...rest] = await decodeAll(photo);
    expect(rest).toEqual([]);
    expect([page!.width, page!.height, page!.channels]).toEqual([160, 96, 3]);
    expectUprightPicture(page!);
    expect(meanDifference(page!, photographedPage(160, 96))).toBeLessThan(8);
  });

  it('makes each top-level image of a file a page, in order', async () => {
    const heic = await openHeic(twoImages);
    expect(heic.pageCount).toBe(2);
    const pages = [await heic.decodePage(0), await heic.decodePage(1)];
    heic.close();
    expect(pages.map((p) => `${p.width}×${p.height}×${p.channels}`)).toEqual(['128×80×3', '112×72×3']);
    pages.forEach((p) => expect(meanDifference(p, photographedPage(p.width, p.height))).toBeLessThan(10));
    await expect(heic.decodePage(0)).rejects.toThrow(/was closed/);
  });

  it('refuses oversized images from the file’s boxes, before decoding', async () => {
    const heic = await openHeic(withStoredSize(photo, 20000, 12000), { filename: 'big.heic' });
    const err = await errorOf(() => heic.decodePage(0));
    heic.close();
    expect(err.code).toBe('FILE_TOO_LARGE');
    // The size after the quarter turn.
    expect(err.message).toMatch(/^"big\.heic" is too large: 12000×20000 pixels/);
    expect((await errorOf(() => decodeAll(photo, { limits: { maxPixels: 160 * 96 - 1 } }))).code).toBe('FILE_TOO_LARGE');
  });

  it('refuses truncated and damaged files as corrupted, and other ISO media files as unsupported', async () => {
    for (const cut of [0, 11, 12, 40, 200, photo.length >> 1, photo.length - 100, photo.length - 1]) {
      const err = await errorOf(() => decodeAll(photo.subarray(0, cut), { filename: 'cut.heic' }));
      expect(err.code, `cut at ${cut}`).toBe('CORRUPTED_FILE');
      expect(err.message).toMatch(/^"cut\.heic" is not a readable HEIC file: /);
    }
    const video = photo.slice();
    video.set(Buffer.from('isom'), 8);
    const err = await errorOf(() => decodeAll(video, { filename: 'clip.mp4' }));
    expect(err.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(err.message).toMatch(/^"clip\.mp4" is an ISO media file of brand "isom", not a HEIC image/);
  });
});
