/**
 * What the job engine stores, beside the public resources: the job as the
 * service shows it plus the bookkeeping the service keeps out of sight
 * (files, charges, idempotency), results, library scores and tasks.
 */
import type { Score } from '../score/model.js';
import type { Job, LibraryScore, Task } from './types.js';
import type { PageReport } from '../recognize/page-report.js';

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
  /** What became of each page (absent in results stored before pages were reported). */
  pages?: PageReport[];
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

/**
 * What is wrong with a stored job record, or undefined when it has the
 * shape the engine relies on. Checked as records load, so one record
 * written by another version (or by hand) is set aside instead of stopping
 * the engine with a TypeError.
 */
export function jobRecordProblem(value: unknown, key: string): string | undefined {
  if (!isObject(value)) return 'it is not an object';
  const { job, seq, files, charged } = value;
  if (!isObject(job)) return 'it has no job object';
  if (job.id !== key) return `its job id ${JSON.stringify(job.id)} is not its key`;
  for (const field of ['status', 'output', 'creationDate'] as const) {
    if (typeof job[field] !== 'string') return `job.${field} is not a string`;
  }
  if (!Array.isArray(job.interactiveSteps) || !Array.isArray(job.locales)) return 'job.interactiveSteps or job.locales is not an array';
  if (typeof seq !== 'number' || !Number.isFinite(seq)) return 'seq is not a number';
  if (typeof charged !== 'number' || !Number.isFinite(charged) || charged < 0) return 'charged is not a count of credits';
  if (!Array.isArray(files)) return 'files is not an array';
  for (const [index, file] of files.entries()) {
    if (!isObject(file) || typeof file.pages !== 'number' || typeof file.size !== 'number' || typeof file.filename !== 'string' || typeof file.mimeType !== 'string') {
      return `files[${index}] is not a file description`;
    }
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
