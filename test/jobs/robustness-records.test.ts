/**
 * The job engine under the conditions a probe found it failing in: requests
 * repeated at once, restarts (graceful and not), refused starts, drafts past
 * retention, a cancel racing the finishing stages, and accounts sharing one
 * recognition pool.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type LocalClient, type LocalClientOptions } from '../../src/jobs/local-client.js';
import type { Job } from '../../src/jobs/types.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { Store } from '../../src/storage/store.js';
import { createPool, type RecognitionPool } from '../../src/workers/pool.js';
import { buildPdf } from '../support/pdf-build.js';
import { createFakePool, pngPage, type FakePool, type FakePoolOptions } from '../support/fake-pool.js';
import { rejection } from '../support/rejection.js';

const DAY = 86_400_000;

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});

function client(options: LocalClientOptions & { pool: FakePool }): LocalClient {
  const created = createClient({ store: createMemoryStore(), sweepIntervalMs: 0, ...options });
  opened.push(created);
  return created;
}

function pool(options: FakePoolOptions = {}): FakePool {
  const created = createFakePool(options);
  opened.push(created);
  return created;
}

/** A memory store that outlives the clients opening it, as a directory outlives a process. */
function durableStore(): Store {
  const store = createMemoryStore();
  return { ...store, close: async () => {} };
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

describe('idempotency keys under concurrency', () => {
  it('ten concurrent autoStart creations with one key make one job and one charge', async () => {
    const c = client({ pool: pool({ hold: ['*#0'] }), credits: 20 });
    const body = { output: 'musicxml' as const, idempotencyKey: 'same', autoStart: true, files: [pngPage('p.png')] };
    const jobs = await Promise.all(Array.from({ length: 10 }, () => c.createJob(body)));
    expect(new Set(jobs.map((j) => j.id)).size).toBe(1);
    expect(jobs.every((j) => j.status === 'processing')).toBe(true);
    expect((await c.listJobs()).jobs).toHaveLength(1);
    expect((await c.getCapabilities()).remainingCredits).toBe(19);
  });

  it('ten concurrent draft creations with one key make one draft; other keys are not held up', async () => {
    const c = client({ pool: pool() });
    const jobs = await Promise.all([
      ...Array.from({ length: 10 }, () => c.createJob({ idempotencyKey: 'k' })),
      c.createJob({ idempotencyKey: 'other' }),
    ]);
    expect(new Set(jobs.slice(0, 10).map((j) => j.id)).size).toBe(1);
    expect(jobs[10]!.id).not.toBe(jobs[0]!.id);
    expect((await c.listJobs()).jobs).toHaveLength(2);
  });
});

describe('a refused autoStart', () => {
  it('402 leaves no draft and no key behind; the same key later creates the job once credits allow', async () => {
    const c = client({ pool: pool(), credits: 1 });
    const body = { output: 'musicxml' as const, idempotencyKey: 'paid', autoStart: true, files: [pngPage('a.png'), pngPage('b.png')] };
    expect(await rejection(c.createJob(body))).toMatchObject({ code: 'OMR_INSUFFICIENT_CREDITS', status: 402 });
    expect(await rejection(c.createJob(body))).toMatchObject({ code: 'OMR_INSUFFICIENT_CREDITS', status: 402 });
    expect((await c.listJobs()).jobs).toEqual([]);
    expect((await c.getCapabilities()).remainingCredits).toBe(1);
    const affordable = await c.createJob({ ...body, files: [pngPage('a.png')] });
    expect(affordable.status).toBe('processing');
    expect((await until(c, affordable.id, settled)).status).toBe('done');
  });

  it('concurrent repeats of a refused request are all refused, and nothing is stored', async () => {
    const c = client({ pool: pool(), credits: 1 });
    const body = { idempotencyKey: 'k', autoStart: true, files: [pngPage('a.png'), pngPage('b.png')] };
    const answers = await Promise.allSettled(Array.from({ length: 5 }, () => c.createJob(body)));
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill('rejected'));
    expect((await c.listJobs()).jobs).toEqual([]);
  });

  it('a PDF import refused for credits leaves no job and no task', async () => {
    const store = durableStore();
    const c = client({ pool: pool(), credits: 0, store });
    const pdf = buildPdf([{ width: 100, height: 100 }]);
    expect(await rejection(c.importScore({ filename: 'x.pdf', data: pdf, supportsTasks: true }))).toMatchObject({ code: 'OMR_INSUFFICIENT_CREDITS' });
    expect(await store.keys('jobs')).toEqual([]);
    expect(await store.keys('tasks')).toEqual([]);
    expect(await store.keys('blobs')).toEqual([]);
  });
});

