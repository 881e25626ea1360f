/**
 * A file store that fails — its directory cannot be made, or a collection
 * cannot be written — fails its own account's calls with STORAGE_FAILED,
 * and nobody else's. Directories are blocked by putting a plain file where
 * one must go, which holds whoever runs the tests (file modes do not stop
 * root).
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type EngineWarning, type LocalClient } from '../../src/jobs/local-client.js';
import { createRemoteClient } from '../../src/remote/remote-client.js';
import { createOmrServer } from '../../src/server/server.js';
import { OmrError } from '../../src/errors.js';
import { createFileStore } from '../../src/storage/fs-store.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { Store } from '../../src/storage/store.js';
import { createFakePool, pngPage, type FakePool } from '../support/fake-pool.js';
import { rejection } from '../support/rejection.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function freshDirectory(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), 'scoresight-failing-'));
  cleanup.push(() => rm(directory, { recursive: true, force: true }));
  return directory;
}

function sharedPool(): FakePool {
  const pool = createFakePool();
  cleanup.push(() => pool.close());
  return pool;
}

async function account(directory: string, pool: FakePool, warnings: EngineWarning[] = []): Promise<LocalClient> {
  const client = createClient({ store: await createFileStore(directory), pool, sweepIntervalMs: 0, credits: 5, onWarning: (w) => warnings.push(w) });
  cleanup.push(() => client.close());
  await client.ready;
  return client;
}

describe('one account whose storage fails', () => {
  it('an account directory that cannot be made: its engine still opens, answers STORAGE_FAILED, and heals; the other account is served', async () => {
    const root = await freshDirectory();
    const pool = sharedPool();
    await writeFile(path.join(root, 'broken'), 'a file where the account directory belongs');
    const warnings: EngineWarning[] = [];
    const broken = await account(path.join(root, 'broken'), pool, warnings);
    const healthy = await account(path.join(root, 'healthy'), pool);

    expect(warnings.map((w) => w.code)).toEqual(['STORAGE_FAILED']);
    for (const call of [broken.createJob(), broken.listJobs(), broken.getCapabilities()]) {
      expect(await rejection(call)).toMatchObject({ code: 'STORAGE_FAILED', status: 500 });
    }
    const job = await healthy.createJob({ output: 'musicxml', files: [pngPage('ok.png')], autoStart: true });
    let current = job;
    while (current.status !== 'done') current = await healthy.getJob(job.id, { wait: 1 });
    expect(warnings).toHaveLength(1); // reported once, not on every call

    // Repaired: the next call opens the store and works.
    await rm(path.join(root, 'broken'));
    await mkdir(path.join(root, 'broken'));
    expect((await broken.createJob()).status).toBe('draft');
    expect((await broken.getCapabilities()).remainingCredits).toBe(5);
  });

  it('a collection that cannot be written fails the calls that write it with STORAGE_FAILED, the record unchanged', async () => {
    const root = await freshDirectory();
    const pool = sharedPool();
    const broken = await account(path.join(root, 'broken'), pool);
    const healthy = await account(path.join(root, 'healthy'), pool);
    const draft = await broken.createJob({ output: 'musicxml' });
    await rm(path.join(root, 'broken', 'blobs'), { recursive: true });
    await writeFile(path.join(root, 'broken', 'blobs'), 'not a directory');

    expect(await rejection(broken.createJob({ files: [pngPage('a.png')], autoStart: true }))).toMatchObject({ code: 'STORAGE_FAILED', status: 500 });
    expect(await rejection(broken.addJobFile(draft.id, pngPage('b.png')))).toMatchObject({ code: 'STORAGE_FAILED' });
    expect((await broken.getJob(draft.id)).status).toBe('draft');
    // Nothing was charged for the job that could not be stored.
    expect((await broken.getCapabilities()).remainingCredits).toBe(5);
    expect((await broken.listJobs()).jobs.map((j) => j.id)).toEqual([draft.id]);
    expect((await healthy.createJob({ files: [pngPage('a.png')], autoStart: true })).status).toBe('processing');
  });

  it('the server starts with one account directory unusable, serves the others, and answers that account 500 STORAGE_FAILED', async () => {
    const root = await freshDirectory();
    const pool = sharedPool();
    await writeFile(path.join(root, 'bob'), 'a file where the account directory belongs');
    const server = createOmrServer({
      // The unusable account first: the capabilities anyone may read come from an account that answers.
      tokens: [
        { token: 'bob-token', account: 'bob', scopes: ['omr'], kind: 'personal' },
        { token: 'alice-token', account: 'alice', scopes: ['omr'], kind: 'personal' },
      ],
      storeDirectory: root,
      clientOptions: { pool, sweepIntervalMs: 0, onWarning: () => {} },
    });
    cleanup.push(() => server.close());
    const baseUrl = await server.listen(0, '127.0.0.1');
    const alice = createRemoteClient({ baseUrl, token: 'alice-token' });
    const bob = createRemoteClient({ baseUrl, token: 'bob-token' });
    expect((await alice.createJob({ output: 'musicxml' })).status).toBe('draft');
    expect(await rejection(bob.createJob({ output: 'musicxml' }))).toMatchObject({ code: 'STORAGE_FAILED', status: 500 });
    expect((await alice.listJobs()).jobs).toHaveLength(1);
    const anonymous = await fetch(`${baseUrl}/omr/capabilities`);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).not.toHaveProperty('remainingCredits');
  });
});

describe('jobs whose store fails mid-run', () => {
  /** Lets the test wait for what the engine reports, never for a clock. */
  function reported(warnings: EngineWarning[], text: string): Promise<void> {
    return new Promise((resolve) => {
      const check = () => (warnings.some((w) => w.message.includes(text)) ? resolve() : setImmediate(check));
      check();
    });
  }

  /** Long-polls a job until it leaves `processing`, at most 30 polls (a job left stranded must fail the test, not hold it). */
  async function settled(client: LocalClient, id: string, beforeEachPoll = () => {}): Promise<string> {
    let current = await client.getJob(id);
    for (let polls = 0; current.status === 'processing' && polls < 30; polls++) {
      beforeEachPoll();
      current = await client.getJob(id, { wait: 1 });
    }
    return current.status;
  }

  it('a run whose end cannot be stored is run again on the next request once the store works: done, charged once', async () => {
    const root = await freshDirectory();
    const directory = path.join(root, 'carol');
    const pool = createFakePool({ hold: ['a.png#0'] });
    cleanup.push(() => pool.close());
    const warnings: EngineWarning[] = [];
    const client = await account(directory, pool, warnings);
    const job = await client.createJob({ output: 'musicxml', files: [pngPage('a.png')], autoStart: true });
    await pool.reached('a.png#0');
    // Its progress is stored before the directory goes, so no write of it is in flight meanwhile.
    for (let polls = 0; polls < 60 && (await client.getJob(job.id, { wait: 1 })).progress?.percent !== 13.5; polls++);
    expect((await client.getJob(job.id)).progress?.percent).toBe(13.5); // 5 % + 85 % × 0.1, the page prepared
    // The page is being read when the account's directory goes: its result, then its error, cannot be stored.
    await rename(directory, `${directory}.aside`);
    await writeFile(directory, 'a file where the account directory belongs');
    pool.release('a.png#0');
    await reported(warnings, 'could not record how its run ended');
    const stranded = await client.getJob(job.id);
    expect([stranded.status, stranded.progress?.key]).toEqual(['processing', 'OMR_DETECTING_STAVES']);
    expect((await client.getJob(job.id)).status).toBe('processing'); // still broken: it waits, nothing run
    expect(pool.started).toEqual(['a.png']);

    await rm(directory);
    await rename(`${directory}.aside`, directory);
    // The run again, held where the first was, is let go on each poll.
    expect(await settled(client, job.id, () => pool.release('a.png#0'))).toBe('done');
    expect(pool.started).toEqual(['a.png', 'a.png']);
    expect((await client.getCapabilities()).remainingCredits).toBe(4);
  });

  it('a job found running at open that cannot be requeued (the store takes no writes) is resumed on a later request', async () => {
    const memory = createMemoryStore();
    let refuseWrites = false;
    const store: Store = {
      ...memory,
      close: async () => {}, // the same store opens again below
      put: async (collection, key, value) => {
        if (refuseWrites) throw new OmrError('STORAGE_FAILED', 'the store is read-only');
        return memory.put(collection, key, value);
      },
    };
    const pool = createFakePool({ hold: ['a.png#0'] });
    cleanup.push(() => pool.close());
    const first = createClient({ store, pool, sweepIntervalMs: 0, credits: 5, onWarning: () => {} });
    const job = await first.createJob({ output: 'musicxml', files: [pngPage('a.png')], autoStart: true });
    await pool.reached('a.png#0');
    refuseWrites = true; // as a crash would, the record stays "reading a page"
    await first.close();

    const warnings: EngineWarning[] = [];
    const second = createClient({ store, pool: createFakePool(), sweepIntervalMs: 0, credits: 5, onWarning: (w) => warnings.push(w) });
    cleanup.push(() => second.close());
    await second.ready;
    expect(warnings.map((w) => w.code)).toEqual(['STORAGE_FAILED']);
    expect((await second.getJob(job.id)).status).toBe('processing');
    refuseWrites = false;
    expect(await settled(second, job.id)).toBe('done');
    expect((await second.getCapabilities()).remainingCredits).toBe(4);
  });
});

