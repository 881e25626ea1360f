/**
 * The one client interface: every operation of the service's `/v2`
 * interface as a method. The local engine (`createClient`) and the hosted
 * service adapter implement it alike, so switching is one line.
 * Failures reject with `OmrError` (`code`, `status`, `message`).
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

export interface ScoreSightClient {
  getCapabilities(): Promise<Capabilities>;
  /** A draft job; with `files` and `autoStart`, a started one. */
  createJob(body?: CreateJobBody): Promise<Job>;
  addJobFile(jobId: string, file: JobFileInput): Promise<AddFileResult>;
  startJob(jobId: string): Promise<Job>;
  /**
   * With `wait` (0–25 s), resolves as soon as the job changes or the wait
   * elapses; an aborted `signal` ends the wait early with the job as it is.
   */
  getJob(jobId: string, options?: { wait?: number; signal?: AbortSignal }): Promise<Job>;
  /** Newest first; `nextCursor` fetches the next page. */
  listJobs(query?: ListJobsQuery): Promise<JobPage>;
  submitJobStep(jobId: string, step: string, body: DetailsSubmission): Promise<Job>;
  cancelJob(jobId: string): Promise<Job>;
  /** The input page at a 0-based index over all files, as an image. */
  getJobFile(jobId: string, index: number): Promise<Download>;
  exportJob(jobId: string, format: ExportFormat | (string & {})): Promise<Download>;
  deleteJob(jobId: string): Promise<Job>;
  importScore(body: ImportScoreBody): Promise<ImportScoreResult>;
  getTask(taskId: string): Promise<Task>;
  getScore(scoreId: string): Promise<LibraryScore>;
  /** Starts an export of a library score revision; poll the task and download `result.url`. */
  exportScore(scoreId: string, revision: string, format: string): Promise<Task>;
  close(): Promise<void>;
}
