import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/image/raster.js';
import { DEFAULT_PDF_PAGE_BUDGET, MAX_PDF_PAGE_OPERATIONS, MAX_PDF_PAGE_PIXELS, MAX_PDF_RENDER_STEPS, MIN_PDF_DPI } from '../../src/input/limits.js';
import { openPdf } from '../../src/input/pdf.js';
import { isPdfjsStrayRejection } from '../../src/input/pdfjs-rejections.js';
import { buildPdf, pdfFromObjects } from '../support/pdf-build.js';
import { rejection as errorOf } from '../support/rejection.js';
import { watchingRejections } from '../support/rejections.js';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/input/${name}`, import.meta.url)));
const devSet = (path: string) => new Uint8Array(readFileSync(new URL(`../../bench/dev-set/${path}`, import.meta.url)));

/** Red channel of a pixel (pages are gray, so any channel will do). */
const value = (r: Raster, x: number, y: number) => r.data[(y * r.width + x) * r.channels]!;

async function renderFirst(bytes: Uint8Array, dpi?: number): Promise<Raster> {
  const doc = await openPdf(bytes);
  try {
    return await doc.renderPage(0, { dpi });
  } finally {
    await doc.close();
  }
}

describe('openPdf: rendering', () => {
  it('renders an engraved dev-set page at the asked resolution, with its staff lines', async () => {
    // LilyPond, A4 (594.99 × 841.89 pt), music in an embedded Type 1 font (Emmentaler).
    const page = await renderFirst(devSet('mono-aubade-voice/score.pdf'), 100);
    expect([page.width, page.height, page.channels]).toEqual([826, 1169, 4]);
    // Staff lines: rows dark across more than half the page width.
    const lineRows: number[] = [];
    for (let y = 0; y < page.height; y++) {
      let dark = 0;
      for (let x = 0; x < page.width; x++) if (value(page, x, y) < 160) dark++;
      if (dark > page.width / 2) lineRows.push(y);
    }
    // Eight staves of five lines (a line may straddle two rows), and a few long lyric extenders.
    expect(lineRows.length).toBeGreaterThanOrEqual(40);
    expect(lineRows.length).toBeLessThanOrEqual(90);
    // Paper stays white away from the music.
    expect(value(page, 5, 5)).toBe(255);
  });

  it('says a page is drawn from vectors only where it paints no image', async () => {
    // Engraved by LilyPond and MuseScore: paths and text.
    expect((await renderFirst(devSet('mono-aubade-voice/score.pdf'), 50)).vector).toBe(true);
    expect((await renderFirst(devSet('piano-il-pleure/score.pdf'), 50)).vector).toBe(true);
    // The same square as a one-pixel inline image, stretched over it: a scanned page's kind of drawing.
    const scanned = await renderFirst(buildPdf([{ width: 144, height: 72, content: 'q 20 0 0 20 10 12 cm BI /W 1 /H 1 /BPC 8 /CS /G ID \x00 EI Q' }]), 72);
    expect(value(scanned, 15, 50)).toBeLessThan(128);
    expect(scanned.vector).toBeUndefined();
    // Paper and a rectangle of paint.
    expect((await renderFirst(buildPdf([{ width: 144, height: 72, content: '0 g 10 40 20 20 re f' }]), 72)).vector).toBe(true);
  });

  it('renders a page again at another resolution, and the pages after it, as a fresh document does', async () => {
    const bytes = devSet('piano-il-pleure/score.pdf');
    const doc = await openPdf(bytes);
    const again = [await doc.renderPage(0, { dpi: 40 }), await doc.renderPage(0, { dpi: 30 }), await doc.renderPage(1, { dpi: 30 }), await doc.renderPage(0, { dpi: 30 })];
    await doc.close();
    const fresh = async (index: number) => {
      const other = await openPdf(bytes);
      try {
        return await other.renderPage(index, { dpi: 30 });
      } finally {
        await other.close();
      }
    };
    expect([again[0]!.width, again[1]!.width]).toEqual([Math.round((again[1]!.width * 40) / 30), again[1]!.width]);
    expect(Buffer.from(again[1]!.data).equals(Buffer.from((await fresh(0)).data))).toBe(true);
    expect(Buffer.from(again[2]!.data).equals(Buffer.from((await fresh(1)).data))).toBe(true);
    expect(Buffer.from(again[3]!.data).equals(Buffer.from(again[1]!.data))).toBe(true);
  });

  it('renders at 300 dpi by default', async () => {
    const page = await renderFirst(devSet('mono-aubade-voice/score.pdf'));
    expect([page.width, page.height]).toEqual([2479, 3508]);
  });

  it('renders every page of a MuseScore PDF (embedded TrueType music font)', async () => {
    const doc = await openPdf(devSet('piano-il-pleure/score.pdf'));
    expect(doc.pageCount).toBe(2);
    for (let index = 0; index < 2; index++) {
      const page = await doc.renderPage(index, { dpi: 50 });
      let dark = 0;
      for (let i = 0; i < page.width * page.height; i++) if (page.data[i * page.channels]! < 128) dark++;
      // Music covers a few percent of an engraved page.
      expect(dark / (page.width * page.height)).toBeGreaterThan(0.01);
    }
    await doc.close();
  });

  it('puts drawings where the page says, top row first, exactly at 72 dpi', async () => {
    // A 20×20 pt square 10 pt from the left and 40 pt from the bottom of a 144×72 pt page.
    const page = await renderFirst(buildPdf([{ width: 144, height: 72, content: '0 g 10 40 20 20 re f' }]), 72);
    expect([page.width, page.height]).toEqual([144, 72]);
    const black: string[] = [];
    for (let y = 0; y < page.height; y++) for (let x = 0; x < page.width; x++) if (value(page, x, y) < 128) black.push(`${x},${y}`);
    expect(black.length).toBe(400);
    expect(black[0]).toBe('10,12');
    expect(black.at(-1)).toBe('29,31');
  });

  it("applies the page's own rotation", async () => {
    const page = await renderFirst(buildPdf([{ width: 144, height: 72, content: '0 g 10 40 20 20 re f', rotate: 90 }]), 72);
    expect([page.width, page.height]).toEqual([72, 144]);
    // Turned a quarter clockwise: the square's top-left corner moves from (10, 12) to (72 − 32, 10).
    expect(value(page, 40, 10)).toBe(0);
    expect(value(page, 59, 29)).toBe(0);
    expect(value(page, 39, 10)).toBe(255);
  });

  it('lowers the resolution of pages that would exceed the pixel limit, keeping their shape', async () => {
    const page = await renderFirst(buildPdf([{ width: 3000, height: 3000, content: '0 g 0 0 100 100 re f' }]));
    expect(page.width).toBe(page.height);
    expect(page.width * page.height).toBeLessThanOrEqual(MAX_PDF_PAGE_PIXELS);
    expect(page.width * page.height).toBeGreaterThan(0.99 * MAX_PDF_PAGE_PIXELS);
  });

  it('renders a poster page at the resolution that fits the pixel limit, not refusing it', async () => {
    // 100 × 100 inches: 40 dpi fits 16 Mpx.
    const page = await renderFirst(buildPdf([{ width: 7200, height: 7200, content: '0 g 0 0 720 720 re f' }]), 200);
    expect(page.width * page.height).toBeLessThanOrEqual(MAX_PDF_PAGE_PIXELS);
    expect(page.width).toBeGreaterThanOrEqual(100 * MIN_PDF_DPI);
    expect(value(page, 5, page.height - 5)).toBe(0);
  });

  it('refuses a page whose UserUnit makes it too large to render within the pixel limit even at the lowest resolution', async () => {
    // 200 × 200 pt in units of 75,000 pt: some 3 km a side.
    const bytes = pdfFromObjects([
      '',
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /UserUnit 75000 /Contents 4 0 R /Resources << >> >>',
      '<< /Length 20 >>\nstream\n0 g 10 10 20 20 re f\nendstream',
    ]);
    const doc = await openPdf(bytes, { filename: 'huge.pdf' });
    const err = await errorOf(doc.renderPage(0));
    expect(err).toMatchObject({ code: 'FILE_TOO_LARGE', message: expect.stringMatching(/huge\.pdf.*page 1 is 208,333 × 208,333 inches, too large to render within 16000000 pixels even at 36 dpi/) });
    // A caller asking for a low resolution itself is not refused.
    const small = await doc.renderPage(0, { dpi: 1e-4 });
    expect(small.width * small.height).toBeLessThanOrEqual(MAX_PDF_PAGE_PIXELS);
    await doc.close();
  });

  it('keeps very long pages within the longest side an image may have', async () => {
    const page = await renderFirst(buildPdf([{ width: 14_400, height: 100 }]), 300);
    expect([page.width, page.height]).toEqual([32_768, 228]);
  });

  it("leaves the caller's bytes intact (pdf.js detaches what it is given)", async () => {
    const bytes = buildPdf([{ width: 72, height: 72 }]);
    const copy = bytes.slice();
    const doc = await openPdf(bytes);
    await doc.renderPage(0, { dpi: 10 });
    await doc.close();
    expect(bytes).toEqual(copy);
  });

  it('opens PDFs encrypted with an empty user password (owner restrictions only)', async () => {
    const page = await renderFirst(fixture('owner-password-only.pdf'), 72);
    expect([page.width, page.height]).toEqual([144, 72]);
    expect(value(page, 72, 36)).toBe(0);
    expect(value(page, 10, 10)).toBe(255);
  });
});

describe('openPdf: refusals', () => {
  it.each(['encrypted-aes256.pdf', 'encrypted-rc4.pdf'])('refuses %s, which needs a password, with ENCRYPTED_PDF', async (name) => {
    const err = await errorOf(openPdf(fixture(name), { filename: name }));
    expect(err.code).toBe('ENCRYPTED_PDF');
    expect(err.message).toContain(`"${name}" is protected by a password`);
  });

  it('refuses a PDF without pages as corrupted', async () => {
    const err = await errorOf(openPdf(buildPdf([]), { filename: 'empty.pdf' }));
    expect(err.code).toBe('CORRUPTED_FILE');
    expect(err.message).toMatch(/"empty\.pdf" is not a readable PDF file: it has no pages/);
  });

  it('refuses garbage and truncated files as corrupted, naming the file', async () => {
    const score = devSet('mono-aubade-voice/score.pdf');
    for (const bytes of [new TextEncoder().encode('%PDF-1.7\nnothing here'), new Uint8Array(100), score.subarray(0, score.length >> 1)]) {
      const err = await errorOf(openPdf(bytes, { filename: 'x.pdf' }));
      expect(err.code).toBe('CORRUPTED_FILE');
      expect(err.message).toMatch(/^"x\.pdf" is not a readable PDF file/);
    }
  });

  it('checks page numbers and resolutions, and refuses to render after closing', async () => {
    const doc = await openPdf(buildPdf([{ width: 72, height: 72 }]));
    for (const index of [-1, 1, 0.5, Number.NaN]) expect((await errorOf(doc.renderPage(index))).code).toBe('INVALID_ARGUMENT');
    for (const dpi of [0, -72, 5000, Number.NaN]) expect((await errorOf(doc.renderPage(0, { dpi }))).code).toBe('INVALID_ARGUMENT');
    await doc.close();
    await doc.close();
    expect((await errorOf(doc.renderPage(0))).code).toBe('INVALID_ARGUMENT');
  });
});

describe('openPdf: stray pdf.js rejections', () => {
  it('happen on this damaged PDF, and are told apart from other rejections', async () => {
    const seen = await watchingRejections(async () => {
      const doc = await openPdf(fixture('stray-rejection.pdf'));
      for (let i = 0; i < doc.pageCount; i++) await doc.renderPage(i, { dpi: 36 });
      await doc.close();
    });
    expect(seen).toEqual({ stray: 1, other: [] });
    expect(isPdfjsStrayRejection(new Error('elsewhere'))).toBe(false);
    expect(isPdfjsStrayRejection('text')).toBe(false);
    expect(isPdfjsStrayRejection(null)).toBe(false);
  });

  it('do not end the Node process on a damaged PDF that leaves them', () => {
    // Without the guard in src/input/pdfjs-rejections.ts, this file makes Node exit with an "unhandled rejection".
    const dir = mkdtempSync(join(tmpdir(), 'scoresight-pdf-'));
    try {
      const script = join(dir, 'open.mts');
      const pdfModule = new URL('../../src/input/pdf.ts', import.meta.url).href;
      const fixturePath = fileURLToPath(new URL('../fixtures/input/stray-rejection.pdf', import.meta.url));
      writeFileSync(
        script,
        `import { readFileSync } from 'node:fs';
