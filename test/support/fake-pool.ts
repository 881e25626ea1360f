/**
 * A recognition pool for job-engine tests: it "recognises" by reading a
 * committed MusicXML fixture, page by page through the real callbacks, and
 * lets a test hold any page open (to test cancels, queues and long-polls)
 * or make a run fail the way a decoder or a crashed worker would.
 */
import { readFileSync } from 'node:fs';
import { OmrError } from '../../src/errors.js';
import { encodePng } from '../../src/image/png-encode.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import type { InputFile } from '../../src/input/decode-pages.js';
import type { RecognitionEvents, RecognitionOutcome } from '../../src/workers/recognition-api.js';
import type { RecognitionPool } from '../../src/workers/pool.js';
import type { PageReport } from '../../src/recognize/page-report.js';

const FIXTURE = new URL('../fixtures/recognition/melody.musicxml', import.meta.url);

export interface FakePool extends RecognitionPool {
  /** Runs started so far, in order: the first file name of each. */
  started: string[];
  /** Pages currently held open, as `<file>#<page>`. */
  held: Set<string>;
  /** Lets the held page of a run go on. */
  release(key: string): void;
  /** Waits until a run reaches `<file>#<page>` (held or not). */
  reached(key: string): Promise<void>;
}

export interface FakePoolOptions {
  /** Pages to hold open until released, as `<first file name>#<page>`; `*#<page>` holds every run. */
  hold?: string[];
  /** Makes a run whose first file has this name fail with this error. */
  fail?: Record<string, OmrError>;
  /** Pages of each file; 1 unless listed by filename. */
  pages?: Record<string, number>;
  /**
   * Parts of the recognised score are named this; a printed instrument name
   * lets details resolve with high confidence. Default "Staff 1", as
   * recognition names a part it has no name for.
   */
  partName?: string;
  /** What recognition reports of each page (0-based over the run's pages); read upright unless listed. */
  pageReports?: Record<number, Partial<PageReport>>;
}

export function createFakePool(options: FakePoolOptions = {}): FakePool {
  const gates = new Map<string, () => void>();
  const arrivals = new Map<string, () => void>();
  const arrived = new Set<string>();
  const held = new Set<string>();
  const started: string[] = [];
  const pagesOf = (file: InputFile) => options.pages?.[file.filename] ?? 1;
  let closed = false;
  const pool: FakePool = {
    started,
    held,
    release(key) {
      gates.get(key)?.();
    },
    reached(key) {
      return arrived.has(key) ? Promise.resolve() : new Promise((resolve) => arrivals.set(key, resolve));
    },
    async recognize(request, events: RecognitionEvents, opts): Promise<RecognitionOutcome> {
      if (closed) throw new OmrError('INTERNAL_ERROR', 'pool closed');
      const name = request.files[0]!.filename;
      started.push(name);
      opts?.onStart?.();
      const failure = options.fail?.[name];
      const total = request.files.reduce((n, f) => n + pagesOf(f), 0);
      for (let page = 0; page < total; page++) {
        await events.beforePage(page);
        const key = `${name}#${page}`;
        arrived.add(key);
        arrivals.get(key)?.();
        events.onStage(page, 'prepared');
        if (options.hold?.includes(key) || options.hold?.includes(`*#${page}`)) {
          held.add(key);
          await new Promise<void>((resolve) => gates.set(key, resolve));
          held.delete(key);
        }
        if (failure) throw failure;
        for (const stage of ['staves', 'symbols', 'assembled'] as const) events.onStage(page, stage);
      }
      const score = readMusicXml(readFileSync(FIXTURE));
      score.credits = {};
      for (const part of score.parts) part.name = options.partName ?? 'Staff 1';
      return { score, thumbnail: encodePng({ width: 4, height: 2, channels: 1, data: new Uint8Array(8).fill(255) }), pageCount: total, pages: Array.from({ length: total }, (_, page): PageReport => ({ page, turned: 0, confidence: 1, ...options.pageReports?.[page] })), modelVersion: 'fake-1' };
    },
    async countPages(file) {
      return pagesOf(file);
    },
    async renderPage() {
      return encodePng({ width: 2, height: 2, channels: 1, data: new Uint8Array([0, 255, 255, 0]) });
    },
    async close() {
      closed = true;
      for (const release of gates.values()) release();
    },
  };
  return pool;
}

/** A minimal valid PNG with a name, as a page to upload. */
export function pngPage(filename: string): { file: Uint8Array; filename: string } {
  return { file: encodePng({ width: 8, height: 8, channels: 1, data: new Uint8Array(64).fill(200) }), filename };
}
