/**
 * The OMR job's state machine, as the service's transition table states it,
 * written as one pure function: `transition(state, event)` returns the next
 * state or throws the `OmrError` the service would answer with. It reads no
 * clock and touches no storage, so every row of the table is one unit test,
 * and the engine around it only stores states and runs the pipeline.
 *
 * Credits are part of the state (`charged`): charged at start, back to 0
 * when a job fails or is canceled. The engine settles the account with the
 * difference, so a revert can never be forgotten on one path.
 */
import { OmrError } from '../errors.js';
import type { DetailsStepData, Job, JobOutput, JobProgress, JobResult } from './types.js';

export interface JobState {
  job: Job;
  /** Credits charged and not reverted. */
  charged: number;
}

export type JobEvent =
  /** A file is added (only drafts take files). */
  | { type: 'addFile' }
  /** `start`: the files hold `pages` pages; charges one credit per page and queues the job. */
  | { type: 'start'; pages: number }
  /** Live progress of a running job. */
  | { type: 'progress'; progress: JobProgress }
  /** The pipeline reached a declared step with detections to review. */
  | { type: 'awaitInput'; data: DetailsStepData }
  /** The caller answered a step: `step` from the path, `bodyStep` from the body. */
  | { type: 'submitStep'; step: string; bodyStep: unknown }
  | { type: 'finish'; result: JobResult }
  | { type: 'fail'; code: string; message: string }
  /**
   * A cancel; `runStopped` when the pipeline itself has stopped for a cancel
   * asked for while a page was read: at the next page boundary, or at once
   * by ending the worker that read it.
   */
  | { type: 'cancel'; runStopped?: boolean }
  /**
   * Retention passed or the caller deleted the job: its files and results
   * are erased. `sweep` for the retention pass, which also erases drafts
   * past their deadline (their uploads); a caller cannot delete a draft.
   */
  | { type: 'erase'; now: string; sweep?: boolean }
  /** After a restart: a job found running is queued again from the start of its pipeline stage. */
  | { type: 'requeue' };

export const TERMINAL_STATUSES: readonly string[] = ['done', 'error', 'canceled'];

export function isTerminal(job: Job): boolean {
  return TERMINAL_STATUSES.includes(job.status);
}

/** Progress keys during which a worker is recognising a page: a cancel then must wait. */
const RECOGNIZING_KEYS: readonly string[] = ['OMR_DETECTING_STAVES', 'OMR_READING_NOTES', 'OMR_PROCESSING_PAGE'];

export function isRecognizing(job: Job): boolean {
  return job.status === 'processing' && !!job.progress && RECOGNIZING_KEYS.includes(job.progress.key);
}

export const QUEUED_PROGRESS: JobProgress = Object.freeze({ percent: 0, text: 'Waiting for a free worker', key: 'OMR_QUEUED' });

export interface NewJobOptions {
  id: string;
  now: string;
  output?: JobOutput;
  interactiveSteps?: string[];
  locales?: string[];
  /** Retention window of `musicxml` jobs, in days. */
  retentionDays: number;
}

/** A new job, in `draft`. `retention.expiryDate` is fixed here, once. */
export function createJobState(options: NewJobOptions): JobState {
  const output = options.output ?? 'library';
  const job: Job = {
    id: options.id,
    status: 'draft',
    output,
    interactiveSteps: [...(options.interactiveSteps ?? [])],
    locales: [...(options.locales ?? [])],
    creationDate: options.now,
  };
  if (output === 'musicxml') {
    job.retention = { expiryDate: new Date(Date.parse(options.now) + options.retentionDays * 86_400_000).toISOString() };
  }
  return { job, charged: 0 };
}

