/**
 * PDF pages as rasters, rendered by pdf.js (platform details in
 * `pdf-platform.ts`).
 *
 * Engraved scores from MuseScore, LilyPond, Sibelius or Dorico are vector
 * drawings whose noteheads, clefs and rests are glyphs of embedded music
 * fonts; pdf.js draws those glyphs from the embedded font programs as
 * outlines, so they render exactly as in a viewer. Scanned PDFs are one
 * image per page and render like any other.
 *
 * Pages are rendered one at a time on request, so a long document never has
 * more than one page's pixels in memory.
 */
import { OmrError } from '../errors.js';
import type { Raster } from '../image/raster.js';
import { corruptedFile, fileLabel, tooLarge } from './input-error.js';
import {
  DEFAULT_PDF_DPI,
  DEFAULT_PDF_PAGE_BUDGET,
  MAX_IMAGE_PIXELS,
  MAX_IMAGE_SIDE,
  MAX_PDF_DPI,
  MAX_PDF_PAGE_PIXELS,
  MAX_PDF_PAGES,
  MIN_PDF_DPI,
  type PdfPageBudget,
} from './limits.js';
import { pdfPlatform } from './pdf-platform.js';

export interface PdfOpenOptions {
  /** Named in error messages. */
  filename?: string;
}

export interface PdfRenderOptions {
  /** Rendering resolution; default 300. Lowered for a page that would exceed {@link MAX_PDF_PAGE_PIXELS}. */
  dpi?: number;
  /** Tighter bounds on the drawing one page may cost than {@link DEFAULT_PDF_PAGE_BUDGET}. */
  budget?: Partial<PdfPageBudget>;
}

export interface PdfDocument {
  pageCount: number;
  /**
   * Renders page `index` (from 0) as an opaque RGBA raster on white paper,
   * marked `vector` where the page paints no image. Its size is the page's
   * size at the resolution, after the page's own rotation. The page last
   * rendered keeps its parsed drawing, so rendering it again costs only the
   * drawing. A page that draws more than its budget allows is refused with
   * `FILE_TOO_LARGE`, and closes the document: pdf.js keeps parsing a page's
   * drawing until its document is destroyed.
   */
  renderPage(index: number, options?: PdfRenderOptions): Promise<Raster>;
  /** Frees the parsed document; pages cannot be rendered after it. */
  close(): Promise<void>;
}

/**
 * Opens a PDF. Throws `ENCRYPTED_PDF` when it needs a password to open and
 * `CORRUPTED_FILE` when it cannot be parsed or has no pages.
 */
