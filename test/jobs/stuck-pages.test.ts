/**
 * Pages that never end, through the public client: a page past the page
 * budget fails its job with ENGINE_TIMEOUT, a page that takes the process
 * past the memory budget with ENGINE_OUT_OF_MEMORY, and a cancel while a page is
 * read ends the job at once. Either way the worker reading the page is ended
 * and replaced, and the pool goes on serving the other jobs. The workers
 * here are fakes the real pool (`createPool`) runs as it runs worker threads:
 * ending one is recorded, and the page it held is never finished.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type LocalClient } from '../../src/jobs/local-client.js';
import type { Job } from '../../src/jobs/types.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { Store } from '../../src/storage/store.js';
import { createPool, type PoolMember, type PoolOptions, type RecognitionPool } from '../../src/workers/pool.js';
import { createFakePool, pngPage, type FakePool, type FakePoolOptions } from '../support/fake-pool.js';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});

/** A memory store that outlives the clients opening it, as a directory outlives a process. */
function durableStore(): Store {
  const store = createMemoryStore();
  return { ...store, close: async () => {} };
}

/** A pool of `size` fake workers recognising through one fake pool; counts the workers started and ended. */
function fakeWorkerPool(size: number, fakeOptions: FakePoolOptions, options: PoolOptions = {}) {
  const fake = createFakePool(fakeOptions);
  const counts = { spawned: 0, ended: 0 };
  const spawn = (): PoolMember => {
    counts.spawned++;
    return {
      calls: {
        recognize: (request, events) => fake.recognize(request, events),
        countPages: (file) => fake.countPages(file),
        renderPage: (files, page, maxSide) => fake.renderPage(files, page, maxSide),
      },
      onEnd: () => undefined,
      terminate: () => void counts.ended++,
      interruptible: true,
    };
  };
  const pool: RecognitionPool = createPool(size, spawn, options);
  opened.push(fake, pool);
  return { fake, pool, counts };
}

function client(pool: RecognitionPool | FakePool, store: Store = createMemoryStore()): LocalClient {
  const created = createClient({ store, pool, sweepIntervalMs: 0, credits: 10 });
  opened.push(created);
  return created;
}

/** Long-polls until the job satisfies `done`. */
async function until(c: LocalClient, id: string, done: (job: Job) => boolean): Promise<Job> {
  for (let i = 0; i < 200; i++) {
    const job = await c.getJob(id, { wait: i === 0 ? 0 : 1 });
    if (done(job)) return job;
  }
  throw new Error(`job ${id} never got there`);
}

const settled = (job: Job) => ['done', 'error', 'canceled', 'awaitingInput'].includes(job.status);

describe('a page that never ends', () => {
  it('fails its job with ENGINE_TIMEOUT, credits back; a fresh worker serves the next job; the job stays failed after a restart', async () => {
    const store = durableStore();
    const { fake, counts, pool } = fakeWorkerPool(1, { hold: ['stuck.png#0'] }, { pageTimeoutMs: 200 });
    const c = client(pool, store);
    const stuck = await c.createJob({ output: 'musicxml', files: [pngPage('stuck.png')], autoStart: true });
    const next = await c.createJob({ output: 'musicxml', files: [pngPage('next.png')], autoStart: true });
    await fake.reached('stuck.png#0');
    const failed = await until(c, stuck.id, settled);
    expect(failed).toMatchObject({ status: 'error', errorCode: 'ENGINE_TIMEOUT', errorMessage: expect.stringContaining('pageTimeoutMs') });
    expect((await until(c, next.id, settled)).status).toBe('done');
    expect(counts).toEqual({ spawned: 2, ended: 1 });
    expect((await c.getCapabilities()).remainingCredits).toBe(9);
    await c.close();
    // Opened again, the job is not tried again: it would only hang again.
    const reopened = client(createFakePool(), store);
    await reopened.ready;
    expect(await reopened.getJob(stuck.id)).toMatchObject({ status: 'error', errorCode: 'ENGINE_TIMEOUT' });
  });

  it('past the memory budget, fails its job with ENGINE_OUT_OF_MEMORY, credits back; the next job is served; the job stays failed after a restart', async () => {
    const store = durableStore();
    let resident = 0;
    const { fake, counts, pool } = fakeWorkerPool(1, { hold: ['bomb.png#0'] }, { memoryBudgetMb: 2048, residentMemory: () => resident });
    const c = client(pool, store);
    const bomb = await c.createJob({ output: 'musicxml', files: [pngPage('bomb.png')], autoStart: true });
    await fake.reached('bomb.png#0');
    resident = 3000 * 2 ** 20;
    const failed = await until(c, bomb.id, settled);
    expect(failed).toMatchObject({ status: 'error', errorCode: 'ENGINE_OUT_OF_MEMORY', errorMessage: expect.stringContaining('memoryBudgetMb') });
    resident = 0;
    const next = await c.createJob({ output: 'musicxml', files: [pngPage('next.png')], autoStart: true });
    expect((await until(c, next.id, settled)).status).toBe('done');
    expect(counts).toEqual({ spawned: 2, ended: 1 });
    expect((await c.getCapabilities()).remainingCredits).toBe(9);
    await c.close();
    const reopened = client(createFakePool(), store);
    await reopened.ready;
    expect(await reopened.getJob(bomb.id)).toMatchObject({ status: 'error', errorCode: 'ENGINE_OUT_OF_MEMORY' });
  });
});

describe('a cancel while a page is read', () => {
  it('ends the job at once, credits back, by ending its worker; the other job goes on, and a fresh worker serves the next', async () => {
    const { fake, counts, pool } = fakeWorkerPool(2, { hold: ['stuck.png#0', 'other.png#0'] });
    const c = client(pool);
    const stuck = await c.createJob({ output: 'musicxml', files: [pngPage('stuck.png')], autoStart: true });
    const other = await c.createJob({ output: 'musicxml', files: [pngPage('other.png')], autoStart: true });
    await Promise.all([fake.reached('stuck.png#0'), fake.reached('other.png#0')]);
    await until(c, stuck.id, (j) => j.progress?.key === 'OMR_DETECTING_STAVES');
    expect(await c.cancelJob(stuck.id)).toMatchObject({ status: 'canceled' });
    expect((await c.getJob(stuck.id)).status).toBe('canceled');
    expect(counts).toEqual({ spawned: 2, ended: 1 });
    // The other worker is still reading its page: the next job needs, and gets, a fresh one.
    const next = await c.createJob({ output: 'musicxml', files: [pngPage('next.png')], autoStart: true });
    expect((await until(c, next.id, settled)).status).toBe('done');
    expect(counts).toEqual({ spawned: 3, ended: 1 });
    fake.release('other.png#0');
    expect((await until(c, other.id, settled)).status).toBe('done');
    expect((await c.getCapabilities()).remainingCredits).toBe(8);
    // A second cancel is the usual harmless no-op.
    expect((await c.cancelJob(stuck.id)).status).toBe('canceled');
  });
});