export function transition(state: JobState, event: JobEvent): JobState {
  const { job } = state;
  const status = job.status;
  switch (event.type) {
    case 'addFile':
      if (status !== 'draft') throw notDraft(job, 'add files to');
      if (job.retention?.expiredDate) throw expiredDraft(job);
      return state;

    case 'start':
      if (status !== 'draft') throw notDraft(job, 'start');
      if (job.retention?.expiredDate) throw expiredDraft(job);
      if (event.pages < 1) throw new OmrError('OMR_JOB_NO_FILES', `Job ${job.id} has no files: add at least one page image or PDF before starting it.`);
      return { job: { ...job, status: 'processing', estimatedCredits: event.pages, progress: QUEUED_PROGRESS }, charged: event.pages };

    case 'progress':
      if (status !== 'processing') throw unexpected(job, event.type);
      return { ...state, job: { ...job, progress: event.progress } };

    case 'awaitInput': {
      if (status !== 'processing') throw unexpected(job, event.type);
      const { progress: _progress, ...rest } = job;
      return { ...state, job: { ...rest, status: 'awaitingInput', currentStep: event.data.step, pendingStep: { step: event.data.step, data: event.data } } };
    }

    case 'submitStep': {
      if (event.bodyStep !== event.step) {
        throw new OmrError('OMR_STEP_MISMATCH', `The body's step (${JSON.stringify(event.bodyStep)}) must match the step in the path (${event.step}).`);
      }
      if (status === 'canceled' || status === 'error') {
        throw new OmrError('OMR_JOB_NOT_RESUMABLE', `Job ${job.id} is ${status} and can no longer resume.`);
      }
      if (status !== 'awaitingInput' || job.currentStep !== event.step) {
        const awaited = status === 'awaitingInput' ? `it awaits ${job.currentStep}` : `it is ${status}`;
        throw new OmrError('OMR_NOT_AWAITING_STEP', `Job ${job.id} is not awaiting the ${event.step} step: ${awaited}.`);
      }
      const { currentStep: _step, pendingStep: _pending, ...rest } = job;
      return { ...state, job: { ...rest, status: 'processing', progress: { percent: 90, text: 'Assembling the score', key: 'OMR_ASSEMBLING' } } };
    }

    case 'finish': {
      if (status !== 'processing') throw unexpected(job, event.type);
      const { progress: _progress, ...rest } = job;
      return { ...state, job: { ...rest, status: 'done', result: event.result } };
    }

    case 'fail': {
      if (status !== 'processing' && status !== 'awaitingInput') throw unexpected(job, event.type);
      const { progress: _progress, currentStep: _step, pendingStep: _pending, ...rest } = job;
      return { job: { ...rest, status: 'error', errorCode: event.code, errorMessage: event.message }, charged: 0 };
    }

    case 'cancel': {
      if (isTerminal(job)) return state; // harmless no-op
      if (isRecognizing(job) && !event.runStopped) {
        throw new OmrError(
          'OMR_JOB_NOT_CANCELLABLE',
          `Job ${job.id} is recognising a page; it stops at the end of that page. Poll the job and retry the cancel.`,
        );
      }
      const { progress: _progress, currentStep: _step, pendingStep: _pending, ...rest } = job;
      return { job: { ...rest, status: 'canceled' }, charged: 0 };
    }

    case 'erase': {
      const expiringDraft = event.sweep === true && status === 'draft';
      if (!isTerminal(job) && !expiringDraft) throw new OmrError('OMR_JOB_IN_PROGRESS', `Job ${job.id} is ${status}; only a finished job can be deleted.`);
      if (job.output !== 'musicxml' || !job.retention) {
        throw new OmrError('OMR_JOB_NOT_EXPIRABLE', `Job ${job.id} was imported into the library; delete the score there instead.`);
      }
      if (job.retention.expiredDate) return state; // idempotent
      return { ...state, job: { ...job, retention: { ...job.retention, expiredDate: event.now } } };
    }

    case 'requeue':
      if (status !== 'processing') throw unexpected(job, event.type);
      return { ...state, job: { ...job, progress: QUEUED_PROGRESS } };
  }
}

/** Downloads need a `done` job whose results still exist. */
export function assertDownloadable(job: Job): void {
  if (job.retention?.expiredDate) {
    throw new OmrError('OMR_JOB_EXPIRED', `Job ${job.id}'s files and results were erased on ${job.retention.expiredDate}.`);
  }
  if (job.status !== 'done') {
    throw new OmrError('OMR_JOB_NOT_DONE', `Job ${job.id} is ${job.status}; its results can be downloaded once it is done.`);
  }
}

function expiredDraft(job: Job): OmrError {
  return new OmrError('OMR_JOB_EXPIRED', `Job ${job.id} was a draft past its retention: its uploads were erased on ${job.retention?.expiredDate}. Create a new job.`);
}

function notDraft(job: Job, action: string): OmrError {
  return new OmrError('OMR_JOB_NOT_DRAFT', `Cannot ${action} job ${job.id}: it is ${job.status}, and only a draft job can be changed.`);
}

/** An engine event in a state where the pipeline cannot produce it: a bug, not a caller's mistake. */
function unexpected(job: Job, event: string): OmrError {
  return new OmrError('INTERNAL_ERROR', `Job ${job.id}: event ${event} cannot happen while ${job.status}.`, { status: 500 });
}