describe('restarts', () => {
  /** Opens a client on `store` whose pool holds every run at its first page. */
  async function openHeld(store: Store, options: LocalClientOptions = {}) {
    const held = createFakePool({ hold: ['*#0'] });
    const c = createClient({ store, pool: held, sweepIntervalMs: 0, maxParallelJobs: 1, credits: 10, ...options });
    await c.ready;
    return { client: c, pool: held };
  }

  it('graceful restarts count no interruption: a running job and queued ones survive any number of them', async () => {
    const store = durableStore();
    let { client: c, pool: p } = await openHeld(store);
    const ids: string[] = [];
    for (const name of ['run.png', 'q1.png', 'q2.png']) ids.push((await c.createJob({ output: 'musicxml', files: [pngPage(name)], autoStart: true })).id);
    await p.reached('run.png#0');
    for (let restart = 0; restart < 5; restart++) {
      await c.close();
      await p.close();
      ({ client: c, pool: p } = await openHeld(store));
      for (const id of ids) expect((await c.getJob(id)).status).toBe('processing');
      await p.reached('run.png#0');
    }
    await c.close();
    await p.close();
    const last = client({ store, pool: pool(), credits: 10 });
    for (const id of ids) expect((await until(last, id, settled)).status).toBe('done');
    expect((await last.getCapabilities()).remainingCredits).toBe(7);
  });

  it('a crash while a page is read counts; after a fourth such crash the job fails, credits back; queued jobs never do', async () => {
    const store = durableStore();
    let c: LocalClient | undefined;
    const abandoned: LocalClient[] = [];
    const ids: string[] = [];
    for (let crash = 0; crash <= 4; crash++) {
      const opened = await openHeld(store);
      c = opened.client;
      if (crash === 0) {
        for (const name of ['run.png', 'q1.png', 'q2.png']) ids.push((await c.createJob({ output: 'musicxml', files: [pngPage(name)], autoStart: true })).id);
      }
      if (crash === 4) break;
      await opened.pool.reached('run.png#0');
      await until(c, ids[0]!, (j) => j.progress?.key === 'OMR_DETECTING_STAVES');
      // A crash: the process is gone without closing anything; the next one opens the same store.
      abandoned.push(c);
    }
    expect(await c!.getJob(ids[0]!)).toMatchObject({ status: 'error', errorCode: 'WORKER_CRASHED', errorMessage: expect.stringContaining('4 times') });
    expect((await c!.getJob(ids[1]!)).status).toBe('processing');
    expect((await c!.getJob(ids[2]!)).status).toBe('processing');
    expect((await c!.getCapabilities()).remainingCredits).toBe(8);
    opened.push(c!, ...abandoned);
  });
});

describe('retention of drafts', () => {
  function clocked() {
    let offset = 0;
    const store = durableStore();
    const c = client({ pool: pool(), store, retentionDays: 30, now: () => new Date(Date.now() + offset) });
    return { client: c, store, advance: (ms: number) => (offset += ms) };
  }

  it('a musicxml draft past retention has its upload erased; it stays listed as expired and can no longer start', async () => {
    const { client: c, store, advance } = clocked();
    const draft = await c.createJob({ output: 'musicxml' });
    await c.addJobFile(draft.id, pngPage('secret.png'));
    advance(29 * DAY);
    expect(await c.sweepRetention()).toBe(0);
    expect((await c.getJobFile(draft.id, 0)).contentType).toBe('image/png');
    advance(2 * DAY);
    expect(await c.sweepRetention()).toBe(1);
    expect(await store.keys('blobs', draft.id)).toEqual([]);
    const erased = await c.getJob(draft.id);
    expect(erased).toMatchObject({ status: 'draft', retention: { expiredDate: expect.any(String) } });
    expect(await rejection(c.getJobFile(draft.id, 0))).toMatchObject({ code: 'OMR_JOB_EXPIRED', status: 409 });
    expect(await rejection(c.startJob(draft.id))).toMatchObject({ code: 'OMR_JOB_EXPIRED', status: 409 });
    expect(await rejection(c.addJobFile(draft.id, pngPage('late.png')))).toMatchObject({ code: 'OMR_JOB_EXPIRED' });
    expect((await c.listJobs({ expired: true })).jobs.map((j) => j.id)).toEqual([draft.id]);
    expect((await store.get('jobs', draft.id))!.files).toEqual([expect.objectContaining({ filename: '', mimeType: 'image/png', pages: 1 })]);
    expect(await c.sweepRetention()).toBe(0);
  });

  it('a library draft past retention is removed with its upload; its idempotency key is free again', async () => {
    const { client: c, store, advance } = clocked();
    const draft = await c.createJob({ idempotencyKey: 'lib', files: [pngPage('page.png')] });
    const started = await c.createJob({ files: [pngPage('run.png')], autoStart: true });
    await until(c, started.id, settled);
    advance(31 * DAY);
    expect(await c.sweepRetention()).toBe(1);
    expect(await rejection(c.getJob(draft.id))).toMatchObject({ code: 'OMR_JOB_NOT_FOUND', status: 404 });
    expect(await store.keys('blobs', draft.id)).toEqual([]);
    expect(await store.keys('jobs')).toEqual([started.id]);
    expect((await c.getJob(started.id)).status).toBe('done');
    const again = await c.createJob({ idempotencyKey: 'lib' });
    expect(again.id).not.toBe(draft.id);
  });
});