import { openPdf } from ${JSON.stringify(pdfModule)};
const doc = await openPdf(new Uint8Array(readFileSync(${JSON.stringify(fixturePath)})));
for (let i = 0; i < doc.pageCount; i++) await doc.renderPage(i, { dpi: 36 });
await doc.close();
await new Promise((resolve) => setTimeout(resolve, 200));
console.log('still running');
`,
      );
      const output = execFileSync(process.execPath, ['--import', 'tsx', script], { cwd: fileURLToPath(new URL('../..', import.meta.url)), encoding: 'utf8' });
      expect(output).toContain('still running');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * A page that draws form F0 ten times; F0 draws F1 ten times, and so on ten
 * deep, the last drawing a square: 10¹⁰ squares from some 3 KB of PDF.
 */
function nestedFormsPdf(depth = 10, fanout = 10): Uint8Array {
  const objects: string[] = [];
  const formId = (level: number) => 5 + level;
  const draws = 'q /F Do Q '.repeat(fanout).trim();
  const stream = (dict: string, content: string) => `<< ${dict} /Length ${content.length} >>\nstream\n${content}\nendstream`;
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
  objects[3] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << /XObject << /F ${formId(0)} 0 R >> >> >>`;
  objects[4] = stream('', draws);
  for (let level = 0; level < depth; level++) {
    const last = level === depth - 1;
    const resources = last ? '<< >>' : `<< /XObject << /F ${formId(level + 1)} 0 R >> >>`;
    objects[formId(level)] = stream(`/Type /XObject /Subtype /Form /BBox [0 0 200 200] /Resources ${resources}`, last ? '0 g 10 10 5 5 re f' : draws);
  }
  return pdfFromObjects(objects);
}

