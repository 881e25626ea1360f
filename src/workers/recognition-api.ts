/**
 * The API a recognition worker exposes through comlink: recognise a job's
 * files, count a file's pages, render a page for a preview, and receive the
 * main thread's asset locations. `recognition-service.ts` implements it;
 * the worker (`recognition-worker.ts`) and the in-process pool
 * (`in-process.ts`) both run that one implementation.
 *
 * Everything crossing it is structured-clonable: files are bytes, the score
 * is plain data, images are PNG bytes. Failures arrive as `OmrError` with
 * their code, status and message (`error-transfer.ts`).
 *
 * Who owns the bytes: the worker receives its own copy of the files (the
 * pool copies exactly the files' bytes and transfers the copy, so the caller
 * keeps its buffers untouched), and the PNGs it returns are transferred to
 * the caller, which owns them.
 */
import type { ScoreSightEnv } from '../env.js';
import type { InputFile } from '../input/decode-pages.js';
import type { PageStage } from '../recognize/recognize-page.js';
import type { PageReport } from '../recognize/page-report.js';
import type { Score } from '../score/model.js';

export interface RecognitionRequest {
  files: InputFile[];
  /** Resolution PDF pages are rendered at; the recognition default when absent. */
  dpi?: number;
  /** Languages of the text, main language first (src/text/locale-languages.ts); English when absent. */
  locales?: string[];
}

/**
 * Callbacks from a running recognition. Across a worker boundary they are a
 * `Comlink.proxy` of the caller's object, so each call is a message to the
 * main thread; both members must exist.
 */
export interface RecognitionEvents {
  /** Awaited before each page (0-based over all files); throwing or rejecting stops the run with that error — a cancel. */
  beforePage(page: number): void | Promise<void>;
  /** A page finished a stage. Advisory: a listener that throws does not stop the run. */
  onStage(page: number, stage: PageStage): void;
}

export interface RecognitionOutcome {
  score: Score;
  /** PNG of the first page, at most 512 px a side. */
  thumbnail: Uint8Array;
  /** Pages seen, over all files, pages without music included. */
  pageCount: number;
  /** What became of each page: read (and how far it was turned, how sure the reading is) or skipped and why. */
  pages: PageReport[];
  /** The models the score came from: `RECOGNITION_MODEL_VERSION`. */
  modelVersion: string;
}

export interface RecognitionApi {
  /** Recognises every page of every file into one score. */
  recognize(request: RecognitionRequest, events: RecognitionEvents): Promise<RecognitionOutcome>;
  /**
   * Pages a file has: a PDF's page count, one for an image. The file is
   * opened or decoded as recognition would, so a corrupt, encrypted or
   * unsupported file fails here with the decoder's error.
   */
  countPages(file: InputFile): Promise<number>;
  /**
   * A PNG of one input page (0-based over all files, in recognition's order),
   * as recognition sees it, shrunk to fit `maxSide` pixels a side when given.
   */
  renderPage(files: InputFile[], page: number, maxSide?: number): Promise<Uint8Array>;
  /** Sets asset locations: a worker has its own module instance of `env`, so it is given the main thread's values. */
  configure(values: Partial<ScoreSightEnv>): void;
}
