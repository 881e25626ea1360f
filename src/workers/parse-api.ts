/**
 * The API the parse worker exposes through comlink: read an uploaded score
 * file (MusicXML, MXL, MIDI) into the score model, and count the pages of a
 * file to recognise. Both take time and memory in proportion to what the
 * upload holds, not to its size on the wire (an .mxl inflates, a PDF's page
 * tree is walked), so a server runs them in a worker of their own instead of
 * on the thread that answers every request (`parse-pool.ts`).
 *
 * Everything crossing it is structured-clonable: bytes in, the score as its
 * JSON text or a number out. The score comes back as text, serialised in the
 * worker, because the calling thread only stores it: a symphony's score
 * object takes that thread some half a second to receive and as long again
 * to serialise, its text a copy. Failures arrive as `OmrError` with their
 * code (`error-transfer.ts`). The worker gets its own copy of the bytes.
 */
import type { ScoreSightEnv } from '../env.js';
import type { InputFile } from '../input/decode-pages.js';
/** The kinds of score file an import reads. */
export type ScoreFileKind = 'musicxml' | 'mxl' | 'midi';

export interface ScoreFile {
  kind: ScoreFileKind;
  data: Uint8Array;
}

/** A score read from a file, as the JSON text of its `Score`, with its title. */
export interface ScoreText {
  /** The score's title (`credits.title`); empty where it has none. */
  title: string;
  json: string;
}

export interface ReadScoreOptions {
  /** Replaces the title the file gives (or lacks). */
  title?: string;
}

export interface ParseApi {
  /**
   * The score a file holds. Fails as the readers do: `INVALID_MUSICXML`,
   * `CORRUPTED_FILE`, `FILE_TOO_LARGE` beyond their limits.
   */
  readScore(file: ScoreFile, options?: ReadScoreOptions): Promise<ScoreText>;
  /**
   * Pages a file to recognise has, read from its structure without decoding
   * any (`countPages` in `decode-pages.ts`), failing with the decoder's error.
   */
  countPages(file: InputFile): Promise<number>;
  /** Sets asset locations: a worker has its own module instance of `env`, so it is given the main thread's values. */
  configure(values: Partial<ScoreSightEnv>): void;
}

/** Reads uploads; every failure is an `OmrError`. The caller keeps its bytes: a worker gets a copy. */
export interface ScoreParser {
  /** The score a MusicXML, MXL or MIDI file holds, as JSON text. */
  readScore(file: ScoreFile, options?: ReadScoreOptions): Promise<ScoreText>;
  /** Pages a file to recognise has (`countPages` in `decode-pages.ts`). */
  countPages(file: InputFile): Promise<number>;
  /** Ends the parser and its worker, if it has one; calls queued or running are rejected, and so are later ones. */
  close(): Promise<void>;
}
