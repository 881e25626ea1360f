/**
 * The one client interface: every operation of the service's `/v2`
 * interface as a method. The local engine (`createClient`) and the hosted
 * service adapter implement it alike, so switching is one line.
 * Failures reject with `OmrError` (`code`, `status`, `message`).
 *
 * Every call takes an optional `signal` as its last argument. The hosted
 * adapter aborts the request with it (rejecting with `ABORTED`); the local
 * engine's calls are short in-process steps and ignore it, except the
 * long-poll of `getJob`, which it ends early on both.
 */
import type {
  AddFileResult,
  Capabilities,
  CreateJobBody,
  DetailsSubmission,
  Download,
  ExportFormat,
  ImportScoreBody,
  ImportScoreResult,
  Job,
  JobFileInput,
  JobPage,
  LibraryScore,
  ListJobsQuery,
  Task,
} from './types.js';

/** Per-call options every method accepts as its last argument. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface ScoreSightClient {
  getCapabilities(options?: CallOptions): Promise<Capabilities>;
  /** A draft job; with `files` and `autoStart`, a started one. */
  createJob(body?: CreateJobBody, options?: CallOptions): Promise<Job>;
  addJobFile(jobId: string, file: JobFileInput, options?: CallOptions): Promise<AddFileResult>;
  startJob(jobId: string, options?: CallOptions): Promise<Job>;
  /**
   * With `wait` (0–25 s), resolves as soon as the job changes or the wait
   * elapses; an aborted `signal` ends the wait early with the job as it is.
   */
  getJob(jobId: string, options?: { wait?: number; signal?: AbortSignal }): Promise<Job>;
  /** Newest first; `nextCursor` fetches the next page. */
  listJobs(query?: ListJobsQuery, options?: CallOptions): Promise<JobPage>;
  submitJobStep(jobId: string, step: string, body: DetailsSubmission, options?: CallOptions): Promise<Job>;
  cancelJob(jobId: string, options?: CallOptions): Promise<Job>;
  /** The input page at a 0-based index over all files, as an image. */
  getJobFile(jobId: string, index: number, options?: CallOptions): Promise<Download>;
  /**
   * One of the formats the spec lists; `result.exports` says which a job
   * offers (a job without a thumbnail has no `thumbnail.png`). A format the
   * service adds later needs a cast until this type lists it; at run time an
   * unknown one is `OMR_FORMAT_NOT_AVAILABLE`.
   */
  exportJob(jobId: string, format: ExportFormat, options?: CallOptions): Promise<Download>;
  deleteJob(jobId: string, options?: CallOptions): Promise<Job>;
  importScore(body: ImportScoreBody, options?: CallOptions): Promise<ImportScoreResult>;
  getTask(taskId: string, options?: CallOptions): Promise<Task>;
  getScore(scoreId: string, options?: CallOptions): Promise<LibraryScore>;
  /** Starts an export of a library score revision; poll the task and download `result.url`. */
  exportScore(scoreId: string, revision: string, format: string, options?: CallOptions): Promise<Task>;
  close(): Promise<void>;
}
