/**
 * The local client through its public interface, against a fake
 * recognition pool (test/support/fake-pool.ts) so that each scenario of the
 * spec runs in milliseconds and can hold a page open at will.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OmrError } from '../../src/errors.js';
import { followJob, runJob, waitForJob } from '../../src/jobs/follow.js';
import { createClient, type LocalClient, type LocalClientOptions } from '../../src/jobs/local-client.js';
import type { Job } from '../../src/jobs/types.js';
import { createFileStore } from '../../src/storage/fs-store.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { createFakePool, pngPage, type FakePool, type FakePoolOptions } from '../support/fake-pool.js';
import { rejection } from '../support/rejection.js';

const clients: LocalClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function setup(poolOptions: FakePoolOptions = {}, options: LocalClientOptions = {}): Promise<{ client: LocalClient; pool: FakePool }> {
  const pool = createFakePool(poolOptions);
  const client = await createClient({ store: createMemoryStore(), pool, sweepIntervalMs: 0, ...options });
  clients.push(client);
  return { client, pool };
}

/** Long-polls until the job satisfies `done`. */
async function until(client: LocalClient, id: string, done: (job: Job) => boolean): Promise<Job> {
  for (let i = 0; i < 200; i++) {
    const job = await client.getJob(id, { wait: 1 });
    if (done(job)) return job;
  }
  throw new Error(`job ${id} never got there`);
}

const settled = (job: Job) => ['done', 'error', 'canceled', 'awaitingInput'].includes(job.status);

describe('capabilities', () => {
  it('reports every field, the 65 locales with English names, and credits only with a ledger', async () => {
    const { client } = await setup();
    const caps = await client.getCapabilities();
    expect(caps.locales).toHaveLength(65);
    expect(caps.localesDetails).toHaveLength(65);
    expect(caps.localesDetails.find((l) => l.code === 'de')).toEqual({ code: 'de', name: 'German' });
    expect(caps).toMatchObject({ maxPages: 200, maxFileSize: 25 * 1024 * 1024, retentionDays: 30 });
    expect(caps.remainingCredits).toBeUndefined();
    const paid = await setup({}, { credits: 5 });
    expect(await paid.client.getCapabilities()).toMatchObject({ costPerPage: 1, remainingCredits: 5 });
  });
});

