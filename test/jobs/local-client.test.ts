/**
 * What only the local engine has, through its public interface: the score
 * with its evidence, worker crashes, restarts with the memory and file
 * stores, and the follow helpers. The spec's scenarios themselves run for
 * the local client and the remote one alike in test/conformance/.
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
import type { Store } from '../../src/storage/store.js';
import { createFakePool, pngPage, type FakePool, type FakePoolOptions } from '../support/fake-pool.js';
import { heldDeadlines } from '../support/held-deadlines.js';
import { buildPdf } from '../support/pdf-build.js';
import { rejection } from '../support/rejection.js';
import { writeMidi } from '../../src/exports/midi.js';
import { readMusicXml } from '../../src/import/musicxml/read-score.js';
import type { ScoreParser } from '../../src/workers/parse-api.js';
import { createInProcessParser } from '../../src/workers/parse-service.js';

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

/**
 * A client finishes one job and is closed while a second is mid-page; a new
 * client then opens the store that `openStore` gives again.
 */
async function interruptAndReopen(openStore: () => Promise<Store>, options: LocalClientOptions = {}) {
  const pool = createFakePool({ hold: ['slow.png#0'] });
  const first = createClient({ store: await openStore(), pool, sweepIntervalMs: 0, ...options });
  const done = await first.createJob({ output: 'musicxml', files: [pngPage('quick.png')], autoStart: true });
  await until(first, done.id, settled);
  const running = await first.createJob({ output: 'musicxml', files: [pngPage('slow.png')], autoStart: true });
  await pool.reached('slow.png#0');
  await first.close();
  await pool.close();
  const second = createClient({ store: await openStore(), pool: createFakePool(), sweepIntervalMs: 0, ...options });
  clients.push(second);
  return { second, done, running };
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

describe('beside the spec', () => {
  it("getJobResult gives a done job's score with the review applied, and refuses before done", async () => {
    const { client, pool } = await setup({ hold: ['r.png#0'] });
    const job = await client.createJob({ output: 'musicxml', interactiveSteps: ['details'], files: [pngPage('r.png')], autoStart: true });
    expect(await rejection(client.getJobResult(job.id))).toMatchObject({ code: 'OMR_JOB_NOT_DONE' });
    await pool.reached('r.png#0');
    pool.release('r.png#0');
    await until(client, job.id, settled);
    await client.submitJobStep(job.id, 'details', { step: 'details', title: 'Ode', instruments: [{ index: 0, instrumentId: 'wind.clarinet-bflat', midiProgram: 40 }] });
    await until(client, job.id, settled);
    const result = await client.getJobResult(job.id);
    expect(result).toMatchObject({ pageCount: 1, modelVersion: 'fake-1' });
    expect(result.score.credits.title).toBe('Ode');
    expect(result.score.parts[0]!).toMatchObject({ instrumentId: 'wind.clarinet-bflat', midiProgram: 71, transposition: { diatonic: -1, chromatic: -2 } });
  });

  it('a job that skipped or turned a page says so in its result and in getJobResult', async () => {
    const skipped = { code: 'NO_MUSIC_DETECTED' as const, message: 'No music staves were found on this page.' };
    const { client } = await setup({ pages: { 'book.png': 3 }, pageReports: { 0: { skipped, confidence: 0 }, 2: { turned: 180 } } });
    const job = await client.createJob({ output: 'musicxml', files: [pngPage('book.png')], autoStart: true });
    const done = await until(client, job.id, settled);
    expect(done.result?.warnings).toEqual([
      'Page 1 was skipped: No music staves were found on this page.',
      'Page 3 came upside down; it was turned upright before it was read.',
    ]);
    const result = await client.getJobResult(job.id);
    expect(result.pages.map((p) => [p.page, p.turned, p.skipped?.code])).toEqual([[0, 0, 'NO_MUSIC_DETECTED'], [1, 0, undefined], [2, 180, undefined]]);
    // A job with nothing to say carries no warnings at all, as the service's jobs do not.
    const other = (await setup()).client;
    const plain = await until(other, (await other.createJob({ output: 'musicxml', files: [pngPage('plain.png')], autoStart: true })).id, settled);
    expect(plain.result).not.toHaveProperty('warnings');
  });

  it('a crashed worker fails only its own job, with credits reverted', async () => {
    const { client } = await setup({ fail: { 'crash.png': new OmrError('WORKER_CRASHED', 'The recognition worker stopped unexpectedly.') } }, { credits: 2 });
    const job = await client.createJob({ output: 'musicxml', files: [pngPage('crash.png')], autoStart: true });
    expect(await until(client, job.id, settled)).toMatchObject({ status: 'error', errorCode: 'WORKER_CRASHED' });
    expect((await client.getCapabilities()).remainingCredits).toBe(2);
  });
});

describe('page counts', () => {
  const melodyPdf = readFileSync(new URL('../fixtures/recognition/melody.pdf', import.meta.url));
  const brokenPdf = { file: new Uint8Array(melodyPdf.subarray(0, 600)), filename: 'broken.pdf' };
  // A Node Buffer, as readFileSync gives: counted as the same bytes in a Uint8Array would be.
  const lockedPdf = { file: readFileSync(new URL('../fixtures/input/encrypted-aes256.pdf', import.meta.url)), filename: 'locked.pdf' };

  it('a PDF whose pages cannot be counted is refused with the reader’s error: no job, no file, no credit charged', async () => {
    const { client, pool } = await setup({}, { credits: 5 });
    expect(await rejection(client.createJob({ output: 'musicxml', files: [brokenPdf], autoStart: true }))).toMatchObject({ code: 'CORRUPTED_FILE', status: 400 });
    expect(await rejection(client.createJob({ output: 'musicxml', files: [lockedPdf], autoStart: true }))).toMatchObject({ code: 'ENCRYPTED_PDF', status: 400 });
    const draft = await client.createJob({ output: 'musicxml' });
    expect(await rejection(client.addJobFile(draft.id, brokenPdf))).toMatchObject({ code: 'CORRUPTED_FILE' });
    expect(await rejection(client.startJob(draft.id))).toMatchObject({ code: 'OMR_JOB_NO_FILES' });
    expect((await client.listJobs()).jobs.map((j) => j.id)).toEqual([draft.id]);
    expect((await client.getCapabilities()).remainingCredits).toBe(5);
    expect(pool.started).toEqual([]);
  });

  it('a PDF is charged its pages, and one over the page limit is refused before a charge', async () => {
    const { client } = await setup({}, { credits: 5, maxPages: 2 });
    const twoPages = { file: buildPdf([{ width: 72, height: 72 }, { width: 72, height: 72 }]), filename: 'two.pdf' };
    const threePages = { file: buildPdf([{ width: 72, height: 72 }, { width: 72, height: 72 }, { width: 72, height: 72 }]), filename: 'three.pdf' };
    expect(await rejection(client.createJob({ output: 'musicxml', files: [threePages], autoStart: true }))).toMatchObject({ code: 'OMR_TOO_MANY_PAGES' });
    expect((await client.createJob({ output: 'musicxml', files: [twoPages], autoStart: true })).estimatedCredits).toBe(2);
    expect((await client.getCapabilities()).remainingCredits).toBe(3);
  });
});

describe('persistence across a restart', () => {
  it('finished jobs survive, and a job interrupted mid-run resumes on the next open', async () => {
    const store = createMemoryStore();
    // Both clients use one store, as a restart with the same directory does.
    const { second, done, running } = await interruptAndReopen(async () => ({ ...store, close: async () => {} }));
    expect((await second.getJob(done.id)).status).toBe('done');
    expect((await second.exportJob(done.id, 'musicxml')).data.length).toBeGreaterThan(100);
    expect((await until(second, running.id, settled)).status).toBe('done');
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
    // The poll's deadline never runs out here: only the abort can end it (else the test times out).
    const deadlines = heldDeadlines();
    const { client } = await setup({}, { longPollTimer: deadlines.longPollTimer });
    const draft = await client.createJob();
    const controller = new AbortController();
    const held = deadlines.next();
    const poll = client.getJob(draft.id, { wait: 20, signal: controller.signal });
    const deadline = await held;
    expect(deadline.ms).toBe(20_000);
    controller.abort();
    expect((await poll).status).toBe('draft');
    await deadline.stopped;
    expect(await rejection(waitForJob(client, draft.id, { signal: controller.signal }))).toMatchObject({ code: 'ABORTED' });
  });
});

describe('the Node file store', () => {
  it('keeps jobs, files, results and credits across an engine restart; an interrupted job resumes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scoresight-jobs-'));
    try {
      const { second, done, running } = await interruptAndReopen(() => createFileStore(dir), { credits: 10 });
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

describe('score imports', () => {
  it('store the score the parser gives as JSON text as it is, titled as asked; a MIDI file is titled by its name', async () => {
    const melody = readFileSync(new URL('../fixtures/recognition/melody.musicxml', import.meta.url));
    const calls: (string | undefined)[] = [];
    const inProcess = createInProcessParser();
    const parser: ScoreParser = { ...inProcess, readScore: (file, options) => (calls.push(options?.title), inProcess.readScore(file, options)) };
    const dir = mkdtempSync(join(tmpdir(), 'scoresight-import-'));
    try {
      const { client } = await setup({}, { store: await createFileStore(dir), parser });
      const imported = await client.importScore({ filename: 'melody.musicxml', data: melody.toString('base64'), dataEncoding: 'base64', title: 'Asked' });
      if (imported.status !== 200) throw new Error('expected the score at once');
      expect(imported.score.title).toBe('Asked');
      const task = await client.exportScore(imported.score.id, imported.revision, 'musicxml');
      const xml = Buffer.from(task.result!.url!.split(',')[1]!, 'base64').toString('utf8');
      expect(xml).toContain('<work-title>Asked</work-title>');
      expect((await client.exportScore(imported.score.id, imported.revision, 'midi')).result!.url).toMatch(/^data:audio\/midi;base64,TVRoZA/);
      const fromMidi = await client.importScore({ filename: 'tune.mid', data: Buffer.from(writeMidi(readMusicXml(melody))).toString('base64'), dataEncoding: 'base64' });
      if (fromMidi.status !== 200) throw new Error('expected the score at once');
      expect(fromMidi.score.title).toBe('tune');
      expect(calls).toEqual(['Asked', 'tune']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
