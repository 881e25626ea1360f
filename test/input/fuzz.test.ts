/**
 * Property tests of the input decoders over damaged files, with fast-check:
 * truncated, bit-flipped, spliced and shuffled versions of valid PNGs, JPEGs,
 * PDFs, TIFFs, WebPs and HEICs must either decode to a well-formed raster or
 * fail with an `OmrError` carrying one of the input codes — never a
 * TypeError, a RangeError from a typed array, a trap in a WebAssembly
 * decoder, an unhandled rejection, or a hang.
 *
 * PNG mutants come in two kinds: raw ones, which the chunk CRCs mostly
 * catch, and ones whose CRCs are recomputed after mutating, so that the
 * damage reaches the header checks, the inflater and the row filters.
 *
 * Runs are seeded and reproducible: a failure prints its seed and path;
 * replay with `FUZZ_SEED=<seed> npx vitest run test/input/fuzz.test.ts`.
 * `FUZZ_SCALE=10` runs ten times as many cases.
 */
import fc from 'fast-check';
import jpeg from 'jpeg-js';
import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { OmrError } from '../../src/errors.js';
import { assertRaster, type Raster } from '../../src/image/raster.js';
import { decodePages } from '../../src/input/decode-pages.js';
import { detectFileType } from '../../src/input/file-type.js';
import { openHeic } from '../../src/input/heic.js';
import { decodeJpeg } from '../../src/input/jpeg.js';
import { openPdf } from '../../src/input/pdf.js';
import { decodePng } from '../../src/input/png.js';
import { openTiff } from '../../src/input/tiff.js';
import { decodeWebp } from '../../src/input/webp.js';
import { buildPdf } from '../support/pdf-build.js';
import { buildPng } from '../support/png-build.js';
import { exifApp1Payload, exifTiff, withExif } from '../support/orientation-reference.js';
import { watchingRejections } from '../support/rejections.js';
import { applyMutations, byteMutations } from '../support/byte-mutations.js';

const SEED = Number(process.env.FUZZ_SEED ?? 0x1a9e);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const runs = (n: number) => ({ seed: SEED, numRuns: Math.round(n * SCALE) });