describe('the happy path with the details step', () => {
  it('draft → files → start → awaitingInput → details → done, then every export', async () => {
    const { client } = await setup({ pages: { 'p1.png': 1, 'p2.png': 1 } }, { credits: 10 });
    const draft = await client.createJob({ output: 'musicxml', interactiveSteps: ['details'], locales: ['de'] });
    expect(draft.status).toBe('draft');
    expect(draft.retention?.expiryDate).toBeDefined();
    expect(await client.addJobFile(draft.id, pngPage('p1.png'))).toEqual({ fileIndex: 0, fileCount: 1 });
    expect(await client.addJobFile(draft.id, { ...pngPage('p2.png'), file: Buffer.from(pngPage('p2.png').file).toString('base64') })).toEqual({ fileIndex: 1, fileCount: 2 });
    const started = await client.startJob(draft.id);
    expect(started).toMatchObject({ status: 'processing', estimatedCredits: 2, progress: { key: 'OMR_QUEUED' } });
    expect((await client.getCapabilities()).remainingCredits).toBe(8);

    const paused = await until(client, draft.id, settled);
    expect(paused.status).toBe('awaitingInput');
    expect(paused.currentStep).toBe('details');
    const data = paused.pendingStep!.data;
    expect(data.step).toBe('details');
    expect(data.instruments.length).toBeGreaterThan(0);
    expect(data.instruments[0]).toMatchObject({ index: 0, resolvedConfidence: expect.stringMatching(/^(medium|low)$/) });

    const resumed = await client.submitJobStep(draft.id, 'details', {
      step: 'details',
      title: 'Ode: to Joy',
      mainLanguage: 'de',
      instruments: [{ index: 0, instrumentId: 'wind.clarinet-bflat', midiProgram: 40, partName: 'Klarinette in B' }],
    });
    expect(resumed.status).toBe('processing');
    const done = await until(client, draft.id, settled);
    expect(done.status).toBe('done');
    expect(done.result?.exports).toEqual(['musicxml', 'mxl', 'midi', 'thumbnail.png']);
    expect(done.result?.score).toBeUndefined();

    const xml = await client.exportJob(draft.id, 'musicxml');
    expect(xml.contentType).toBe('application/vnd.recordare.musicxml+xml');
    expect(xml.filename).toBe('Ode to Joy.musicxml');
    const text = new TextDecoder().decode(xml.data);
    expect(text).toContain('Klarinette in B');
    expect(text).toContain('<midi-program>72</midi-program>'); // clarinet (GM 72, 1-based in MusicXML): instrumentId won over midiProgram 40
    expect(text).toContain('<chromatic>-2</chromatic>');
    expect(text).toContain('fake-1');
    expect((await client.exportJob(draft.id, 'mxl')).contentType).toBe('application/vnd.recordare.musicxml');
    const midi = await client.exportJob(draft.id, 'midi');
    expect(new TextDecoder().decode(midi.data.subarray(0, 4))).toBe('MThd');
    expect(midi.filename).toBe('Ode to Joy.mid');
    const thumb = await client.exportJob(draft.id, 'thumbnail.png');
    expect(thumb.contentType).toBe('image/png');
    expect((await rejection(client.exportJob(draft.id, 'mp3'))).code).toBe('OMR_FORMAT_NOT_AVAILABLE');
    const result = await client.getJobResult(draft.id);
    expect(result).toMatchObject({ pageCount: 2, modelVersion: 'fake-1' });
    expect(result.score.credits.title).toBe('Ode: to Joy');
    expect(result.score.parts[0]!.instrumentId).toBe('wind.clarinet-bflat');
    expect((await client.getJobFile(draft.id, 1)).contentType).toBe('image/png');
  });

  it('progress keys come in pipeline order with page current/total', async () => {
    const { client } = await setup({ pages: { 'a.png': 1, 'b.png': 1 } });
    const job = await client.createJob({ output: 'musicxml', files: [pngPage('a.png'), pngPage('b.png')], autoStart: true });
    const seen: string[] = [];
    let latest = job;
    while (!settled(latest)) {
      if (latest.progress) seen.push(`${latest.progress.key}${latest.progress.current ? ` ${latest.progress.current}/${latest.progress.total}` : ''}`);
      latest = await client.getJob(job.id, { wait: 1 });
    }
    const order = ['OMR_QUEUED', 'OMR_DETECTING_STAVES', 'OMR_READING_NOTES', 'OMR_ASSEMBLING', 'OMR_CREATING_SCORE'];
    const keys = seen.map((s) => order.indexOf(s.split(' ')[0]!));
    expect(keys[0]).toBe(0);
    expect(keys.every((k) => k >= 0)).toBe(true);
    expect(seen.some((s) => s.endsWith(' 2/2'))).toBe(true);
  });

  it('a details step resolves automatically when every part is read with high confidence', async () => {
    const { client } = await setup({ partName: 'Violin' });
    const job = await client.createJob({ interactiveSteps: ['details'], files: [pngPage('v.png')], autoStart: true });
    const done = await until(client, job.id, settled);
    expect(done.status).toBe('done');
    expect(done.result?.score).toMatch(/^score_/);
  });
});

describe('one-shot jobs and idempotency', () => {
  it('autoStart creates, starts and charges in one call; without declared steps it runs to done', async () => {
    const { client } = await setup({}, { credits: 3 });
    const job = await client.createJob({ output: 'musicxml', files: [pngPage('one.png')], autoStart: true });
    expect(job).toMatchObject({ status: 'processing', estimatedCredits: 1 });
    expect((await until(client, job.id, settled)).status).toBe('done');
    expect((await client.getCapabilities()).remainingCredits).toBe(2);
  });

  it('with interactiveSteps the one-shot job still pauses for review', async () => {
    const { client } = await setup();
    const job = await client.createJob({ output: 'musicxml', interactiveSteps: ['details'], files: [pngPage('one.png')], autoStart: true });
    expect((await until(client, job.id, settled)).status).toBe('awaitingInput');
  });

  it('a repeated idempotency key returns the existing job', async () => {
    const { client } = await setup();
    const a = await client.createJob({ idempotencyKey: 'k-1' });
    const b = await client.createJob({ idempotencyKey: 'k-1', output: 'musicxml' });
    expect(b.id).toBe(a.id);
    expect((await client.listJobs()).jobs).toHaveLength(1);
  });
});