describe('openPdf: pages that draw too much', () => {
  it('refuses a few KB of nested forms drawing 10¹⁰ times, and closes the document so pdf.js stops parsing it', async () => {
    const bytes = nestedFormsPdf();
    expect(bytes.length).toBeLessThan(4096);
    const doc = await openPdf(bytes, { filename: 'nested.pdf' });
    const err = await errorOf(doc.renderPage(0, { dpi: 72, budget: { maxOperations: 20_000 } }));
    expect(err).toMatchObject({ code: 'FILE_TOO_LARGE', message: expect.stringMatching(/nested\.pdf.*page 1 draws too much to render \(more than 20000 drawing operations\)/) });
    expect(await errorOf(doc.renderPage(0, { dpi: 72 }))).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/was closed/) });
    await doc.close();
  }, 120_000);

  it('bounds the slices of drawing too, whatever the operators', async () => {
    const doc = await openPdf(nestedFormsPdf(), { filename: 'nested.pdf' });
    const err = await errorOf(doc.renderPage(0, { dpi: 72, budget: { maxSteps: 20 } }));
    expect(err).toMatchObject({ code: 'FILE_TOO_LARGE', message: expect.stringMatching(/more than 20 slices of drawing/) });
    await doc.close();
  }, 120_000);

  it('renders the same forms nested shallowly, and real engraved pages, within the default budget', async () => {
    const page = await renderFirst(nestedFormsPdf(2, 10), 72);
    expect(value(page, 12, 200 - 12)).toBe(0);
    const engraved = await renderFirst(devSet('piano-il-pleure/score.pdf'), 50);
    expect(engraved.width).toBeGreaterThan(0);
    expect(DEFAULT_PDF_PAGE_BUDGET).toEqual({ maxOperations: MAX_PDF_PAGE_OPERATIONS, maxSteps: MAX_PDF_RENDER_STEPS });
  });
});
