/**
 * What the job engine needs from the recognition workers. The worker pool
 * (`src/workers/`) and the in-process runner both provide it; tests may
 * pass their own.
 */
import type { InputFile } from '../input/decode-pages.js';
import type { PageStage } from '../recognize/recognize-page.js';
import type { Score } from '../score/model.js';

export interface RecognitionEvents {
  /** Awaited before each page; rejecting stops the run with that error (a cancel). */
  beforePage(page: number): Promise<void>;
  onStage(page: number, stage: PageStage): void;
}

export interface RecognitionOutcome {
  score: Score;
  /** PNG of the first page. */
  thumbnail: Uint8Array;
  pageCount: number;
  modelVersion: string;
}

export interface RecognitionPool {
  recognize(request: { files: InputFile[]; dpi?: number }, events: RecognitionEvents, options?: { onStart?: () => void }): Promise<RecognitionOutcome>;
  countPages(file: InputFile): Promise<number>;
  renderPage(files: InputFile[], page: number, maxSide?: number): Promise<Uint8Array>;
  close(): Promise<void>;
}