describe('error codes', () => {
  it('OMR_JOB_NOT_DRAFT, OMR_MIME_REQUIRED, FILE_TOO_LARGE, OMR_JOB_NO_FILES, OMR_TOO_MANY_PAGES, OMR_JOB_NOT_FOUND', async () => {
    const { client } = await setup({}, { maxPages: 1 });
    const empty = await client.createJob();
    expect(await rejection(client.startJob(empty.id))).toMatchObject({ code: 'OMR_JOB_NO_FILES', status: 400 });
    expect(await rejection(client.addJobFile(empty.id, { file: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]) }))).toMatchObject({ code: 'OMR_MIME_REQUIRED', status: 400 });
    expect(await rejection(client.addJobFile(empty.id, { file: new Uint8Array(25 * 1024 * 1024 + 1), filename: 'x.png' }))).toMatchObject({ code: 'FILE_TOO_LARGE' });
    await client.addJobFile(empty.id, pngPage('ok.png'));
    expect(await rejection(client.addJobFile(empty.id, pngPage('one-too-many.png')))).toMatchObject({ code: 'OMR_TOO_MANY_PAGES', status: 400 });
    await client.startJob(empty.id);
    expect(await rejection(client.addJobFile(empty.id, pngPage('late.png')))).toMatchObject({ code: 'OMR_JOB_NOT_DRAFT', status: 400 });
    expect(await rejection(client.getJob('job_nope'))).toMatchObject({ code: 'OMR_JOB_NOT_FOUND', status: 404 });
    expect(await rejection(client.getJob(empty.id, { wait: 26 }))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    // A MIME type alone is enough; a score file is pointed to importScore.
    const other = await client.createJob();
    expect(await client.addJobFile(other.id, { file: pngPage('x').file, mimeType: 'image/png' })).toEqual({ fileIndex: 0, fileCount: 1 });
    expect(await rejection(client.addJobFile(other.id, { file: readFileSync('test/fixtures/recognition/melody.musicxml'), filename: 'm.musicxml' }))).toMatchObject({ code: 'UNSUPPORTED_FILE_TYPE' });
  });

  it('OMR_STEP_MISMATCH, OMR_NOT_AWAITING_STEP, OMR_JOB_NOT_RESUMABLE, and a bad override leaves the job awaiting', async () => {
    const { client } = await setup();
    const job = await client.createJob({ output: 'musicxml', interactiveSteps: ['details'], files: [pngPage('a.png')], autoStart: true });
    await until(client, job.id, settled);
    expect(await rejection(client.submitJobStep(job.id, 'details', { step: 'other' }))).toMatchObject({ code: 'OMR_STEP_MISMATCH', status: 400 });
    expect(await rejection(client.submitJobStep(job.id, 'other', { step: 'other' }))).toMatchObject({ code: 'OMR_NOT_AWAITING_STEP', status: 409 });
    expect(await rejection(client.submitJobStep(job.id, 'details', { step: 'details', instruments: [{ index: 7 }] }))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await rejection(client.submitJobStep(job.id, 'details', { step: 'details', instruments: [{ index: 0, instrumentId: 'nope.nope' }] }))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((await client.getJob(job.id)).status).toBe('awaitingInput');
    await client.cancelJob(job.id);
    expect(await rejection(client.submitJobStep(job.id, 'details', { step: 'details' }))).toMatchObject({ code: 'OMR_JOB_NOT_RESUMABLE', status: 409 });
    const draft = await client.createJob();
    expect(await rejection(client.submitJobStep(draft.id, 'details', { step: 'details' }))).toMatchObject({ code: 'OMR_NOT_AWAITING_STEP' });
  });

  it('OMR_JOB_NOT_DONE before the end; OMR_JOB_IN_PROGRESS and OMR_JOB_NOT_EXPIRABLE on delete', async () => {
    const { client, pool } = await setup({ hold: ['held.png#0'] });
    const job = await client.createJob({ output: 'musicxml', files: [pngPage('held.png')], autoStart: true });
    expect(await rejection(client.exportJob(job.id, 'musicxml'))).toMatchObject({ code: 'OMR_JOB_NOT_DONE', status: 409 });
    expect(await rejection(client.getJobResult(job.id))).toMatchObject({ code: 'OMR_JOB_NOT_DONE' });
    expect(await rejection(client.deleteJob(job.id))).toMatchObject({ code: 'OMR_JOB_IN_PROGRESS', status: 409 });
    await pool.reached('held.png#0');
    pool.release('held.png#0');
    await until(client, job.id, settled);
    const library = await client.createJob({ files: [pngPage('lib.png')], autoStart: true });
    await until(client, library.id, settled);
    expect(await rejection(client.deleteJob(library.id))).toMatchObject({ code: 'OMR_JOB_NOT_EXPIRABLE', status: 409 });
  });

  it('OMR_JOB_NOT_CANCELLABLE while a page is read; the job then stops at the end of that page, credits reverted', async () => {
    const { client, pool } = await setup({ hold: ['slow.png#0'], pages: { 'slow.png': 3 } }, { credits: 5 });
    const job = await client.createJob({ output: 'musicxml', files: [pngPage('slow.png')], autoStart: true });
    await pool.reached('slow.png#0');
    await until(client, job.id, (j) => j.progress?.key === 'OMR_DETECTING_STAVES');
    expect(await rejection(client.cancelJob(job.id))).toMatchObject({ code: 'OMR_JOB_NOT_CANCELLABLE', status: 409 });
    pool.release('slow.png#0');
    const end = await until(client, job.id, settled);
    expect(end.status).toBe('canceled');
    expect(await client.cancelJob(job.id)).toMatchObject({ status: 'canceled' }); // harmless no-op
    expect((await client.getCapabilities()).remainingCredits).toBe(5);
  });

  it('a failing file ends the job in error with the decoder code, credits reverted; other jobs unaffected', async () => {
    const { client } = await setup({ fail: { 'bad.pdf': new OmrError('CORRUPTED_FILE', 'bad.pdf is damaged') } }, { credits: 4 });
    const bad = await client.createJob({ output: 'musicxml', files: [{ file: pngPage('x').file, filename: 'bad.pdf' }], autoStart: true });
    const good = await client.createJob({ output: 'musicxml', files: [pngPage('good.png')], autoStart: true });
    expect(await until(client, bad.id, settled)).toMatchObject({ status: 'error', errorCode: 'CORRUPTED_FILE', errorMessage: 'bad.pdf is damaged' });
    expect((await until(client, good.id, settled)).status).toBe('done');
    expect((await client.getCapabilities()).remainingCredits).toBe(3);
  });

  it('a crashed worker fails only its own job, with credits reverted', async () => {
    const { client } = await setup({ fail: { 'crash.png': new OmrError('WORKER_CRASHED', 'The recognition worker stopped unexpectedly.') } }, { credits: 2 });
    const job = await client.createJob({ output: 'musicxml', files: [pngPage('crash.png')], autoStart: true });
    expect(await until(client, job.id, settled)).toMatchObject({ status: 'error', errorCode: 'WORKER_CRASHED' });
    expect((await client.getCapabilities()).remainingCredits).toBe(2);
  });

  it('402 OMR_INSUFFICIENT_CREDITS charges nothing and leaves the draft', async () => {
    const { client } = await setup({}, { credits: 2 });
    const job = await client.createJob({ files: [pngPage('1.png'), pngPage('2.png'), pngPage('3.png')] });
    expect(await rejection(client.startJob(job.id))).toMatchObject({ code: 'OMR_INSUFFICIENT_CREDITS', status: 402 });
    expect((await client.getJob(job.id)).status).toBe('draft');
    expect((await client.getCapabilities()).remainingCredits).toBe(2);
  });
});