/** The codes a damaged input may fail with. */
const CODES = new Set(['CORRUPTED_FILE', 'FILE_TOO_LARGE', 'UNSUPPORTED_FILE_TYPE', 'ENCRYPTED_PDF', 'OMR_MIME_REQUIRED']);
/** A decode that has not settled after this long is a hang (a guard, not a speed check: the clock is not asserted on). */
const HANG_MS = 30_000;

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/input/${name}`, import.meta.url)));

// ---------------------------------------------------------------- mutations

const mutations = byteMutations();
const apply = applyMutations;

/** Recomputes every chunk's CRC, so that the decoder looks past them; stops where the chunk layout breaks. */
function fixPngCrcs(png: Uint8Array): Uint8Array {
  const out = png.slice();
  const view = new DataView(out.buffer);
  for (let i = 8; i + 12 <= out.length; ) {
    const length = view.getUint32(i);
    if (i + 12 + length > out.length) break;
    view.setUint32(i + 8 + length, crc32(out.subarray(i + 4, i + 8 + length)));
    i += 12 + length;
  }
  return out;
}

// ---------------------------------------------------------------- checks

/** Runs a decode and checks that it returned a well-formed raster or threw an input error. */
function checkSync(decode: () => Raster): void {
  try {
    assertRaster(decode());
  } catch (err) {
    if (!(err instanceof OmrError) || !CODES.has(err.code)) throw err;
  }
}

async function checkAsync(decode: () => Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no result after ${HANG_MS} ms`)), HANG_MS);
  });
  try {
    await Promise.race([decode(), hang]);
  } catch (err) {
    if (!(err instanceof OmrError) || !CODES.has(err.code)) throw err;
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------- seeds

const PNG_SEEDS = [
  buildPng({ width: 9, height: 7, colorType: 3, depth: 4, interlace: true, palette: Array.from({ length: 16 }, (_, i) => [i * 16, 255 - i * 16, i] as const), trns: [0, 128], samples: Array.from({ length: 63 }, (_, i) => (i * 7) % 16) }),
  buildPng({ width: 6, height: 5, colorType: 6, depth: 16, samples: Array.from({ length: 120 }, (_, i) => (i * 2654435761) % 65536) }),
  buildPng({ width: 17, height: 3, colorType: 0, depth: 1, interlace: true, samples: Array.from({ length: 51 }, (_, i) => i % 3 === 0 ? 1 : 0), chunks: [{ type: 'eXIf', data: exifTiff(6) }] }),
  buildPng({ width: 8, height: 8, colorType: 2, depth: 8, idatChunkSize: 20, samples: Array.from({ length: 192 }, (_, i) => (i * 31) & 0xff) }),
];

function blocksJpeg(orientation: number): Uint8Array {
  const data = new Uint8Array(24 * 16 * 4).map((_, i) => (i % 4 === 3 ? 255 : ((i >> 6) * 40) & 0xff));
  return withExif(new Uint8Array(jpeg.encode({ width: 24, height: 16, data }, 80).data), exifApp1Payload(orientation));
}
const JPEG_SEEDS = [blocksJpeg(6), blocksJpeg(3), fixture('gray.jpg'), fixture('progressive.jpg')];

const PDF_SEEDS = [
  buildPdf([
    { width: 100, height: 50, content: '0 g 10 10 30 20 re f 0.5 g 50 10 m 90 40 l S' },
    { width: 50, height: 100, rotate: 90 },
  ]),
  fixture('owner-password-only.pdf'),
  fixture('encrypted-rc4.pdf'),
];

const TIFF_SEEDS = [fixture('scan-bilevel.tif'), fixture('scan-gray-colour.tif'), fixture('tiled.tif')];
const WEBP_SEEDS = [fixture('photo.webp'), fixture('scan-lossless.webp')];
const HEIC_SEEDS = [fixture('photo.heic'), fixture('two-images.heic')];

/** Every page of a TIFF, each checked; the first returned. */
function decodeTiffPages(bytes: Uint8Array): Raster {
  const tiff = openTiff(bytes);
  const pages = Array.from({ length: tiff.pageCount }, (_, i) => tiff.decodePage(i));
  pages.forEach(assertRaster);
  return pages[0]!;
}

async function decodeHeicPages(bytes: Uint8Array): Promise<void> {
  const heic = await openHeic(bytes);
  try {
    for (let i = 0; i < heic.pageCount; i++) assertRaster(await heic.decodePage(i));
  } finally {
    heic.close();
  }
}

// ---------------------------------------------------------------- properties

describe('damaged inputs give input errors, never crashes or hangs', () => {
  it('PNG, raw mutants', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PNG_SEEDS), mutations, (seed, ms) => checkSync(() => decodePng(apply(seed, ms)))),
      runs(600),
    );
  });

  it('PNG, mutants with valid CRCs', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PNG_SEEDS), mutations, (seed, ms) => checkSync(() => decodePng(fixPngCrcs(apply(seed, ms))))),
      runs(1500),
    );
  });

  it('JPEG mutants', () => {
    fc.assert(
      fc.property(fc.constantFrom(...JPEG_SEEDS), mutations, (seed, ms) => checkSync(() => decodeJpeg(apply(seed, ms)))),
      runs(800),
    );
  });

  it('PDF mutants, opened and every page rendered', async () => {
    // pdf.js's stray rejections on damaged files are expected (and ignored by the library in Node); no other may occur.
    const rejections = await watchingRejections(() => fc.assert(
      fc.asyncProperty(fc.constantFrom(...PDF_SEEDS), mutations, (seed, ms) =>
        checkAsync(async () => {
          const doc = await openPdf(apply(seed, ms));
          try {
            for (let i = 0; i < doc.pageCount; i++) assertRaster(await doc.renderPage(i, { dpi: 36 }));
          } finally {
            await doc.close();
          }
        }),
      ),
      runs(150),
    ));
    expect(rejections.other).toEqual([]);
  }, 120_000);

  it('TIFF mutants, every page decoded', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TIFF_SEEDS), mutations, (seed, ms) => checkSync(() => decodeTiffPages(apply(seed, ms)))),
      runs(500),
    );
  });

  it('WebP mutants', async () => {
    const rejections = await watchingRejections(() => fc.assert(
      fc.asyncProperty(fc.constantFrom(...WEBP_SEEDS), mutations, (seed, ms) => checkAsync(async () => assertRaster(await decodeWebp(apply(seed, ms))))),
      runs(300),
    ));
    expect(rejections.other).toEqual([]);
  }, 120_000);

  it('HEIC mutants, every image decoded', async () => {
    // libheif reports what it cannot parse on the console; the property checks the errors instead.
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const rejections = await watchingRejections(() => fc.assert(
        fc.asyncProperty(fc.constantFrom(...HEIC_SEEDS), mutations, (seed, ms) => checkAsync(() => decodeHeicPages(apply(seed, ms)))),
        runs(200),
      ));
      expect(rejections.other).toEqual([]);
    } finally {
      log.mockRestore();
    }
  }, 120_000);

  it('any bytes, under any name and MIME type, through type detection and decodePages', async () => {
    const seeds = [...PNG_SEEDS, ...JPEG_SEEDS, PDF_SEEDS[0]!, TIFF_SEEDS[0]!, WEBP_SEEDS[1]!, HEIC_SEEDS[0]!, new TextEncoder().encode('<?xml version="1.0"?><score-partwise/>')];
    const names = fc.constantFrom('page.png', 'page.jpg', 'score.pdf', 'score.mxl', 'a.heic', 'scan.tif', 'page.webp', 'upload', '');
    const mimes = fc.constantFrom(undefined, 'image/png', 'application/pdf', 'application/octet-stream', 'image/webp', 'image/tiff', 'image/heic');
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const rejections = await watchingRejections(() => fc.assert(
      fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.constantFrom(...seeds)), mutations, names, mimes, (seed, ms, filename, mimeType) =>
        checkAsync(async () => {
          const data = apply(seed, ms);
          try {
            detectFileType({ filename, data, mimeType });
          } catch (err) {
            if (!(err instanceof OmrError) || !['UNSUPPORTED_FILE_TYPE', 'OMR_MIME_REQUIRED'].includes(err.code)) throw err;
          }
          for await (const page of decodePages([{ filename, data, mimeType }], { dpi: 36 })) assertRaster(page.raster);
        }),
      ),
      runs(300),
    ));
    log.mockRestore();
    expect(rejections.other).toEqual([]);
  }, 120_000);
});