describe('credits when the balance cannot be written', () => {
  it('a refund whose write fails still stands, and the next write stores it; a charge whose write fails never happened', async () => {
    const memory = createMemoryStore();
    let failMeta = false;
    const store: Store = {
      ...memory,
      put: async (collection, key, value) => {
        if (failMeta && collection === 'meta') throw new OmrError('STORAGE_FAILED', 'the disk is full', { status: 507 });
        return memory.put(collection, key, value);
      },
    };
    const pool = createFakePool({ hold: ['a.png#0'] }); // the first job holds the one slot; the second stays queued
    cleanup.push(() => pool.close());
    const warnings: EngineWarning[] = [];
    const client = createClient({ store, pool, sweepIntervalMs: 0, credits: 5, maxParallelJobs: 1, onWarning: (w) => warnings.push(w) });
    cleanup.push(() => client.close());
    await client.createJob({ output: 'musicxml', files: [pngPage('a.png')], autoStart: true });
    const queued = await client.createJob({ output: 'musicxml', files: [pngPage('b.png'), pngPage('c.png')], autoStart: true });
    expect((await client.getCapabilities()).remainingCredits).toBe(2);

    failMeta = true;
    expect((await client.cancelJob(queued.id)).status).toBe('canceled');
    expect(warnings.map((w) => w.code)).toEqual(['STORAGE_FAILED']);
    expect((await client.getCapabilities()).remainingCredits).toBe(4);
    expect(await rejection(client.createJob({ files: [pngPage('d.png')], autoStart: true }))).toMatchObject({ code: 'STORAGE_FAILED', status: 507 });
    expect((await client.getCapabilities()).remainingCredits).toBe(4);

    failMeta = false;
    await client.createJob({ output: 'musicxml', files: [pngPage('e.png')], autoStart: true });
    expect(await memory.get('meta', 'credits')).toBe(3);
  });
});