describe('queueing, cancel and long-poll', () => {
  it('jobs beyond maxParallelJobs wait in OMR_QUEUED; a queued job cancels at once', async () => {
    const { client, pool } = await setup({ hold: ['*#0'] }, { maxParallelJobs: 2, credits: 10 });
    const ids = [];
    for (const name of ['a.png', 'b.png', 'c.png', 'd.png']) ids.push((await client.createJob({ output: 'musicxml', files: [pngPage(name)], autoStart: true })).id);
    await pool.reached('a.png#0');
    await pool.reached('b.png#0');
    expect(pool.started).toEqual(['a.png', 'b.png']);
    expect((await client.getJob(ids[2]!)).progress?.key).toBe('OMR_QUEUED');
    expect((await client.cancelJob(ids[3]!)).status).toBe('canceled');
    pool.release('a.png#0');
    await pool.reached('c.png#0');
    pool.release('b.png#0');
    pool.release('c.png#0');
    for (const id of ids.slice(0, 3)) expect((await until(client, id, settled)).status).toBe('done');
    expect(pool.started).toEqual(['a.png', 'b.png', 'c.png']);
    expect((await client.getCapabilities()).remainingCredits).toBe(7);
  });

  it('getJob with wait returns as soon as the job changes, and after the wait when nothing does', async () => {
    const { client, pool } = await setup({ hold: ['w.png#0'] });
    const draft = await client.createJob();
    let t = performance.now();
    await client.getJob(draft.id, { wait: 1 });
    expect(performance.now() - t).toBeGreaterThanOrEqual(900);
    await client.addJobFile(draft.id, pngPage('w.png'));
    await client.startJob(draft.id);
    await pool.reached('w.png#0');
    await until(client, draft.id, (j) => j.progress?.key === 'OMR_DETECTING_STAVES');
    t = performance.now();
    const poll = client.getJob(draft.id, { wait: 20 });
    setTimeout(() => pool.release('w.png#0'), 50);
    const changed = await poll;
    expect(performance.now() - t).toBeLessThan(5000);
    expect(changed.progress?.key === 'OMR_DETECTING_STAVES' && changed.progress.percent === 5).toBe(false);
  });
});

