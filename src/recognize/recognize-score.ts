/**
 * Recognition of a whole job: every page of every file, in order, through
 * the page pipeline, then joined into one score. Pages are decoded and
 * recognised one at a time, so memory holds a single page however many
 * there are, and time grows linearly with pages. A page without staves
 * (a title page) is skipped; a job without any music fails with
 * NO_MUSIC_DETECTED.
 */
import { OmrError } from '../errors.js';
import type { PageReport } from './page-report.js';

export type { PageReport, PageTurn } from './page-report.js';
import { buildScore } from '../assembly/build-score.js';
import type { SystemReading } from '../assembly/read-page.js';
import type { Raster } from '../image/raster.js';
import { decodePages, type InputFile } from '../input/decode-pages.js';
import { staffSizedDpi } from '../preparation/render-resolution.js';
import type { Score } from '../score/model.js';
import { recognizePage, type PageStage, type PageStages, type PageTextSink } from './recognize-page.js';
import { applyText } from '../text/apply-text.js';
import { openOcr } from '../text/ocr.js';
import type { PageText } from '../text/page-text.js';
import { DIGIT_MODEL_VERSION } from '../symbols/digits.js';
import { SYMBOL_MODEL_VERSION } from '../symbols/segment.js';

/**
 * PDF pages are first rendered for recognition at 200 dpi: printed staff
 * spaces (1.3–2 mm) come out at 10–16 px, near the canonical 12 px the page
 * is prepared at. A page whose staves come out further from it is rendered
 * again at the resolution that gives it (`staffSizedDpi`).
 */
export const RECOGNITION_PDF_DPI = 200;

/** The models a recognised score came from, as written into its MusicXML `<encoding>`. */
export const RECOGNITION_MODEL_VERSION = `${SYMBOL_MODEL_VERSION}+${DIGIT_MODEL_VERSION}`;

export interface RecognizeProgress {
  /** 0-based index of the page being worked on, over all files. */
  page: number;
  stage: PageStage;
}

export interface RecognizeOptions {
  onProgress?: (progress: RecognizeProgress) => void;
  /** Called once a page is read (its text as well) or skipped, in page order. */
  onPage?: (report: PageReport) => void;
  /** Receives the first page's raster (for a thumbnail) before it is recognised. */
  onFirstPage?: (raster: Raster) => void;
  /** Resolution PDF pages are rendered at (default {@link RECOGNITION_PDF_DPI}). */
  dpi?: number;
  /**
   * Awaited before each page is recognised; a job engine stops the run
   * between pages (a cancel) by throwing from it.
   */
  beforePage?: (page: number) => void | Promise<void>;
  /**
   * Languages of the text (lyrics, title, part names) as BCP 47 codes, main language first (default
   * `['en']`); see src/text/locale-languages.ts. Unsupported ones are read as best the installed
   * traineddata can, never an error.
   */
  locales?: readonly string[];
  /** Read the text at all (default true); without it parts keep generic names and notes have no lyrics. */
  readText?: boolean;
  /**
   * The pages to recognise, as 0-based indices over all files (default every page); the others are
   * not even decoded. Page numbers in progress and evidence stay those of the whole document.
   */
  pages?: readonly number[];
  /** Receives what each stage of a page produced, as the page is read (for pictures of the stages: stage-views.ts). */
  onStages?: (stages: PageStages) => void;
}

/** The locales a job's text is read in: those asked for, else English. */
const textLocales = (locales?: readonly string[]) => (locales?.length ? locales : ['en']);

/**
 * Starts the text reader that a {@link recognizeScore} call with these locales will read with, so that its
 * start (a quarter of a second) overlaps other work, such as counting a document's pages. Never fails: a
 * reader that does not start leaves the job without text, as it would have anyway.
 */
export function startTextReader(locales?: readonly string[]): void {
  void openOcr(textLocales(locales)).then((ocr) => ocr?.close());
}

export async function recognizeScore(files: readonly InputFile[], options: RecognizeOptions = {}): Promise<Score> {
  const readings: SystemReading[] = [];
  let first = true;
  let empty: OmrError | undefined;
  // One OCR worker reads the whole job's text; it starts now, loading while the first page is decoded.
  const text: PageTextSink | undefined = options.readText === false ? undefined : { ocr: openOcr(textLocales(options.locales)), pages: [] as PageText[], unread: new Set<number>() };
  // A page is reported once its text is read (or failed), in page order.
  const report = (page: PageReport) => {
    if (!text?.pending) return void options.onPage?.(page);
    text.pending = text.pending.then(() => options.onPage?.(text.unread.has(page.page) ? { ...page, textUnread: true } : page));
  };
  try {
    const pages = options.pages && new Set(options.pages);
    // A resolution asked for is kept; otherwise each PDF page is rendered again where its staff size calls for it.
    const resolution = options.dpi !== undefined ? { dpi: options.dpi } : { dpi: RECOGNITION_PDF_DPI, pdfResolution: staffSizedDpi };
    for await (const { raster, index: page } of decodePages(files, { ...resolution, ...(pages ? { pages } : {}) })) {
      if (first) options.onFirstPage?.(raster);
      first = false;
      await options.beforePage?.(page);
      try {
        const { systems, turned, tinyStaffSpace } = await recognizePage(raster, page, (stage) => options.onProgress?.({ page, stage }), text, options.onStages);
        readings.push(...systems);
        report({ page, turned, confidence: readingConfidence(systems), ...(tinyStaffSpace ? { tinyStaffSpace } : {}) });
      } catch (err) {
        // A title page or a page of text among the music is skipped, and said so; a job with no music at all fails.
        if (!(err instanceof OmrError) || err.code !== 'NO_MUSIC_DETECTED') throw err;
        empty ??= err;
        report({ page, turned: 0, confidence: 0, skipped: { code: 'NO_MUSIC_DETECTED', message: err.message } });
      }
    }
  } finally {
    // The last page's text is read before the worker goes (pending never rejects).
    await text?.pending;
    await (await text?.ocr)?.close();
  }
  if (!readings.length) throw empty ?? new OmrError('NO_MUSIC_DETECTED', 'No music staves were found in the files given.');
  const score = buildScore(readings);
  if (text) applyText(score, text.pages.sort((a, b) => a.page - b.page));
  return score;
}

/** Mean confidence of the notes and rests read on a page, rounded to thousandths (1 for a page with none). */
function readingConfidence(systems: readonly SystemReading[]): number {
  const confidences = systems.flatMap((s) => s.staves.flatMap((staff) => staff.items.map((item) => item.confidence)));
  if (!confidences.length) return 1;
  return Math.round((confidences.reduce((a, b) => a + b, 0) / confidences.length) * 1000) / 1000;
}

