import { describe, expect, it, vi } from 'vitest';
import { rasterFromRgba } from '../../src/input/rgba.js';
import { decodeWebp, readWebpHeader } from '../../src/input/webp.js';
import { drawnPage, errorOf, expectUprightPicture, fixture, meanDifference, photographedPage } from './fixture-picture.js';

const photo = fixture('photo.webp');
const lossless = fixture('scan-lossless.webp');

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** A RIFF WebP file of the given chunks. */
function riff(...chunks: [string, Uint8Array][]): Uint8Array {
  const parts = chunks.flatMap(([type, data]) => {
    const header = new Uint8Array(8);
    header.set(ascii(type));
    new DataView(header.buffer).setUint32(4, data.length, true);
    return [header, data, new Uint8Array(data.length & 1)];
  });
  const body = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(12 + body);
  out.set(ascii('RIFF'));
  new DataView(out.buffer).setUint32(4, 4 + body, true);
  out.set(ascii('WEBP'), 8);
  let at = 12;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

describe('WebP', () => {
  it('decodes a lossless scan exactly', async () => {
    const r = await decodeWebp(lossless);
    const gray = drawnPage(160, 96).data;
    expect([r.width, r.height, r.channels]).toEqual([160, 96, 3]);
    expect(r.data.every((v, i) => v === gray[Math.floor(i / 3)])).toBe(true);
  });

  it('decodes a lossy photo and turns it upright by its Exif orientation', async () => {
    expect(readWebpHeader(photo)).toEqual({ width: 96, height: 160, animated: false, orientation: 6 });
    const stored = await decodeWebp(photo, { applyOrientation: false });
    expect([stored.width, stored.height]).toEqual([96, 160]);
    const upright = await decodeWebp(photo);
    expect([upright.width, upright.height, upright.channels]).toEqual([160, 96, 3]);
    expectUprightPicture(upright);
    expect(meanDifference(upright, photographedPage(160, 96))).toBeLessThan(8);
  });

  it('keeps an alpha channel only where some pixel is not opaque', () => {
    const rgba = new Uint8Array([1, 2, 3, 255, 4, 5, 6, 255]);
    expect(rasterFromRgba(2, 1, rgba)).toEqual({ width: 2, height: 1, channels: 3, data: new Uint8Array([1, 2, 3, 4, 5, 6]) });
    rgba[7] = 0;
    expect(rasterFromRgba(2, 1, rgba)).toEqual({ width: 2, height: 1, channels: 4, data: rgba });
  });

  it('refuses oversized images from the header, before decoding', async () => {
    // The lossless header's 14-bit sizes, both set to their largest: 16384×16384.
    const huge = lossless.slice();
    huge.set([0xff, 0xff, 0xff, 0x0f], 21);
    expect(readWebpHeader(huge)).toMatchObject({ width: 16384, height: 16384 });
    const err = await errorOf(() => decodeWebp(huge, { filename: 'big.webp' }));
    expect(err.code).toBe('FILE_TOO_LARGE');
    expect(err.message).toMatch(/^"big\.webp" is too large: 16384×16384 pixels/);
    expect((await errorOf(() => decodeWebp(photo, { limits: { maxPixels: 96 * 160 - 1 } }))).code).toBe('FILE_TOO_LARGE');
  });

  it('refuses animated WebPs by name', async () => {
    // VP8X with the animation flag, a 100×50 canvas, and an ANIM chunk.
    const vp8x = new Uint8Array([0x02, 0, 0, 0, 99, 0, 0, 49, 0, 0]);
    const err = await errorOf(() => decodeWebp(riff(['VP8X', vp8x], ['ANIM', new Uint8Array(6)]), { filename: 'a.webp' }));
    expect(err.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(err.message).toMatch(/^"a\.webp" is an animated WebP/);
  });

  it('refuses truncated and damaged files as corrupted', async () => {
    for (const file of [photo, lossless]) {
      for (const cut of [0, 11, 12, 20, 30, file.length >> 1, file.length - 20, file.length - 1]) {
        const err = await errorOf(() => decodeWebp(file.subarray(0, cut), { filename: 'cut.webp' }));
        expect(err.code, `cut at ${cut}`).toBe('CORRUPTED_FILE');
        expect(err.message).toMatch(/^"cut\.webp" is not a readable WebP file: /);
      }
    }
    // A whole RIFF whose image data is garbage: libwebp's own refusal.
    const garbage = photo.slice();
    garbage.fill(0x55, 60, 400);
    expect((await errorOf(() => decodeWebp(garbage))).message).toMatch(/image data is damaged/);
    expect((await errorOf(() => decodeWebp(riff(['ICCP', new Uint8Array(4)])))).message).toMatch(/first chunk is "ICCP"/);
  });

  it('says so when the decoder cannot load, and tries again on the next file', async () => {
    vi.resetModules();
    let attempts = 0;
    vi.doMock('@jsquash/webp/decode.js', () => ({
      init: async () => undefined,
      default: async () => {
        attempts++;
        throw new Error('failed to load wasm binary file');
      },
    }));
    try {
      const { decodeWebp: fresh } = await import('../../src/input/webp.js');
      // (The freshly imported module has its own OmrError class, so the error is matched by its fields.)
      for (const attempt of [1, 2]) {
        await expect(fresh(lossless)).rejects.toMatchObject({ code: 'INTERNAL_ERROR', message: 'WebP decoding is unavailable here: failed to load wasm binary file' });
        expect(attempts).toBe(attempt);
      }
    } finally {
      vi.doUnmock('@jsquash/webp/decode.js');
      vi.resetModules();
    }
  });
});
