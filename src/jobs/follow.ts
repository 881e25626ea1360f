/**
 * Conveniences on top of the client interface, for any client (local or
 * hosted): follow a job's snapshots as an async iterator, wait for it to
 * settle, or run a whole job in one call. They only long-poll `getJob`, so
 * they behave the same against either.
 */
import { OmrError } from '../errors.js';
import type { ScoreSightClient } from './client.js';
import type { CreateJobBody, Job } from './types.js';

export interface FollowOptions {
  /** Stops following (the job itself goes on; cancel it with `cancelJob`). */
  signal?: AbortSignal;
  /** Long-poll wait per request, seconds (default 25, the most the service allows). */
  wait?: number;
}

/** Whether a job needs nothing more from its pipeline: finished, or waiting for the caller. */
export function isSettled(job: Job): boolean {
  return job.status === 'done' || job.status === 'error' || job.status === 'canceled' || job.status === 'awaitingInput';
}

/**
 * Yields the job each time it changes — status, step or progress — ending
 * after the snapshot in which it settles (done, error, canceled, or
 * awaitingInput: answer the step, then follow again).
 */
export async function* followJob(client: ScoreSightClient, jobId: string, options: FollowOptions = {}): AsyncGenerator<Job, void, undefined> {
  let previous = '';
  let wait = 0;
  for (;;) {
    if (options.signal?.aborted) throw new OmrError('ABORTED', 'Stopped following the job: the signal was aborted. The job itself goes on.');
    const job = await client.getJob(jobId, { wait, ...(options.signal ? { signal: options.signal } : {}) });
    wait = options.wait ?? 25;
    const snapshot = JSON.stringify([job.status, job.currentStep, job.progress]);
    if (snapshot !== previous) {
      previous = snapshot;
      yield job;
    }
    if (isSettled(job)) return;
  }
}

/** Resolves with the job once it settles, calling `onUpdate` with every snapshot on the way. */
export async function waitForJob(client: ScoreSightClient, jobId: string, options: FollowOptions & { onUpdate?: (job: Job) => void } = {}): Promise<Job> {
  let last: Job | undefined;
  for await (const job of followJob(client, jobId, options)) {
    last = job;
    options.onUpdate?.(job);
  }
  return last!;
}

/** Creates and starts a job with its files in one call, then waits for it to settle. */
export async function runJob(
  client: ScoreSightClient,
  body: CreateJobBody & { files: NonNullable<CreateJobBody['files']> },
  options: FollowOptions & { onUpdate?: (job: Job) => void } = {},
): Promise<Job> {
  const job = await client.createJob({ ...body, autoStart: true });
  return waitForJob(client, job.id, options);
}
