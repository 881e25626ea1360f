/**
 * The service's transition table, one test per row, and each error the
 * table's states can produce.
 */
import { describe, expect, it } from 'vitest';
import { OmrError } from '../../src/errors.js';
import { QUEUED_PROGRESS, assertDownloadable, createJobState, isRecognizing, transition, type JobEvent, type JobState } from '../../src/jobs/job-machine.js';
import type { DetailsStepData } from '../../src/jobs/types.js';

const NOW = '2026-11-22T10:00:00.000Z';
const details: DetailsStepData = {
  step: 'details',
  title: 'Sonata',
  instruments: [{ index: 0, partName: 'Piano', instrumentId: 'keyboard.piano', instrumentName: 'Piano', midiProgram: 0, resolvedConfidence: 'medium' }],
};

const draft = (output: 'library' | 'musicxml' = 'musicxml') => createJobState({ id: 'j1', now: NOW, output, retentionDays: 30, interactiveSteps: ['details'] });
const run = (state: JobState, ...events: JobEvent[]) => events.reduce(transition, state);
const queued = (output?: 'library' | 'musicxml') => run(draft(output), { type: 'start', pages: 3 });
const reading = () => run(queued(), { type: 'progress', progress: { percent: 20, text: 'Reading notes on page 1 of 3', key: 'OMR_READING_NOTES', current: 1, total: 3 } });
const awaiting = () => run(reading(), { type: 'awaitInput', data: details });
const done = (output?: 'library' | 'musicxml') => run(queued(output), { type: 'finish', result: { exports: ['musicxml'] } });
const failed = () => run(reading(), { type: 'fail', code: 'CORRUPTED_FILE', message: 'bad' });
const canceled = () => run(draft(), { type: 'cancel' });

function rejects(state: JobState, event: JobEvent, code: string, status: number): void {
  try {
    transition(state, event);
  } catch (err) {
    expect(err).toBeInstanceOf(OmrError);
    expect((err as OmrError).code).toBe(code);
    expect((err as OmrError).status).toBe(status);
    return;
  }
  throw new Error(`expected ${code}`);
}

describe('job creation', () => {
  it('POST /omr/jobs without files: draft, nothing charged; musicxml jobs get their expiry fixed at creation', () => {
    const state = draft();
    expect(state.job).toMatchObject({ id: 'j1', status: 'draft', output: 'musicxml', creationDate: NOW, retention: { expiryDate: '2026-12-22T10:00:00.000Z' } });
    expect(state.charged).toBe(0);
    expect(state.job.estimatedCredits).toBeUndefined();
  });

  it('library jobs have no retention object', () => {
    expect(draft('library').job.retention).toBeUndefined();
    expect(createJobState({ id: 'x', now: NOW, retentionDays: 30 }).job.output).toBe('library');
  });
});

describe('transition table', () => {
  it('draft → start → processing: credits charged, estimatedCredits set, job queued', () => {
    const state = queued();
    expect(state.job.status).toBe('processing');
    expect(state.job.estimatedCredits).toBe(3);
    expect(state.charged).toBe(3);
    expect(state.job.progress).toEqual(QUEUED_PROGRESS);
  });

  it('processing → declared step with detections to review → awaitingInput, currentStep and pendingStep set', () => {
    const state = awaiting();
    expect(state.job).toMatchObject({ status: 'awaitingInput', currentStep: 'details', pendingStep: { step: 'details', data: details } });
    expect(state.job.progress).toBeUndefined();
  });

  it('processing → pipeline finishes → done with result', () => {
    const state = done();
    expect(state.job).toMatchObject({ status: 'done', result: { exports: ['musicxml'] } });
    expect(state.job.progress).toBeUndefined();
    expect(state.charged).toBe(3);
  });

  it('processing → pipeline fails → error with errorCode and errorMessage; credits reverted', () => {
    const state = failed();
    expect(state.job).toMatchObject({ status: 'error', errorCode: 'CORRUPTED_FILE', errorMessage: 'bad' });
    expect(state.charged).toBe(0);
  });

  it('awaitingInput → step submitted → processing, only the finishing stages left', () => {
    const state = run(awaiting(), { type: 'submitStep', step: 'details', bodyStep: 'details' });
    expect(state.job.status).toBe('processing');
    expect(state.job.currentStep).toBeUndefined();
    expect(state.job.pendingStep).toBeUndefined();
    expect(state.job.progress?.key).toBe('OMR_ASSEMBLING');
  });

  it.each([
    ['draft', draft],
    ['queued processing', queued],
    ['awaitingInput', awaiting],
  ])('%s → cancel → canceled, credits reversed', (_name, make) => {
    const state = run(make(), { type: 'cancel' });
    expect(state.job.status).toBe('canceled');
    expect(state.charged).toBe(0);
    expect(state.job.progress).toBeUndefined();
    expect(state.job.pendingStep).toBeUndefined();
  });

  it.each([
    ['done', () => done()],
    ['error', failed],
    ['canceled', canceled],
  ])('%s → cancel → unchanged (no-op)', (_name, make) => {
    const state = make();
    expect(transition(state, { type: 'cancel' })).toBe(state);
  });

  it('done musicxml job → retention passes or DELETE → status kept, expiredDate recorded; idempotent', () => {
    const later = '2026-12-23T00:00:00.000Z';
    const state = run(done(), { type: 'erase', now: later });
    expect(state.job.status).toBe('done');
    expect(state.job.retention).toEqual({ expiryDate: '2026-12-22T10:00:00.000Z', expiredDate: later });
    expect(transition(state, { type: 'erase', now: '2027-01-01T00:00:00.000Z' })).toBe(state);
  });

  it('the retention pass erases a musicxml draft past its deadline: status kept, and it can no longer take files or start', () => {
    const later = '2026-12-23T00:00:00.000Z';
    const state = run(draft(), { type: 'erase', now: later, sweep: true });
    expect(state.job).toMatchObject({ status: 'draft', retention: { expiredDate: later } });
    rejects(state, { type: 'addFile' }, 'OMR_JOB_EXPIRED', 409);
    rejects(state, { type: 'start', pages: 1 }, 'OMR_JOB_EXPIRED', 409);
    // The pass never erases a job still running.
    for (const running of [queued(), awaiting()]) rejects(running, { type: 'erase', now: later, sweep: true }, 'OMR_JOB_IN_PROGRESS', 409);
  });

  it('a restart finds a running job and queues it again', () => {
    const state = run(reading(), { type: 'requeue' });
    expect(state.job).toMatchObject({ status: 'processing', progress: QUEUED_PROGRESS });
  });
});

