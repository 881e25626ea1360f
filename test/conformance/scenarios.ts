/**
 * One conformance suite for every implementation of the client interface:
 * the local engine and the hosted-service adapter talking to the
 * self-hosted server must answer each scenario of the spec alike —
 * resources, states, error codes and statuses. `local.test.ts` and
 * `remote.test.ts` run it; auth, scopes and rate limits only exist over
 * HTTP, so those scenarios run for remote targets only.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { OmrError } from '../../src/errors.js';
import type { ScoreSightClient } from '../../src/jobs/client.js';
import { followJob, runJob } from '../../src/jobs/follow.js';
import type { LocalClientOptions } from '../../src/jobs/local-client.js';
import type { Job, Task } from '../../src/jobs/types.js';
import type { RemoteClient } from '../../src/remote/remote-client.js';
import type { FakePool, FakePoolOptions } from '../support/fake-pool.js';
import { pngPage } from '../support/fake-pool.js';
import { heldDeadlines } from '../support/held-deadlines.js';
import { rejection } from '../support/rejection.js';

export interface TargetOptions {
  /** How the fake recognition behaves: pages held open, failures. */
  pool?: FakePoolOptions;
  /** Settings of the engine behind the clients (each account gets the same). */
  engine?: Pick<LocalClientOptions, 'credits' | 'maxPages' | 'maxParallelJobs' | 'retentionDays' | 'longPollTimer'>;
}

/** HTTP-only handles: clients with other tokens. */
export interface RemoteExtras {
  /** No token at all. */
  anonymous: RemoteClient;
  /** A token the server does not know. */
  unknownToken: RemoteClient;
  /** Personal token without the `omr` scope. */
  personalWithoutOmr: RemoteClient;
  /** Personal token with `omr` only (personal tokens need no other scope). */
  personalOmrOnly: RemoteClient;
  /** OAuth token with `omr` only. */
  oauthOmrOnly: RemoteClient;
  /** OAuth token with `omr` and `scores`, not `tasks.readonly`. */
  oauthWithoutTasks: RemoteClient;
  /** An account allowed `limitedTo` requests per window. */
  limited: RemoteClient;
  /** The same account and token, waiting out the limit within a budget. */
  limitedPatient: RemoteClient;
  limitedTo: number;
  /** The rate-limit window of the server, ms. */
  windowMs: number;
}

export interface Target {
  client: ScoreSightClient;
  /** A second account: its own jobs, none of the first's. */
  other: ScoreSightClient;
  pool: FakePool;
  /** Moves the engine's clock forward and runs the retention pass. */
  advanceClock(ms: number): Promise<void>;
  remote?: RemoteExtras;
  close(): Promise<void>;
}

export type TargetFactory = (options?: TargetOptions) => Promise<Target>;

const DAY = 86_400_000;

