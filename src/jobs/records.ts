/**
 * What the job engine stores, beside the public resources: the job as the
 * service shows it plus the bookkeeping the service keeps out of sight
 * (files, charges, idempotency), results, library scores and tasks.
 */
import type { Score } from '../score/model.js';
import type { Job, LibraryScore, Task } from './types.js';

/** An uploaded file; its bytes are the blob `file:<job>:<index>`. */
export interface FileMeta {
  filename: string;
  mimeType: string;
  size: number;
  /** Pages it holds (1 for an image). */
  pages: number;
}

export interface JobRecord {
  job: Job;
  /** Creation order, for newest-first listing with a stable cursor. */
  seq: number;
  files: FileMeta[];
  idempotencyKey?: string;
  collection?: string;
  /** Credits charged at start and not yet reverted. */
  charged: number;
  /** `mainLanguage` from the details submission. */
  mainLanguage?: string;
  /** Times the job was found reading a page when a client opened the store: runs a crash cut short. */
  attempts?: number;
  /** The import task this job runs (hidden from the job list). */
  task?: string;
  /** Title given with a score import. */
  title?: string;
}

/** A finished recognition: the score before and after the user's review. */
export interface ResultRecord {
  /** The score as recognition assembled it. */
  recognized: Score;
  /** The score with details overrides applied; what exports are written from. */
  score: Score;
  modelVersion: string;
  /** Pages recognised. */
  pageCount: number;
}

export interface RevisionRecord {
  score: Score;
  creationDate: string;
  /** For recognised scores: the models that read them, written into their MusicXML. */
  modelVersion?: string;
}

export interface TaskRecord {
  task: Task;
  /** The OMR job an import task runs. */
  job?: string;
}

export interface StoreSchema {
  jobs: JobRecord;
  results: ResultRecord;
  blobs: Uint8Array;
  scores: LibraryScore;
  /** Keyed `<score>:<revision>`. */
  revisions: RevisionRecord;
  tasks: TaskRecord;
  meta: unknown;
}