describe('listing, retention and delete', () => {
  it('lists newest first with status and expired filters and cursor pagination', async () => {
    const { client } = await setup();
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await client.createJob({ output: 'musicxml' }));
    const first = await client.listJobs({ limit: 2 });
    expect(first.jobs.map((j) => j.id)).toEqual([created[4]!.id, created[3]!.id]);
    const second = await client.listJobs({ limit: 2, cursor: first.nextCursor });
    expect(second.jobs.map((j) => j.id)).toEqual([created[2]!.id, created[1]!.id]);
    const third = await client.listJobs({ limit: 2, cursor: second.nextCursor });
    expect(third.jobs.map((j) => j.id)).toEqual([created[0]!.id]);
    expect(third.nextCursor).toBeUndefined();
    await client.cancelJob(created[1]!.id);
    expect((await client.listJobs({ status: 'canceled' })).jobs.map((j) => j.id)).toEqual([created[1]!.id]);
    expect((await client.listJobs({ expired: true })).jobs).toEqual([]);
    expect((await rejection(client.listJobs({ cursor: 'bogus' }))).code).toBe('INVALID_ARGUMENT');
  });

  it('erases musicxml jobs after retentionDays by the injected clock; the stripped record stays listable', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const { client } = await setup({}, { now: () => now, retentionDays: 30 });
    const job = await client.createJob({ output: 'musicxml', files: [pngPage('keep.png')], autoStart: true });
    expect(job.retention?.expiryDate).toBe('2026-01-31T00:00:00.000Z');
    await until(client, job.id, settled);
    now = new Date('2026-01-30T23:59:59Z');
    expect(await client.sweepRetention()).toBe(0);
    expect((await client.exportJob(job.id, 'musicxml')).data.length).toBeGreaterThan(100);
    now = new Date('2026-01-31T00:00:01Z');
    expect(await client.sweepRetention()).toBe(1);
    const erased = await client.getJob(job.id);
    expect(erased.status).toBe('done');
    expect(erased.retention?.expiredDate).toBe('2026-01-31T00:00:01.000Z');
    expect(await rejection(client.exportJob(job.id, 'musicxml'))).toMatchObject({ code: 'OMR_JOB_EXPIRED', status: 409 });
    expect(await rejection(client.getJobFile(job.id, 0))).toMatchObject({ code: 'OMR_JOB_EXPIRED' });
    expect((await client.listJobs({ expired: true })).jobs.map((j) => j.id)).toEqual([job.id]);
    expect((await client.listJobs({ expired: false })).jobs).toEqual([]);
  });

  it('deleteJob erases at once and is idempotent', async () => {
    const { client } = await setup();
    const job = await client.createJob({ output: 'musicxml', files: [pngPage('d.png')], autoStart: true });
    await until(client, job.id, settled);
    const deleted = await client.deleteJob(job.id);
    expect(deleted.retention?.expiredDate).toBeDefined();
    expect((await client.deleteJob(job.id)).retention?.expiredDate).toBe(deleted.retention?.expiredDate);
    expect(await rejection(client.exportJob(job.id, 'midi'))).toMatchObject({ code: 'OMR_JOB_EXPIRED' });
  });
});