describe('errors of the table', () => {
  it('OMR_JOB_NOT_DRAFT: adding a file to, or starting, a job that is not a draft', () => {
    for (const state of [queued(), awaiting(), done(), failed(), canceled()]) {
      rejects(state, { type: 'addFile' }, 'OMR_JOB_NOT_DRAFT', 400);
      rejects(state, { type: 'start', pages: 1 }, 'OMR_JOB_NOT_DRAFT', 400);
    }
    expect(transition(draft(), { type: 'addFile' }).job.status).toBe('draft');
  });

  it('start with no files → 400', () => rejects(draft(), { type: 'start', pages: 0 }, 'OMR_JOB_NO_FILES', 400));

  it('OMR_STEP_MISMATCH: body step differs from the path step (checked first)', () => {
    rejects(awaiting(), { type: 'submitStep', step: 'details', bodyStep: 'other' }, 'OMR_STEP_MISMATCH', 400);
    rejects(awaiting(), { type: 'submitStep', step: 'details', bodyStep: undefined }, 'OMR_STEP_MISMATCH', 400);
    rejects(done(), { type: 'submitStep', step: 'details', bodyStep: 'x' }, 'OMR_STEP_MISMATCH', 400);
  });

  it('OMR_NOT_AWAITING_STEP: a step the job is not awaiting', () => {
    for (const state of [draft(), queued(), done()]) rejects(state, { type: 'submitStep', step: 'details', bodyStep: 'details' }, 'OMR_NOT_AWAITING_STEP', 409);
    rejects(awaiting(), { type: 'submitStep', step: 'other', bodyStep: 'other' }, 'OMR_NOT_AWAITING_STEP', 409);
  });

  it('OMR_JOB_NOT_RESUMABLE: the job can no longer resume (canceled concurrently, or failed)', () => {
    rejects(run(awaiting(), { type: 'cancel' }), { type: 'submitStep', step: 'details', bodyStep: 'details' }, 'OMR_JOB_NOT_RESUMABLE', 409);
    rejects(failed(), { type: 'submitStep', step: 'details', bodyStep: 'details' }, 'OMR_JOB_NOT_RESUMABLE', 409);
  });

  it('OMR_JOB_NOT_CANCELLABLE: cancel while a page is being recognised', () => {
    const state = reading();
    expect(isRecognizing(state.job)).toBe(true);
    rejects(state, { type: 'cancel' }, 'OMR_JOB_NOT_CANCELLABLE', 409);
    // The pipeline stops for the cancel it refused (at the next page, or by ending its worker): then the job is canceled.
    expect(run(state, { type: 'cancel', runStopped: true })).toMatchObject({ job: { status: 'canceled' }, charged: 0 });
    const assembling = run(queued(), { type: 'progress', progress: { percent: 90, text: 'Assembling', key: 'OMR_ASSEMBLING' } });
    expect(run(assembling, { type: 'cancel' }).job.status).toBe('canceled');
  });

  it('OMR_JOB_IN_PROGRESS: delete a job that has not finished', () => {
    for (const state of [draft(), queued(), awaiting()]) rejects(state, { type: 'erase', now: NOW }, 'OMR_JOB_IN_PROGRESS', 409);
  });

  it('OMR_JOB_NOT_EXPIRABLE: delete a job imported into the library', () => {
    rejects(done('library'), { type: 'erase', now: NOW }, 'OMR_JOB_NOT_EXPIRABLE', 409);
  });

  it('OMR_JOB_NOT_DONE and OMR_JOB_EXPIRED for downloads', () => {
    for (const state of [draft(), queued(), awaiting(), failed(), canceled()]) {
      expect(() => assertDownloadable(state.job)).toThrow(expect.objectContaining({ code: 'OMR_JOB_NOT_DONE', status: 409 }));
    }
    expect(() => assertDownloadable(done().job)).not.toThrow();
    const erased = run(done(), { type: 'erase', now: NOW });
    expect(() => assertDownloadable(erased.job)).toThrow(expect.objectContaining({ code: 'OMR_JOB_EXPIRED', status: 409 }));
  });

  it('events the pipeline cannot produce in a state are internal errors, never silent changes', () => {
    rejects(draft(), { type: 'finish', result: { exports: [] } }, 'INTERNAL_ERROR', 500);
    rejects(done(), { type: 'progress', progress: QUEUED_PROGRESS }, 'INTERNAL_ERROR', 500);
    rejects(canceled(), { type: 'fail', code: 'X', message: 'x' }, 'INTERNAL_ERROR', 500);
  });

  it('transitions never mutate the state they are given', () => {
    const state = awaiting();
    const copy = structuredClone(state);
    run(state, { type: 'submitStep', step: 'details', bodyStep: 'details' }, { type: 'finish', result: { exports: [] } }, { type: 'erase', now: NOW });
    expect(state).toEqual(copy);
  });
});
