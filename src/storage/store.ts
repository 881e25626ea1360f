/**
 * Where the job engine keeps everything that must outlive a page reload or a
 * process restart: job records, uploaded files, results, library scores and
 * tasks. One small key–value interface with three implementations —
 * IndexedDB in browsers, a directory in Node, memory for tests and
 * throwaway clients — so the engine never knows which one it runs on.
 *
 * Values are plain data (what `structuredClone` and JSON both carry);
 * binary data lives only in the `blobs` collection, as `Uint8Array`.
 */
import type { StoreSchema } from '../jobs/records.js';

export const COLLECTIONS = ['jobs', 'results', 'blobs', 'scores', 'revisions', 'tasks', 'meta'] as const;
export type Collection = (typeof COLLECTIONS)[number];

export interface Store {
  /**
   * A record that can no longer be read (a file truncated by a crash) reads
   * as missing: the store moves it aside, as `quarantine` does, and reports
   * it. So a key `keys` listed that then reads as undefined was damaged.
   */
  get<C extends Collection>(collection: C, key: string): Promise<StoreSchema[C] | undefined>;
  /** Writes atomically: after a crash a key holds either the old or the new value, never half of one. */
  put<C extends Collection>(collection: C, key: string, value: StoreSchema[C]): Promise<void>;
  /**
   * Writes a value given as its JSON text, as `put` writes the value it parses to. A large value
   * serialised on another thread (a score read in the parse worker) then costs this one no more than
   * the write: the file store writes the text as it is.
   */
  putJson(collection: Exclude<Collection, 'blobs'>, key: string, json: string): Promise<void>;
  /** Deleting a missing key is not an error. */
  delete(collection: Collection, key: string): Promise<void>;
  /** Keys of a collection, optionally only those starting with `prefix`, in ascending order. */
  keys(collection: Collection, prefix?: string): Promise<string[]>;
  /** Every value of a collection, in ascending key order. */
  values<C extends Collection>(collection: C): Promise<StoreSchema[C][]>;
  /**
   * Moves a damaged record aside: `get`, `keys` and `values` no longer see
   * it, but it is kept, never deleted, for a person to inspect or restore.
   * Quarantining a missing key is not an error.
   */
  quarantine(collection: Collection, key: string): Promise<void>;
  /** Releases the store (closes the database); later calls reject. */
  close(): Promise<void>;
}