describe('persistence across a restart', () => {
  it('finished jobs survive, and a job interrupted mid-run resumes on the next open', async () => {
    const store = createMemoryStore();
    const sharedStore = { ...store, close: async () => {} }; // both clients use one store, as a restart with the same directory does
    const pool1 = createFakePool({ hold: ['slow.png#0'] });
    const first = await createClient({ store: sharedStore, pool: pool1, sweepIntervalMs: 0 });
    const done = await first.createJob({ output: 'musicxml', files: [pngPage('quick.png')], autoStart: true });
    await until(first, done.id, settled);
    const running = await first.createJob({ output: 'musicxml', files: [pngPage('slow.png')], autoStart: true });
    await pool1.reached('slow.png#0');
    await first.close();
    await pool1.close();

    const second = await createClient({ store: sharedStore, pool: createFakePool(), sweepIntervalMs: 0 });
    clients.push(second);
    expect((await second.getJob(done.id)).status).toBe('done');
    expect((await second.exportJob(done.id, 'musicxml')).data.length).toBeGreaterThan(100);
    expect((await until(second, running.id, settled)).status).toBe('done');
  });
});

describe('library and tasks', () => {
  it('imports MusicXML at once (200) and exports a revision through a task', async () => {
    const { client } = await setup();
    const xml = readFileSync('test/fixtures/recognition/melody.musicxml');
    const imported = await client.importScore({ title: 'Melody', filename: 'melody.musicxml', data: xml.toString('base64'), dataEncoding: 'base64' });
    expect(imported.status).toBe(200);
    if (imported.status !== 200) return;
    expect(imported.score.title).toBe('Melody');
    expect(imported.revision).toBe(imported.score.revision);
    const task = await client.exportScore(imported.score.id, imported.revision, 'musicxml');
    expect(task).toMatchObject({ type: 'export', state: 'done', progress: { percent: 100 } });
    const body = await (await fetch(task.result!.url!)).text();
    expect(body).toContain('<score-partwise');
    expect(await client.getTask(task.id)).toEqual(task);
    expect(await rejection(client.exportScore(imported.score.id, 'rev_nope', 'musicxml'))).toMatchObject({ code: 'SCORE_NOT_FOUND', status: 404 });
    expect(await rejection(client.getScore('score_nope'))).toMatchObject({ code: 'SCORE_NOT_FOUND' });
  });

  it('a PDF needs supportsTasks, answers 202 with an import-omr task that ends done with score and revision', async () => {
    const { client } = await setup();
    const pdf = readFileSync('test/fixtures/recognition/melody.pdf');
    expect(await rejection(client.importScore({ filename: 'scan.pdf', data: pdf.toString('base64') }))).toMatchObject({ code: 'INVALID_ARGUMENT', status: 400 });
    const answer = await client.importScore({ title: 'Scanned', filename: 'scan.pdf', data: pdf.toString('base64'), dataEncoding: 'base64', supportsTasks: true });
    expect(answer.status).toBe(202);
    if (answer.status !== 202) return;
    expect(answer.task).toMatchObject({ type: 'import-omr', progress: { percent: expect.any(Number) } });
    let task = answer.task;
    for (let i = 0; i < 100 && !['done', 'error', 'canceled'].includes(task.state); i++) {
      await new Promise((r) => setTimeout(r, 20));
      task = await client.getTask(task.id);
    }
    expect(task).toMatchObject({ state: 'done', progress: { percent: 100 } });
    const score = await client.getScore(task.score!);
    expect(score).toMatchObject({ title: 'Scanned', revision: task.revision });
    expect((await client.listJobs()).jobs).toEqual([]); // the import's job is the task's, not the caller's
    expect(await rejection(client.getTask('task_nope'))).toMatchObject({ code: 'TASK_NOT_FOUND', status: 404 });
  });
});

