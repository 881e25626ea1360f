import jpeg from 'jpeg-js';
import { strToU8, zipSync, zlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { OmrError } from '../../src/errors.js';
import { encodePng } from '../../src/image/png-encode.js';
import { countPages, decodePages, type DecodedPage, type InputFile } from '../../src/input/decode-pages.js';
import { MAX_FILE_BYTES, MAX_WORKING_PIXELS } from '../../src/input/limits.js';
import { buildPdf } from '../support/pdf-build.js';
import { exifApp1Payload, withExif } from '../support/orientation-reference.js';
import { fixture } from './fixture-picture.js';
import { concat, pngChunk } from '../support/png-build.js';

const png: InputFile = { filename: 'one.png', data: encodePng({ width: 3, height: 2, channels: 1, data: new Uint8Array(6).fill(7) }) };
/** A 16×8 JPEG that a phone recorded as needing a quarter turn. */
const jpg: InputFile = {
  filename: 'two.jpg',
  data: withExif(new Uint8Array(jpeg.encode({ width: 16, height: 8, data: new Uint8Array(16 * 8 * 4).fill(200) }, 90).data), exifApp1Payload(6)),
};
/** Three pages whose sizes tell them apart. */
const pdf: InputFile = {
  filename: 'three.pdf',
  mimeType: 'application/pdf',
  data: buildPdf([
    { width: 72, height: 36 },
    { width: 36, height: 72 },
    { width: 72, height: 72 },
  ]),
};
/** Five bilevel pages, 160×96 down to 128×80. */
const tiff: InputFile = { filename: 'scan.tif', data: fixture('scan-bilevel.tif') };
/** Two photos, 128×80 and 112×72. */
const heic: InputFile = { filename: 'photos.heic', data: fixture('two-images.heic') };
/** A photo stored sideways, 96×160, with Exif orientation 6. */
const webp: InputFile = { filename: 'photo.webp', data: fixture('photo.webp') };
const musicxml: InputFile = { filename: 'score.musicxml', data: strToU8('<?xml version="1.0"?><score-partwise version="4.0"/>') };
const mxl: InputFile = { filename: 'score.mxl', data: zipSync({ 'META-INF/container.xml': strToU8('<container/>') }) };

async function collect(files: InputFile[], dpi = 72): Promise<{ file: number; page: number; size: string }[]> {
  const out: { file: number; page: number; size: string }[] = [];
  for await (const p of decodePages(files, { dpi })) out.push({ file: p.file, page: p.page, size: `${p.raster.width}×${p.raster.height}×${p.raster.channels}` });
  return out;
}

async function failure(files: InputFile[]): Promise<{ error: OmrError; pages: number }> {
  let pages = 0;
  try {
    for await (const _ of decodePages(files)) pages++;
  } catch (err) {
    expect(err).toBeInstanceOf(OmrError);
    return { error: err as OmrError, pages };
  }
  throw new Error('expected decodePages to fail');
}

describe('decodePages', () => {
  it('yields every page of every file in order: a PDF its pages, an image one upright page', async () => {
    expect(await collect([pdf, png, jpg, pdf])).toEqual([
      { file: 0, page: 0, size: '72×36×4' },
      { file: 0, page: 1, size: '36×72×4' },
      { file: 0, page: 2, size: '72×72×4' },
      { file: 1, page: 0, size: '3×2×1' },
      { file: 2, page: 0, size: '8×16×3' },
      { file: 3, page: 0, size: '72×36×4' },
      { file: 3, page: 1, size: '36×72×4' },
      { file: 3, page: 2, size: '72×72×4' },
    ]);
  });

  it("renders a PDF page again at the resolution pdfResolution chooses from its first rendering, and only where it differs", async () => {
    const asked: string[] = [];
    const sizes: string[] = [];
    const pdfResolution = (page: { width: number; height: number }, dpi: number) => (asked.push(`${page.width}×${page.height}@${dpi}`), page.width > page.height ? 144 : dpi);
    for await (const p of decodePages([pdf], { dpi: 72, pdfResolution })) sizes.push(`${p.raster.width}×${p.raster.height}`);
    expect(asked).toEqual(['72×36@72', '36×72@72', '72×72@72']);
    expect(sizes).toEqual(['144×72', '36×72', '72×72']);
  });

  it('yields every page of a multi-page TIFF and every image of a HEIF file, in order; a WebP one upright page', async () => {
    expect(await collect([tiff, heic, webp])).toEqual([
      { file: 0, page: 0, size: '160×96×1' },
      { file: 0, page: 1, size: '152×92×1' },
      { file: 0, page: 2, size: '144×88×1' },
      { file: 0, page: 3, size: '136×84×1' },
      { file: 0, page: 4, size: '128×80×1' },
      { file: 1, page: 0, size: '128×80×3' },
      { file: 1, page: 1, size: '112×72×3' },
      { file: 2, page: 0, size: '160×96×3' },
    ]);
  });

  it('counts the pages each file yields without decoding them', async () => {
    expect(await Promise.all([pdf, png, jpg, tiff, heic, webp].map(countPages))).toEqual([3, 1, 1, 5, 2, 1]);
    await expect(countPages(musicxml)).rejects.toMatchObject({ code: 'UNSUPPORTED_FILE_TYPE' });
    await expect(countPages({ filename: 'cut.tif', data: tiff.data.subarray(0, 100) })).rejects.toMatchObject({ code: 'CORRUPTED_FILE' });
  });

  it('renders PDF pages at the asked resolution', async () => {
    expect((await collect([pdf], 144))[0]!.size).toBe('144×72×4');
  });

  it('decodes lazily: a consumer that stops early gets no more pages', async () => {
    const pages = decodePages([pdf, png]);
    const first = await pages.next();
    expect((first.value as DecodedPage).page).toBe(0);
    // Stopping closes the PDF (the generator's finally) and ends the sequence.
    expect(await pages.return(undefined)).toEqual({ done: true, value: undefined });
    expect(await pages.next()).toEqual({ done: true, value: undefined });
  });

  it.each([
    ['MusicXML', musicxml, /"score\.musicxml" is a MusicXML score, not a page to recognise/],
    ['MXL', mxl, /"score\.mxl" is a compressed MusicXML \(\.mxl\) score, not a page to recognise/],
  ])('refuses %s inputs before decoding any page', async (_, score, message) => {
    const { error, pages } = await failure([png, score]);
    expect(error.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(error.message).toMatch(message);
    expect(pages).toBe(0);
  });

  it('checks every file type and size before the first page', async () => {
    const gif = { filename: 'anim.gif', data: strToU8('GIF89a\x01\x00\x01\x00') };
    expect(await failure([png, gif])).toMatchObject({ pages: 0, error: { code: 'UNSUPPORTED_FILE_TYPE' } });
    expect(await failure([png, { filename: 'blob', data: strToU8('????') }])).toMatchObject({ pages: 0, error: { code: 'OMR_MIME_REQUIRED' } });
    expect(await failure([png, { filename: 'empty.png', data: new Uint8Array(0) }])).toMatchObject({
      pages: 0,
      error: { code: 'CORRUPTED_FILE', message: '"empty.png" is empty.' },
    });
    const huge = new Uint8Array(8);
    Object.defineProperty(huge, 'length', { value: MAX_FILE_BYTES + 1 });
    expect(await failure([png, { filename: 'huge.pdf', data: huge }])).toMatchObject({ pages: 0, error: { code: 'FILE_TOO_LARGE' } });
    expect(await failure([])).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
  });

  it("reports a broken file's own error after the pages before it", async () => {
    const broken = { filename: 'broken.png', data: png.data.subarray(0, 30) };
    const { error, pages } = await failure([pdf, broken]);
    expect(pages).toBe(3);
    expect(error.code).toBe('CORRUPTED_FILE');
    expect(error.message).toMatch(/^"broken\.png" is not a readable PNG file/);
  });
});

describe('decodePages: only the pages wanted', () => {
  it('yields the pages asked for, numbered over all files, and never decodes the others', async () => {
    // A PNG signature over garbage: decoding it would fail with CORRUPTED_FILE.
    const broken: InputFile = { filename: 'broken.png', data: new Uint8Array([...png.data.subarray(0, 8), ...new Uint8Array(40).fill(1)]) };
    const got: { file: number; page: number; index: number; size: string }[] = [];
    for await (const p of decodePages([png, broken, pdf, tiff], { dpi: 72, pages: new Set([0, 3, 5, 9]) })) {
      got.push({ file: p.file, page: p.page, index: p.index, size: `${p.raster.width}×${p.raster.height}` });
    }
    expect(got).toEqual([
      { file: 0, page: 0, index: 0, size: '3×2' },
      { file: 2, page: 1, index: 3, size: '36×72' },
      { file: 3, page: 0, index: 5, size: '160×96' },
      { file: 3, page: 4, index: 9, size: '128×80' },
    ]);
    await expect(collect([png, broken])).rejects.toMatchObject({ code: 'CORRUPTED_FILE' });
  });
});

/** A white 8-bit gray PNG, written directly (unfiltered rows, fast deflate): the encoder is slow at this size. */
function whitePng(width: number, height: number): Uint8Array {
  const rows = new Uint8Array((width + 1) * height).fill(255);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0;
  const header = new Uint8Array(13);
  new DataView(header.buffer).setUint32(0, width);
  new DataView(header.buffer).setUint32(4, height);
  header.set([8, 0, 0, 0, 0], 8);
  const signature = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', zlibSync(rows, { level: 1 })), pngChunk('IEND', new Uint8Array(0))]);
}

describe('decodePages: working size', () => {
  /** The only page `decodePages` yields for one file. */
  async function onlyPage(file: InputFile, maxPixels?: number): Promise<DecodedPage['raster']> {
    const pages: DecodedPage[] = [];
    for await (const p of decodePages([file], { maxPixels })) pages.push(p);
    expect(pages).toHaveLength(1);
    return pages[0]!.raster;
  }

  it('reduces a blank 5000×4000 PNG to the working pixel limit before yielding it, keeping its shape', async () => {
    const blank: InputFile = { filename: 'blank.png', data: whitePng(5000, 4000) };
    expect(blank.data.length).toBeLessThan(200_000);
    const page = await onlyPage(blank);
    expect(Math.abs(page.width / page.height - 5 / 4)).toBeLessThan(0.001);
    expect(page.width * page.height).toBeLessThanOrEqual(MAX_WORKING_PIXELS);
    expect(page.width * page.height).toBeGreaterThan(0.99 * MAX_WORKING_PIXELS);
    expect(page.data.length).toBe(page.width * page.height);
  }, 120_000);

  it('reduces by area averaging, so a one-pixel line stays a lighter line', async () => {
    const width = 400;
    const height = 200;
    const data = new Uint8Array(width * height * 3).fill(255);
    data.fill(0, 101 * width * 3, 102 * width * 3); // row 101 black
    const page = await onlyPage({ filename: 'line.png', data: encodePng({ width, height, channels: 3, data }) }, 20_000);
    expect([page.width, page.height, page.channels]).toEqual([200, 100, 3]);
    // Row 101 falls in output row 50, averaged with the white row 100: mid-gray, across the whole width.
    const row = Array.from({ length: page.width }, (_, x) => page.data[(50 * page.width + x) * 3]!);
    expect(new Set(row)).toEqual(new Set([128]));
    expect(page.data[(49 * page.width + 7) * 3]).toBe(255);
  });

  it('leaves pages within the limit untouched', async () => {
    expect(await collect([png])).toEqual([{ file: 0, page: 0, size: '3×2×1' }]);
    const page = await onlyPage(png, 6);
    expect([page.width, page.height]).toEqual([3, 2]);
  });
});