/** Registers every scenario against targets made by `factory`. */
export function conformanceSuite(name: string, kind: 'local' | 'remote', factory: TargetFactory): void {
  const open: Target[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close()));
  });
  const setup = async (options?: TargetOptions) => {
    const target = await factory(options);
    open.push(target);
    return target;
  };

  describe(`${name}: capabilities`, () => {
    it('reports every field and the 65 locales; credits only with a ledger', async () => {
      const { client } = await setup();
      const caps = await client.getCapabilities();
      expect(caps.locales).toHaveLength(65);
      expect(caps.localesDetails.find((l) => l.code === 'de')).toEqual({ code: 'de', name: 'German' });
      expect(caps).toMatchObject({ maxPages: 200, maxFileSize: 25 * 1024 * 1024, retentionDays: 30 });
      expect(caps.remainingCredits).toBeUndefined();
      const paid = await setup({ engine: { credits: 5 } });
      expect(await paid.client.getCapabilities()).toMatchObject({ costPerPage: 1, remainingCredits: 5 });
    });
  });

  describe(`${name}: the happy path with the details step`, () => {
    it('draft → four kinds of file input → start → awaitingInput → details → done, then every export and the input pages', async () => {
      const { client: c } = await setup({ engine: { credits: 10 } });
      const draft = await c.createJob({ output: 'musicxml', interactiveSteps: ['details'], locales: ['de'] });
      expect(draft).toMatchObject({ status: 'draft', output: 'musicxml', interactiveSteps: ['details'], locales: ['de'] });
      expect(draft.retention?.expiryDate).toBeDefined();
      const page = pngPage('p.png').file;
      expect(await c.addJobFile(draft.id, { file: page, filename: 'p1.png' })).toEqual({ fileIndex: 0, fileCount: 1 });
      expect(await c.addJobFile(draft.id, { file: Buffer.from(page).toString('base64'), filename: 'p2.png' })).toEqual({ fileIndex: 1, fileCount: 2 });
      expect(await c.addJobFile(draft.id, { file: page.slice().buffer, filename: 'p3.png' })).toEqual({ fileIndex: 2, fileCount: 3 });
      expect(await c.addJobFile(draft.id, { file: new Blob([page.slice()]), mimeType: 'image/png' })).toEqual({ fileIndex: 3, fileCount: 4 });
      const started = await c.startJob(draft.id);
      expect(started).toMatchObject({ status: 'processing', estimatedCredits: 4, progress: { key: 'OMR_QUEUED' } });
      expect((await c.getCapabilities()).remainingCredits).toBe(6);

      const paused = await until(c, draft.id, settled);
      expect(paused).toMatchObject({ status: 'awaitingInput', currentStep: 'details', pendingStep: { step: 'details', data: { step: 'details' } } });
      expect(paused.pendingStep!.data.instruments[0]).toMatchObject({ index: 0, resolvedConfidence: expect.stringMatching(/^(medium|low)$/) });

      const resumed = await c.submitJobStep(draft.id, 'details', {
        step: 'details',
        title: 'Für Elise: No. 1',
        mainLanguage: 'de',
        instruments: [{ index: 0, instrumentId: 'wind.clarinet-bflat', midiProgram: 40, partName: 'Klarinette in B' }],
      });
      expect(resumed.status).toBe('processing');
      const done = await until(c, draft.id, settled);
      expect(done.status).toBe('done');
      expect(done.result).toEqual({ exports: ['musicxml', 'mxl', 'midi', 'thumbnail.png'] });

      const xml = await c.exportJob(draft.id, 'musicxml');
      expect(xml.contentType).toBe('application/vnd.recordare.musicxml+xml');
      expect(xml.filename).toBe('Für Elise No. 1.musicxml');
      const text = new TextDecoder().decode(xml.data);
      expect(text).toContain('Klarinette in B');
      expect(text).toContain('<midi-program>72</midi-program>'); // instrumentId won over midiProgram 40
      expect(text).toContain('fake-1');
      expect(await c.exportJob(draft.id, 'mxl')).toMatchObject({ contentType: 'application/vnd.recordare.musicxml', filename: 'Für Elise No. 1.mxl' });
      const midi = await c.exportJob(draft.id, 'midi');
      expect([midi.contentType, midi.filename, new TextDecoder().decode(midi.data.subarray(0, 4))]).toEqual(['audio/midi', 'Für Elise No. 1.mid', 'MThd']);
      expect((await c.exportJob(draft.id, 'thumbnail.png')).contentType).toBe('image/png');
      // @ts-expect-error a format no client offers: the run-time check is what is tested here
      expect(await rejection(c.exportJob(draft.id, 'mp3'))).toMatchObject({ code: 'OMR_FORMAT_NOT_AVAILABLE', status: 404 });
      const input = await c.getJobFile(draft.id, 1);
      expect(input).toMatchObject({ contentType: 'image/png', filename: 'p2.png' });
      expect(input.data).toEqual(page);
      expect(await rejection(c.getJobFile(draft.id, 4))).toMatchObject({ code: 'OMR_FILE_NOT_FOUND', status: 404 });
    });

    it('progress keys come in pipeline order, followed by long-polls until done', async () => {
      // The second page is held, so every target shows the job mid-run however fast the fake pool is.
      const { client, pool } = await setup({ pool: { pages: { 'a.png': 2 }, hold: ['a.png#1'] } });
      const job = await client.createJob({ output: 'musicxml', files: [pngPage('a.png')], autoStart: true });
      const order = ['OMR_QUEUED', 'OMR_DETECTING_STAVES', 'OMR_READING_NOTES', 'OMR_ASSEMBLING', 'OMR_CREATING_SCORE'];
      // Position in the pipeline: [page, key]; pages repeat the page keys, the rest come once.
      const position = (p: Job['progress']): [number, number] => [p!.current ?? (p!.key === 'OMR_QUEUED' ? 0 : Infinity), order.indexOf(p!.key)];
      const seen = [position(job.progress)];
      let last: Job | undefined;
      for await (const snapshot of followJob(client, job.id, { wait: 1 })) {
        if (snapshot.progress) seen.push(position(snapshot.progress));
        if (pool.held.has('a.png#1')) pool.release('a.png#1');
        last = snapshot;
      }
      expect(last?.status).toBe('done');
      expect(seen[0]).toEqual([0, 0]);
      expect(seen.some(([page]) => page === 2)).toBe(true);
      const later = (a: [number, number], b: [number, number]) => a[0] > b[0] || (a[0] === b[0] && a[1] >= b[1]);
      expect(seen.every((at, i) => at[1] >= 0 && (i === 0 || later(at, seen[i - 1]!)))).toBe(true);
    });

    it('the details step resolves by itself when every part is read with high confidence; a library job gets a score', async () => {
      const { client } = await setup({ pool: { partName: 'Violin' } });
      const job = await client.createJob({ interactiveSteps: ['details'], files: [pngPage('v.png')], autoStart: true });
      const done = await until(client, job.id, settled);
      expect(done.status).toBe('done');
      expect(done.output).toBe('library');
      expect(done.retention).toBeUndefined();
      const score = await client.getScore(done.result!.score!);
      expect(score).toMatchObject({ id: done.result!.score, job: job.id });
    });
  });

  describe(`${name}: one-shot jobs and idempotency`, () => {
    it('autoStart creates, starts and charges in one call and runs to done', async () => {
      const { client } = await setup({ engine: { credits: 3 } });
      const job = await client.createJob({ output: 'musicxml', files: [pngPage('one.png')], autoStart: true });
      expect(job).toMatchObject({ status: 'processing', estimatedCredits: 1 });
      expect((await until(client, job.id, settled)).status).toBe('done');
      expect((await client.getCapabilities()).remainingCredits).toBe(2);
      const done = await runJob(client, { output: 'musicxml', files: [pngPage('two.png')] });
      expect(done.status).toBe('done');
    });

    it('with interactiveSteps the one-shot job still pauses for review', async () => {
      const { client } = await setup();
      const job = await client.createJob({ output: 'musicxml', interactiveSteps: ['details'], files: [pngPage('one.png')], autoStart: true });
      expect((await until(client, job.id, settled)).status).toBe('awaitingInput');
    });

    it('a repeated idempotency key returns the existing job; keys are per account', async () => {
      const { client, other } = await setup();
      const a = await client.createJob({ idempotencyKey: 'k-1' });
      const b = await client.createJob({ idempotencyKey: 'k-1', output: 'musicxml' });
      expect(b).toEqual(a);
      expect((await client.listJobs()).jobs).toHaveLength(1);
      const elsewhere = await other.createJob({ idempotencyKey: 'k-1' });
      expect(elsewhere.id).not.toBe(a.id);
    });
  });

  describe(`${name}: error codes`, () => {
    it('files: OMR_JOB_NO_FILES, OMR_MIME_REQUIRED, FILE_TOO_LARGE, CORRUPTED_FILE, OMR_TOO_MANY_PAGES, OMR_JOB_NOT_DRAFT, UNSUPPORTED_FILE_TYPE, INVALID_ARGUMENT', async () => {
      const { client } = await setup({ engine: { maxPages: 1 } });
      const draft = await client.createJob();
      expect(await rejection(client.startJob(draft.id))).toMatchObject({ code: 'OMR_JOB_NO_FILES', status: 400 });
      expect(await rejection(client.createJob({ autoStart: true }))).toMatchObject({ code: 'OMR_JOB_NO_FILES', status: 400 });
      expect(await rejection(client.addJobFile(draft.id, { file: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]) }))).toMatchObject({ code: 'OMR_MIME_REQUIRED', status: 400 });
      expect(await rejection(client.addJobFile(draft.id, { file: new Uint8Array(25 * 1024 * 1024 + 1), filename: 'x.png' }))).toMatchObject({ code: 'FILE_TOO_LARGE', status: 413 });
      expect(await rejection(client.addJobFile(draft.id, { file: '', filename: 'x.png' }))).toMatchObject({ code: 'CORRUPTED_FILE', status: 400 });
      expect(await rejection(client.addJobFile(draft.id, { file: 'not base64!', filename: 'x.png' }))).toMatchObject({ code: 'INVALID_ARGUMENT', status: 400 });
      expect(await rejection(client.addJobFile(draft.id, { file: readFileSync('test/fixtures/recognition/melody.musicxml'), filename: 'm.musicxml' }))).toMatchObject({ code: 'UNSUPPORTED_FILE_TYPE' });
      await client.addJobFile(draft.id, pngPage('ok.png'));
      expect(await rejection(client.addJobFile(draft.id, pngPage('one-too-many.png')))).toMatchObject({ code: 'OMR_TOO_MANY_PAGES', status: 400 });
      await client.startJob(draft.id);
      expect(await rejection(client.addJobFile(draft.id, pngPage('late.png')))).toMatchObject({ code: 'OMR_JOB_NOT_DRAFT', status: 400 });
      expect(await rejection(client.createJob({ output: 'pdf' as never }))).toMatchObject({ code: 'INVALID_ARGUMENT', status: 400 });
      expect(await rejection(client.getJob(draft.id, { wait: 26 }))).toMatchObject({ code: 'INVALID_ARGUMENT', status: 400 });
    });

    it('missing ids: OMR_JOB_NOT_FOUND, TASK_NOT_FOUND, SCORE_NOT_FOUND — all 404', async () => {
      const { client } = await setup();
      for (const call of [client.getJob('job_nope'), client.startJob('job_nope'), client.cancelJob('job_nope'), client.deleteJob('job_nope'), client.exportJob('job_nope', 'midi'), client.addJobFile('job_nope', pngPage('x.png'))]) {
        expect(await rejection(call)).toMatchObject({ code: 'OMR_JOB_NOT_FOUND', status: 404 });
      }
      expect(await rejection(client.getTask('task_nope'))).toMatchObject({ code: 'TASK_NOT_FOUND', status: 404 });
      expect(await rejection(client.getScore('score_nope'))).toMatchObject({ code: 'SCORE_NOT_FOUND', status: 404 });
    });

    it('steps: OMR_STEP_MISMATCH, OMR_NOT_AWAITING_STEP, a bad override, OMR_JOB_NOT_RESUMABLE', async () => {
      const { client } = await setup();
      const job = await client.createJob({ output: 'musicxml', interactiveSteps: ['details'], files: [pngPage('a.png')], autoStart: true });
      await until(client, job.id, settled);
      expect(await rejection(client.submitJobStep(job.id, 'details', { step: 'other' }))).toMatchObject({ code: 'OMR_STEP_MISMATCH', status: 400 });
      expect(await rejection(client.submitJobStep(job.id, 'other', { step: 'other' }))).toMatchObject({ code: 'OMR_NOT_AWAITING_STEP', status: 409 });
      expect(await rejection(client.submitJobStep(job.id, 'details', { step: 'details', instruments: [{ index: 7 }] }))).toMatchObject({ code: 'INVALID_ARGUMENT', status: 400 });
      expect((await client.getJob(job.id)).status).toBe('awaitingInput');
      expect((await client.cancelJob(job.id)).status).toBe('canceled');
      expect(await rejection(client.submitJobStep(job.id, 'details', { step: 'details' }))).toMatchObject({ code: 'OMR_JOB_NOT_RESUMABLE', status: 409 });
    });

    it('OMR_JOB_NOT_DONE, OMR_JOB_IN_PROGRESS, OMR_JOB_NOT_EXPIRABLE', async () => {
      const { client, pool } = await setup({ pool: { hold: ['held.png#0'] } });
      const job = await client.createJob({ output: 'musicxml', files: [pngPage('held.png')], autoStart: true });
      expect(await rejection(client.exportJob(job.id, 'musicxml'))).toMatchObject({ code: 'OMR_JOB_NOT_DONE', status: 409 });
      expect(await rejection(client.deleteJob(job.id))).toMatchObject({ code: 'OMR_JOB_IN_PROGRESS', status: 409 });
      await pool.reached('held.png#0');
      pool.release('held.png#0');
      await until(client, job.id, settled);
      const library = await client.createJob({ files: [pngPage('lib.png')], autoStart: true });
      await until(client, library.id, settled);
      expect(await rejection(client.deleteJob(library.id))).toMatchObject({ code: 'OMR_JOB_NOT_EXPIRABLE', status: 409 });
    });

    it('OMR_JOB_NOT_CANCELLABLE while a page is read; the job then stops, credits reverted; cancel after is a no-op', async () => {
      const { client, pool } = await setup({ pool: { hold: ['slow.png#0'], pages: { 'slow.png': 3 } }, engine: { credits: 5 } });
      const job = await client.createJob({ output: 'musicxml', files: [pngPage('slow.png')], autoStart: true });
      await pool.reached('slow.png#0');
      await until(client, job.id, (j) => j.progress?.key === 'OMR_DETECTING_STAVES');
      expect(await rejection(client.cancelJob(job.id))).toMatchObject({ code: 'OMR_JOB_NOT_CANCELLABLE', status: 409 });
      pool.release('slow.png#0');
      expect((await until(client, job.id, settled)).status).toBe('canceled');
      expect(await client.cancelJob(job.id)).toMatchObject({ status: 'canceled' });
      expect((await client.getCapabilities()).remainingCredits).toBe(5);
    });

    it('a failing file ends the job in error with the decoder code, credits reverted', async () => {
      const { client } = await setup({ pool: { fail: { 'bad.pdf': new OmrError('CORRUPTED_FILE', 'bad.pdf is damaged') } }, engine: { credits: 4 } });
      const bad = await client.createJob({ output: 'musicxml', files: [{ file: pngPage('x').file, filename: 'bad.pdf' }], autoStart: true });
      expect(await until(client, bad.id, settled)).toMatchObject({ status: 'error', errorCode: 'CORRUPTED_FILE', errorMessage: 'bad.pdf is damaged' });
      expect((await client.getCapabilities()).remainingCredits).toBe(4);
    });

    it('402 OMR_INSUFFICIENT_CREDITS charges nothing and leaves the draft', async () => {
      const { client } = await setup({ engine: { credits: 2 } });
      const job = await client.createJob({ files: [pngPage('1.png'), pngPage('2.png'), pngPage('3.png')] });
      expect(await rejection(client.startJob(job.id))).toMatchObject({ code: 'OMR_INSUFFICIENT_CREDITS', status: 402 });
      expect((await client.getJob(job.id)).status).toBe('draft');
      expect((await client.getCapabilities()).remainingCredits).toBe(2);
    });
  });

  describe(`${name}: queueing and long-polls`, () => {
    it('jobs beyond maxParallelJobs wait in OMR_QUEUED; a queued job cancels at once', async () => {
      const { client, pool } = await setup({ pool: { hold: ['*#0'] }, engine: { maxParallelJobs: 2 } });
      const ids: string[] = [];
      for (const file of ['a.png', 'b.png', 'c.png', 'd.png']) ids.push((await client.createJob({ output: 'musicxml', files: [pngPage(file)], autoStart: true })).id);
      await pool.reached('a.png#0');
      await pool.reached('b.png#0');
      expect((await client.getJob(ids[2]!)).progress?.key).toBe('OMR_QUEUED');
      expect((await client.cancelJob(ids[3]!)).status).toBe('canceled');
      pool.release('a.png#0');
      await pool.reached('c.png#0');
      pool.release('b.png#0');
      pool.release('c.png#0');
      for (const id of ids.slice(0, 3)) expect((await until(client, id, settled)).status).toBe('done');
      expect(pool.started).toEqual(['a.png', 'b.png', 'c.png']);
    });

    it('a long-poll returns as soon as the job changes, after the wait when nothing does, and early on abort', async () => {
      // Each poll's deadline runs out only on cue: one answered while it is held was answered by the change or the abort.
      const deadlines = heldDeadlines();
      const { client, pool } = await setup({ pool: { hold: ['w.png#0'] }, engine: { longPollTimer: deadlines.longPollTimer } });
      const draft = await client.createJob({ output: 'musicxml' });
      let held = deadlines.next();
      let answered = false;
      const quiet = client.getJob(draft.id, { wait: 1 }).finally(() => (answered = true));
      const quietWait = await held;
      expect(quietWait.ms).toBe(1000);
      await new Promise((resolve) => setImmediate(resolve));
      expect(answered).toBe(false);
      quietWait.runOut();
      expect((await quiet).status).toBe('draft');

      const controller = new AbortController();
      held = deadlines.next();
      const aborted = client.getJob(draft.id, { wait: 20, signal: controller.signal });
      const abortedWait = await held;
      controller.abort();
      expect((await aborted).status).toBe('draft');
      await abortedWait.stopped;

      await client.addJobFile(draft.id, pngPage('w.png'));
      await client.startJob(draft.id);
      await pool.reached('w.png#0');
      const before = await until(client, draft.id, (j) => j.progress?.key === 'OMR_DETECTING_STAVES');
      held = deadlines.next();
      const poll = client.getJob(draft.id, { wait: 20 });
      const changeWait = await held;
      pool.release('w.png#0');
      const changed = await poll;
      expect(changed.progress).not.toEqual(before.progress);
      await changeWait.stopped;
    });
  });

  describe(`${name}: listing, retention and delete`, () => {
    it('lists newest first, filters by status and expired, pages by cursor', async () => {
      const { client } = await setup();
      const created: Job[] = [];
      for (let i = 0; i < 5; i++) created.push(await client.createJob({ output: 'musicxml' }));
      const first = await client.listJobs({ limit: 2 });
      expect(first.jobs.map((j) => j.id)).toEqual([created[4]!.id, created[3]!.id]);
      const second = await client.listJobs({ limit: 2, cursor: first.nextCursor! });
      expect(second.jobs.map((j) => j.id)).toEqual([created[2]!.id, created[1]!.id]);
      const third = await client.listJobs({ limit: 2, cursor: second.nextCursor! });
      expect(third.jobs.map((j) => j.id)).toEqual([created[0]!.id]);
      expect(third.nextCursor).toBeUndefined();
      expect(first.jobs[0]).toEqual(created[4]);
      await client.cancelJob(created[1]!.id);
      const canceled = await client.listJobs({ status: 'canceled' });
      expect(canceled.jobs.map((j) => j.id)).toEqual([created[1]!.id]);
      expect((await client.listJobs({ status: 'draft', expired: false, limit: 3 })).jobs).toHaveLength(3);
      expect((await client.listJobs({ expired: true })).jobs).toEqual([]);
      expect(await rejection(client.listJobs({ cursor: 'bogus' }))).toMatchObject({ code: 'INVALID_ARGUMENT', status: 400 });
      expect(await rejection(client.listJobs({ limit: 101 }))).toMatchObject({ code: 'INVALID_ARGUMENT', status: 400 });
    });

    it('erases musicxml jobs after retentionDays by the injected clock; the stripped record stays listable', async () => {
      const { client, advanceClock } = await setup({ engine: { retentionDays: 30 } });
      const job = await client.createJob({ output: 'musicxml', files: [pngPage('keep.png')], autoStart: true });
      expect(Date.parse(job.retention!.expiryDate) - Date.parse(job.creationDate)).toBe(30 * DAY);
      await until(client, job.id, settled);
      await advanceClock(30 * DAY - 60_000);
      expect((await client.exportJob(job.id, 'musicxml')).data.length).toBeGreaterThan(100);
      await advanceClock(120_000);
      const erased = await client.getJob(job.id);
      expect(erased.status).toBe('done');
      expect(erased.retention?.expiredDate).toBeDefined();
      expect(await rejection(client.exportJob(job.id, 'musicxml'))).toMatchObject({ code: 'OMR_JOB_EXPIRED', status: 409 });
      expect(await rejection(client.getJobFile(job.id, 0))).toMatchObject({ code: 'OMR_JOB_EXPIRED', status: 409 });
      expect((await client.listJobs({ expired: true })).jobs.map((j) => j.id)).toEqual([job.id]);
      expect((await client.listJobs({ expired: false })).jobs).toEqual([]);
    });

    it('deleteJob erases at once and is idempotent', async () => {
      const { client } = await setup();
      const job = await client.createJob({ output: 'musicxml', files: [pngPage('d.png')], autoStart: true });
      await until(client, job.id, settled);
      const deleted = await client.deleteJob(job.id);
      expect(deleted.retention?.expiredDate).toBeDefined();
      expect(await client.deleteJob(job.id)).toEqual(deleted);
      expect(await rejection(client.exportJob(job.id, 'midi'))).toMatchObject({ code: 'OMR_JOB_EXPIRED' });
    });
  });

  describe(`${name}: library imports and tasks`, () => {
    it('imports MusicXML at once (200, with the revision) and exports a revision through a task whose result.url downloads', async () => {
      const { client } = await setup();
      const xml = readFileSync('test/fixtures/recognition/melody.musicxml');
      const imported = await client.importScore({ title: 'Melody', filename: 'melody.musicxml', data: xml.toString('base64'), dataEncoding: 'base64' });
      expect(imported.status).toBe(200);
      if (imported.status !== 200) return;
      expect(imported.score.title).toBe('Melody');
      expect(imported.revision).toBe(imported.score.revision);
      expect(imported.revisionDate).toBe(imported.score.creationDate);
      expect(await client.getScore(imported.score.id)).toEqual(imported.score);
      const bytes = await client.importScore({ filename: 'melody.musicxml', data: new Uint8Array(xml) });
      expect(bytes.status).toBe(200);

      const task = await client.exportScore(imported.score.id, imported.revision, 'musicxml');
      expect(task).toMatchObject({ type: 'export', state: 'done', progress: { percent: 100 }, score: imported.score.id, revision: imported.revision });
      const download = await fetch(task.result!.url!);
      expect(download.ok).toBe(true);
      expect(await download.text()).toContain('<score-partwise');
      expect(await client.getTask(task.id)).toEqual(task);
      expect(await rejection(client.exportScore(imported.score.id, 'rev_nope', 'musicxml'))).toMatchObject({ code: 'SCORE_NOT_FOUND', status: 404 });
      expect(await rejection(client.exportScore(imported.score.id, imported.revision, 'mp3'))).toMatchObject({ code: 'INVALID_ARGUMENT', status: 400 });
    });

    it('a PDF needs supportsTasks, answers 202 with an import-omr task that ends done with score and revision', async () => {
      const { client } = await setup();
      const pdf = readFileSync('test/fixtures/recognition/melody.pdf');
      expect(await rejection(client.importScore({ filename: 'scan.pdf', data: pdf.toString('base64') }))).toMatchObject({ code: 'INVALID_ARGUMENT', status: 400 });
      const answer = await client.importScore({ title: 'Scanned', filename: 'scan.pdf', data: pdf.toString('base64'), dataEncoding: 'base64', supportsTasks: true });
      expect(answer.status).toBe(202);
      if (answer.status !== 202) return;
      expect(answer.task).toMatchObject({ type: 'import-omr', progress: { percent: expect.any(Number) } });
      let task: Task = answer.task;
      // Tasks have no long-poll: look again after each short pause; a task that never ends fails by the test's timeout.
      while (!['done', 'error', 'canceled'].includes(task.state)) {
        await new Promise((r) => setTimeout(r, 20));
        task = await client.getTask(task.id);
      }
      expect(task).toMatchObject({ state: 'done', progress: { percent: 100 } });
      expect(await client.getScore(task.score!)).toMatchObject({ title: 'Scanned', revision: task.revision });
      expect((await client.listJobs()).jobs).toEqual([]); // the import's job is the task's, not the caller's
    });
  });

  describe(`${name}: accounts are kept apart`, () => {
    it("another account's job, task and score answer 404 exactly like missing ones, and are not listed", async () => {
      const { client, other } = await setup();
      const job = await client.createJob({ output: 'musicxml', files: [pngPage('mine.png')], autoStart: true });
      await until(client, job.id, settled);
      const xml = readFileSync('test/fixtures/recognition/melody.musicxml');
      const imported = await client.importScore({ filename: 'melody.musicxml', data: xml.toString('base64') });
      if (imported.status !== 200) throw new Error('expected 200');
      const task = await client.exportScore(imported.score.id, imported.revision, 'midi');

      const missing = await rejection(other.getJob('job_000000000000000000000000'));
      const foreign = await rejection(other.getJob(job.id));
      expect([foreign.code, foreign.status]).toEqual([missing.code, missing.status]);
      expect(foreign.message.replace(job.id, 'ID')).toBe(missing.message.replace('job_000000000000000000000000', 'ID'));
      for (const call of [other.exportJob(job.id, 'musicxml'), other.cancelJob(job.id), other.deleteJob(job.id), other.getJobFile(job.id, 0)]) {
        expect(await rejection(call)).toMatchObject({ code: 'OMR_JOB_NOT_FOUND', status: 404 });
      }
      expect(await rejection(other.getTask(task.id))).toMatchObject({ code: 'TASK_NOT_FOUND', status: 404 });
      expect(await rejection(other.getScore(imported.score.id))).toMatchObject({ code: 'SCORE_NOT_FOUND', status: 404 });
      expect((await other.listJobs()).jobs).toEqual([]);
      expect((await client.listJobs()).jobs.map((j) => j.id)).toEqual([job.id]);
    });
  });

  if (kind !== 'remote') return;

  describe(`${name}: authentication and scopes`, () => {
    it('capabilities need no token; everything else answers 401 UNAUTHORIZED without a valid one', async () => {
      const { remote } = await setup({ engine: { credits: 3 } });
      const caps = await remote!.anonymous.getCapabilities();
      expect(caps.locales).toHaveLength(65);
      expect(caps.remainingCredits).toBeUndefined(); // account-scoped fields need an account
      expect(await rejection(remote!.anonymous.createJob())).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
      expect(await rejection(remote!.anonymous.listJobs())).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
      expect(await rejection(remote!.unknownToken.getJob('job_x'))).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
      expect(await rejection(remote!.unknownToken.getCapabilities())).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    });

    it('omr is needed on every request; OAuth tokens need scores to create or read library scores and tasks.readonly to poll tasks', async () => {
      const { remote } = await setup();
      const r = remote!;
      expect(await rejection(r.personalWithoutOmr.createJob({ output: 'musicxml' }))).toMatchObject({ code: 'OMR_SCOPE_REQUIRED', status: 403 });
      expect(await rejection(r.personalWithoutOmr.listJobs())).toMatchObject({ code: 'OMR_SCOPE_REQUIRED', status: 403 });

      expect((await r.oauthOmrOnly.createJob({ output: 'musicxml' })).status).toBe('draft');
      expect(await rejection(r.oauthOmrOnly.createJob())).toMatchObject({ code: 'SCORES_SCOPE_REQUIRED', status: 403 });
      expect(await rejection(r.oauthOmrOnly.createJob({ output: 'library', files: [pngPage('a.png')], autoStart: true }))).toMatchObject({ code: 'SCORES_SCOPE_REQUIRED' });
      expect((await r.oauthOmrOnly.listJobs()).jobs).toHaveLength(1); // the refused library jobs were never made
      const xml = readFileSync('test/fixtures/recognition/melody.musicxml').toString('base64');
      expect(await rejection(r.oauthOmrOnly.importScore({ filename: 'm.musicxml', data: xml }))).toMatchObject({ code: 'SCORES_SCOPE_REQUIRED', status: 403 });

      const imported = await r.oauthWithoutTasks.importScore({ filename: 'm.musicxml', data: xml });
      if (imported.status !== 200) throw new Error('expected 200');
      const task = await r.oauthWithoutTasks.exportScore(imported.score.id, imported.revision, 'midi');
      expect(await rejection(r.oauthWithoutTasks.getTask(task.id))).toMatchObject({ code: 'TASKS_SCOPE_REQUIRED', status: 403 });

      // A personal token is its owner's own: omr alone opens everything.
      const personal = await r.personalOmrOnly.createJob({ files: [pngPage('p.png')], autoStart: true });
      expect(personal.output).toBe('library');
      const mine = await r.personalOmrOnly.importScore({ filename: 'm.musicxml', data: xml });
      if (mine.status !== 200) throw new Error('expected 200');
      const exported = await r.personalOmrOnly.exportScore(mine.score.id, mine.revision, 'midi');
      expect((await r.personalOmrOnly.getTask(exported.id)).state).toBe('done');
    });
  });

  describe(`${name}: rate limits`, () => {
    it('every answer carries the headers; over the limit 403 API_RATE_LIMIT_EXCEEDED with remaining below zero; other accounts unaffected', async () => {
      const { client, remote } = await setup();
      const r = remote!;
      const sentAt = Date.now(); // a timestamp to compare with, not a timing
      await client.listJobs();
      expect(client).toHaveProperty('rateLimit');
      const own = (client as RemoteClient).rateLimit!;
      expect(own).toMatchObject({ limit: 7200, remaining: 7199 });
      // The window this first request opened ends a whole window after it was sent, however long the answer took.
      expect(own.reset * 1000).toBeGreaterThanOrEqual(sentAt + r.windowMs);
      for (let i = 1; i <= r.limitedTo; i++) {
        await r.limited.listJobs();
        expect(r.limited.rateLimit?.remaining).toBe(r.limitedTo - i);
      }
      const refused = await rejection(r.limited.listJobs());
      expect(refused).toMatchObject({ code: 'API_RATE_LIMIT_EXCEEDED', status: 403 });
      expect(refused.message).toMatch(/resets at/);
      expect(r.limited.rateLimit?.remaining).toBe(-1);
      await client.listJobs();
      expect((client as RemoteClient).rateLimit?.remaining).toBe(7198);
      // Within its budget, a client waits for the window to reset and tries again: its answer is the new window's first.
      expect(await r.limitedPatient.listJobs()).toMatchObject({ jobs: [] });
      expect(r.limitedPatient.rateLimit!.remaining).toBe(r.limitedTo - 1);
    });
  });
}

/** Long-polls until the job satisfies `done`. */
export async function until(client: ScoreSightClient, id: string, done: (job: Job) => boolean): Promise<Job> {
  // A look first: over HTTP the job may have got there before the first poll arrives.
  for (let i = 0, wait = 0; i < 200; i++, wait = 1) {
    const job = await client.getJob(id, { wait });
    if (done(job)) return job;
  }
  throw new Error(`job ${id} never got there`);
}

export const settled = (job: Job): boolean => ['done', 'error', 'canceled', 'awaitingInput'].includes(job.status);


export { rejection };