describe('following a job', () => {
  it('followJob yields each change until the job settles; runJob does it in one call', async () => {
    const { client } = await setup({ pages: { 'f.png': 2 } });
    const job = await client.createJob({ output: 'musicxml', files: [pngPage('f.png')], autoStart: true });
    const snapshots: Job[] = [];
    for await (const snapshot of followJob(client, job.id)) snapshots.push(snapshot);
    expect(snapshots.length).toBeGreaterThan(1);
    expect(snapshots.at(-1)!.status).toBe('done');
    expect(new Set(snapshots.map((s) => JSON.stringify(s.progress))).size).toBe(snapshots.length);
    const updates: string[] = [];
    const done = await runJob(client, { output: 'musicxml', files: [pngPage('g.png')] }, { onUpdate: (j) => updates.push(j.status) });
    expect(done.status).toBe('done');
    expect(updates.at(-1)).toBe('done');
  });

  it('an aborted signal ends a long-poll early and stops following', async () => {
    const { client } = await setup();
    const draft = await client.createJob();
    const controller = new AbortController();
    const t = performance.now();
    setTimeout(() => controller.abort(), 50);
    expect((await client.getJob(draft.id, { wait: 20, signal: controller.signal })).status).toBe('draft');
    expect(performance.now() - t).toBeLessThan(5000);
    expect(await rejection(waitForJob(client, draft.id, { signal: controller.signal }))).toMatchObject({ code: 'ABORTED' });
  });
});

describe('the Node file store', () => {
  it('keeps jobs, files, results and credits across an engine restart; an interrupted job resumes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scoresight-jobs-'));
    try {
      const pool1 = createFakePool({ hold: ['slow.png#0'] });
      const first = createClient({ store: await createFileStore(dir), pool: pool1, sweepIntervalMs: 0, credits: 10 });
      const done = await first.createJob({ output: 'musicxml', files: [pngPage('quick.png')], autoStart: true });
      await until(first, done.id, settled);
      const running = await first.createJob({ output: 'musicxml', files: [pngPage('slow.png')], autoStart: true });
      await pool1.reached('slow.png#0');
      await first.close();
      await pool1.close();

      const second = createClient({ store: await createFileStore(dir), pool: createFakePool(), sweepIntervalMs: 0, credits: 10 });
      clients.push(second);
      expect((await second.getCapabilities()).remainingCredits).toBe(8);
      expect(new TextDecoder().decode((await second.exportJob(done.id, 'musicxml')).data)).toContain('<score-partwise');
      expect((await second.getJobFile(done.id, 0)).contentType).toBe('image/png');
      expect((await until(second, running.id, settled)).status).toBe('done');
      expect((await second.listJobs()).jobs.map((j) => j.id)).toEqual([running.id, done.id]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