export async function openPdf(bytes: Uint8Array, options: PdfOpenOptions = {}): Promise<PdfDocument> {
  const { filename } = options;
  const { pdfjs, documentOptions, createCanvas } = await pdfPlatform();
  const task = pdfjs.getDocument({
    ...documentOptions,
    // pdf.js hands the buffer to its worker, which detaches it: give it a copy, not the caller's bytes.
    data: bytes.slice(),
    // Never fetch or evaluate: no system fonts, no FontFace (unavailable in workers), no eval-compiled glyphs.
    useSystemFonts: false,
    disableFontFace: true,
    isEvalSupported: false,
    enableXfa: false,
    // pdf.js skips embedded images larger than this instead of filling memory with them.
    maxImageSize: MAX_IMAGE_PIXELS,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy().catch(() => undefined);
    throw openError(err, filename);
  }

  const pageCount = doc.numPages;
  if (!(pageCount > 0)) {
    await task.destroy();
    throw corruptedFile(filename, 'PDF', 'it has no pages');
  }
  if (pageCount > MAX_PDF_PAGES) {
    await task.destroy();
    throw tooLarge(filename, `it has ${pageCount} pages, and at most ${MAX_PDF_PAGES} are accepted`);
  }

  let closed = false;
  // The page last rendered keeps its parsed drawing, for a second rendering at another resolution.
  let kept: { index: number; page: { cleanup(): unknown } } | undefined;
  const release = () => {
    kept?.page.cleanup();
    kept = undefined;
  };
  return {
    pageCount,
    async renderPage(index, renderOptions = {}) {
      if (closed) throw new OmrError('INVALID_ARGUMENT', `${fileLabel(filename)} was closed; reopen it to render pages.`);
      if (!Number.isInteger(index) || index < 0 || index >= pageCount) {
        throw new OmrError('INVALID_ARGUMENT', `Page ${index} does not exist: ${fileLabel(filename)} has pages 0 to ${pageCount - 1}.`);
      }
      const dpi = renderOptions.dpi ?? DEFAULT_PDF_DPI;
      if (!(dpi > 0 && dpi <= MAX_PDF_DPI)) throw new OmrError('INVALID_ARGUMENT', `dpi must be above 0 and at most ${MAX_PDF_DPI}, got ${dpi}.`);
      const pageLabel = `its page ${index + 1}`;
      if (kept?.index !== index) release();
      let page;
      try {
        page = await doc.getPage(index + 1);
      } catch (err) {
        throw corruptedFile(filename, 'PDF', `${pageLabel} cannot be read (${messageOf(err)})`, err);
      }
      const points = page.getViewport({ scale: 1 });
      const size = pageSize(points, dpi);
      // Lowered that far to fit the pixel limit (not asked for by the caller), the page is absurdly large.
      if (size.scale < Math.min(dpi, MIN_PDF_DPI) / 72) {
        release();
        page.cleanup();
        const inches = (n: number) => Math.round(n / 72).toLocaleString('en-US');
        throw tooLarge(
          filename,
          `${pageLabel} is ${inches(points.width)} × ${inches(points.height)} inches, too large to render within ${MAX_PDF_PAGE_PIXELS} pixels even at ${MIN_PDF_DPI} dpi`,
        );
      }
      const viewport = page.getViewport({ scale: size.scale });
      const canvas = createCanvas(size.width, size.height);
      try {
        const { context } = canvas;
        // Paper is white; pdf.js leaves unpainted areas transparent.
        context.fillStyle = '#ffffff';
        context.fillRect(0, 0, size.width, size.height);
        const rendering = page.render({ canvas: null, canvasContext: context, viewport, background: '#ffffff' });
        const overdrawn = watchBudget(rendering, { ...DEFAULT_PDF_PAGE_BUDGET, ...renderOptions.budget });
        try {
          await rendering.promise;
        } catch (err) {
          const refusal = overdrawn();
          if (!refusal) throw err;
          closed = true;
          await task.destroy().catch(() => undefined);
          throw tooLarge(filename, `${pageLabel} draws too much to render (${refusal}); it may be damaged or built to exhaust the reader`);
        }
        const { data } = context.getImageData(0, 0, size.width, size.height);
        // RGBA as the canvas gives it, uncopied: opaque, so its gray is the RGB's.
        const raster: Raster = { width: size.width, height: size.height, channels: 4, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
        if (drawnFromVectors(rendering, pdfjs.OPS)) raster.vector = true;
        kept = { index, page };
        return raster;
      } catch (err) {
        release();
        page.cleanup();
        if (err instanceof OmrError) throw err;
        throw corruptedFile(filename, 'PDF', `${pageLabel} cannot be rendered (${messageOf(err)})`, err);
      } finally {
        canvas.release();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await task.destroy();
    },
  };
}

/** What pdf.js's render task exposes to count a page's drawing: its continuation hook and, internally, the operators received so far. */
interface WatchedRendering {
  onContinue: ((cont: () => void) => void) | null;
  cancel(): void;
  _internalRenderTask?: { operatorList?: { fnArray?: unknown[] } };
}

/**
 * Counts the drawing of one page as pdf.js renders it, and cancels the
 * rendering once it passes the budget: each time pdf.js resumes (a slice of
 * drawing done, or more parsed drawing arrived), the slices so far and the
 * operators received are compared with it. Returns a function that tells,
 * after the rendering ends, which bound it passed, if any.
 */
function watchBudget(rendering: object, budget: PdfPageBudget): () => string | undefined {
  const task = rendering as WatchedRendering;
  let steps = 0;
  let passed: string | undefined;
  task.onContinue = (cont) => {
    steps++;
    // The count of operators is pdf.js-internal; without it the slices alone still bound the work.
    const operations = task._internalRenderTask?.operatorList?.fnArray?.length ?? 0;
    if (operations > budget.maxOperations) passed = `more than ${budget.maxOperations} drawing operations`;
    else if (steps > budget.maxSteps) passed = `more than ${budget.maxSteps} slices of drawing`;
    if (passed) task.cancel();
    else cont();
  };
  return () => passed;
}

/**
 * Pixel size and scale for a page of `points` (1/72 inch) at `dpi`, lowered
 * as far as needed to stay within the page pixel limit and the longest side
 * an image may have.
 */
function pageSize(points: { width: number; height: number }, dpi: number): { width: number; height: number; scale: number } {
  let scale = dpi / 72;
  const area = points.width * points.height * scale * scale;
  if (area > MAX_PDF_PAGE_PIXELS) scale *= Math.sqrt(MAX_PDF_PAGE_PIXELS / area);
  const longest = Math.max(points.width, points.height) * scale;
  if (longest > MAX_IMAGE_SIDE) scale *= MAX_IMAGE_SIDE / longest;
  // Rounding can add a row or column; shrink slightly until the page fits.
  for (;;) {
    const width = Math.max(1, Math.round(points.width * scale));
    const height = Math.max(1, Math.round(points.height * scale));
    if ((width * height <= MAX_PDF_PAGE_PIXELS && Math.max(width, height) <= MAX_IMAGE_SIDE) || scale < 1e-6) return { width, height, scale };
    scale *= 0.999;
  }
}

/** pdf.js's operators that paint an image: a scan, a photo, a picture, or a bitmap glyph or mask. */
const IMAGE_OPERATORS = [
  'paintImageMaskXObject',
  'paintImageMaskXObjectGroup',
  'paintImageXObject',
  'paintInlineImageXObject',
  'paintInlineImageXObjectGroup',
  'paintImageXObjectRepeat',
  'paintImageMaskXObjectRepeat',
  'paintSolidColorImageMask',
] as const;

/**
 * Whether a finished rendering drew paths and text alone, no image: an engraved page as its
 * engraver wrote it, never a scan. Unknown (false) where pdf.js's internal operator list is
 * not there to read.
 */
function drawnFromVectors(rendering: object, ops: Record<string, number>): boolean {
  const operators = (rendering as WatchedRendering)._internalRenderTask?.operatorList?.fnArray;
  if (!operators?.length) return false;
  const images = new Set(IMAGE_OPERATORS.map((name) => ops[name]).filter((op) => op !== undefined));
  return !operators.some((op) => images.has(op as number));
}

/** pdf.js's loading failures as ScoreSight errors: passwords, broken files, anything else. */
function openError(err: unknown, filename: string | undefined): OmrError {
  if (err instanceof OmrError) return err;
  const name = (err as { name?: unknown } | null)?.name;
  if (name === 'PasswordException') {
    return new OmrError('ENCRYPTED_PDF', `${fileLabel(filename)} is protected by a password; remove the protection (print or save it as an unprotected PDF) and try again.`, {
      cause: err,
    });
  }
  return corruptedFile(filename, 'PDF', `it cannot be parsed (${messageOf(err).replace(/\.$/, '')})`, err);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