describe('a cancel racing the finishing stages', () => {
  it('cancelling right after submitting details leaves no library score behind', async () => {
    const store = durableStore();
    const c = client({ pool: pool(), store });
    for (let round = 0; round < 5; round++) {
      const job = await c.createJob({ interactiveSteps: ['details'], files: [pngPage(`r${round}.png`)], autoStart: true });
      expect((await until(c, job.id, settled)).status).toBe('awaitingInput');
      const submitted = c.submitJobStep(job.id, 'details', { step: 'details', title: 'Race' });
      const canceled = c.cancelJob(job.id);
      await submitted;
      expect((await canceled).status).toBe('canceled');
      const final = await until(c, job.id, (j) => j.status !== 'processing');
      expect(final.status).toBe('canceled');
      expect(final.result).toBeUndefined();
    }
    expect(await store.keys('scores')).toEqual([]);
    expect(await store.keys('revisions')).toEqual([]);
  });

  it('a submission that wins the race finishes with its score, and the late cancel is a no-op', async () => {
    const store = durableStore();
    const c = client({ pool: pool(), store });
    const job = await c.createJob({ interactiveSteps: ['details'], files: [pngPage('w.png')], autoStart: true });
    await until(c, job.id, settled);
    await c.submitJobStep(job.id, 'details', { step: 'details', title: 'Won' });
    const done = await until(c, job.id, (j) => j.status !== 'processing');
    expect(done.status).toBe('done');
    expect((await c.cancelJob(job.id)).status).toBe('done');
    expect(await store.keys('scores')).toEqual([done.result!.score]);
  });
});

describe('fair turns at a shared pool', () => {
  /** A pool that runs one call at a time, as a one-worker pool does, recognising through `fake`. */
  function oneAtATime(fake: FakePool): RecognitionPool {
    const limited = createPool(1, () => ({
      calls: {
        recognize: (request, events) => fake.recognize(request, events),
        countPages: (file) => fake.countPages(file),
        renderPage: (files, page, maxSide) => fake.renderPage(files, page, maxSide),
      },
      onEnd: () => {},
      terminate: () => {},
    }));
    opened.push(limited);
    return limited;
  }

  /** Waits until the pool has started `count` runs (each held at its first page); if it never does, the test's timeout ends it. */
  async function startedCount(fake: FakePool, count: number): Promise<string[]> {
    while (fake.started.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
    return fake.started.slice(0, count);
  }

  it("one account's many queued jobs do not starve another account's single job", async () => {
    const fake = pool({ hold: ['*#0'] });
    const shared = oneAtATime(fake);
    // Two accounts' engines recognise through the same one-at-a-time pool.
    const busyEngine = createClient({ store: createMemoryStore(), pool: shared, sweepIntervalMs: 0 });
    const quietEngine = createClient({ store: createMemoryStore(), pool: shared, sweepIntervalMs: 0 });
    opened.push(busyEngine, quietEngine);
    for (let i = 1; i <= 6; i++) await busyEngine.createJob({ output: 'musicxml', files: [pngPage(`a${i}.png`)], autoStart: true });
    await fake.reached('a1.png#0');
    const single = await quietEngine.createJob({ output: 'musicxml', files: [pngPage('b1.png')], autoStart: true });
    fake.release('a1.png#0');
    await fake.reached('a2.png#0');
    fake.release('a2.png#0');
    // a2 was already waiting inside the pool when b1 came; b1 is next, not after a3…a6.
    expect(await startedCount(fake, 3)).toEqual(['a1.png', 'a2.png', 'b1.png']);
    fake.release('b1.png#0');
    expect((await until(quietEngine, single.id, settled)).status).toBe('done');
    for (let i = 3; i <= 6; i++) {
      await fake.reached(`a${i}.png#0`);
      fake.release(`a${i}.png#0`);
    }
    expect(fake.started).toEqual(['a1.png', 'a2.png', 'b1.png', 'a3.png', 'a4.png', 'a5.png', 'a6.png']);
  });
});
