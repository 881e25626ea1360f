/**
 * Recognition off the main thread: a real worker_threads pool against the
 * in-process pool (same calls, same results, same errors), and the pool's
 * own behaviour — queueing, crashes, closing — with a test worker that
 * misbehaves on request (`test-worker.ts`).
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { OmrError } from '../../src/errors.js';
import { decodePng } from '../../src/input/png.js';
import type { InputFile } from '../../src/input/decode-pages.js';
import { RECOGNITION_MODEL_VERSION } from '../../src/recognize/recognize-score.js';
import { placedNotes } from '../../src/score/timeline.js';
import { createInProcessPool } from '../../src/workers/in-process.js';
import { createPool, type PoolMember } from '../../src/workers/pool.js';
import type { RecognitionOutcome } from '../../src/workers/recognition-api.js';
import { spawnNodeWorker } from '../../src/workers/node-worker.js';
import { createRecognitionPool, defaultPoolSize } from '../../src/workers/worker-pool.js';
import { buildPdf } from '../support/pdf-build.js';

const fixture = (path: string): InputFile => ({
  filename: path.slice(path.lastIndexOf('/') + 1),
  data: new Uint8Array(readFileSync(new URL(`../fixtures/${path}`, import.meta.url))),
});
const melodyPdf = fixture('recognition/melody.pdf');
const melodyPng = fixture('recognition/melody-300dpi.png');
/** Three pages of 1 × 1, 2 × 1 and 1 × 2 inches. */
const threePages: InputFile = {
  filename: 'three.pdf',
  data: buildPdf([
    { width: 72, height: 72 },
    { width: 144, height: 72 },
    { width: 72, height: 144 },
  ]),
};

async function rejection(promise: Promise<unknown>): Promise<OmrError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(OmrError);
  return error as OmrError;
}

describe('recognition in worker threads', () => {
  const pool = createRecognitionPool({ size: 2 });
  const local = createInProcessPool();
  afterAll(() => Promise.all([pool.close(), local.close()]));

  it('recognises melody.pdf exactly as the calling thread does, with progress and a thumbnail', { timeout: 120_000 }, async () => {
    const before = melodyPdf.data.slice();
    const stages: string[] = [];
    let stagesWhenDone: string[] = [];
    let started = 0;
    const [inWorker, inProcess] = await Promise.all([
      pool
        .recognize({ files: [melodyPdf] }, { onStage: (page, stage) => stages.push(`${page} ${stage}`) }, { onStart: () => started++ })
        .finally(() => (stagesWhenDone = [...stages])),
      local.recognize({ files: [melodyPdf] }),
    ]);
    expect([...placedNotes(inWorker.score)]).toHaveLength([...placedNotes(inProcess.score)].length);
    expect(inWorker.score).toEqual(inProcess.score);
    expect(inWorker.thumbnail).toEqual(inProcess.thumbnail);
    const thumbnail = decodePng(inWorker.thumbnail);
    expect(Math.max(thumbnail.width, thumbnail.height)).toBe(512);
    expect(inWorker.pageCount).toBe(1);
    expect(inWorker.modelVersion).toBe(RECOGNITION_MODEL_VERSION);
    // Every stage is told before the outcome arrives, though they travel on different channels.
    expect(stagesWhenDone).toEqual(['0 prepared', '0 staves', '0 symbols', '0 assembled']);
    expect(started).toBe(1);
    // The worker got a copy: the caller's bytes are neither detached nor changed.
    expect(melodyPdf.data).toEqual(before);
  });

  it('counts the pages of a PDF and of an image', async () => {
    expect(await Promise.all([pool.countPages(melodyPdf), pool.countPages(melodyPng), pool.countPages(threePages)])).toEqual([1, 1, 3]);
  });

  it('renders any page over all files as a PNG, shrunk to fit', async () => {
    const files = [melodyPng, threePages];
    // The PDF's second page: 2 × 1 inches at recognition's 200 dpi, fitted into 100 px.
    expect(sizeOf(await pool.renderPage(files, 2, 100))).toEqual([100, 50]);
    expect(sizeOf(await pool.renderPage(files, 3))).toEqual([200, 400]);
    const page = decodePng(melodyPng.data);
    expect(sizeOf(await pool.renderPage(files, 0, 700))).toEqual([Math.round((page.width * 700) / page.height), 700]);
    const missing = await rejection(pool.renderPage(files, 4));
    expect([missing.code, missing.message]).toEqual(['INVALID_ARGUMENT', 'Page 4 does not exist: the files have 4 pages.']);
  });

  it.each([
    ['a corrupt PDF', { filename: 'broken.pdf', data: new TextEncoder().encode('%PDF-1.7\nnot a PDF at all') }, 'CORRUPTED_FILE'],
    ['a PDF that needs a password', fixture('input/encrypted-aes256.pdf'), 'ENCRYPTED_PDF'],
    ['a MusicXML score', fixture('recognition/melody.musicxml'), 'UNSUPPORTED_FILE_TYPE'],
  ])('refuses %s from inside the worker with the same OmrError as the calling thread', async (_, file, code) => {
    const [inWorker, inProcess] = await Promise.all([rejection(pool.countPages(file)), rejection(local.countPages(file))]);
    expect(inWorker.code).toBe(code);
    expect(inWorker.toJSON()).toEqual(inProcess.toJSON());
    // Recognition refuses it the same way.
    expect((await rejection(pool.recognize({ files: [file] }))).toJSON()).toEqual(inProcess.toJSON());
  });

  it('stops a run when beforePage rejects, with that error', async () => {
    const cancel = new OmrError('OMR_JOB_CANCELED', 'The job was cancelled.', { status: 409 });
    const stages: string[] = [];
    const pages: number[] = [];
    const error = await rejection(
      pool.recognize(
        { files: [melodyPdf] },
        {
          beforePage: async (page) => {
            pages.push(page);
            throw cancel;
          },
          onStage: (page, stage) => stages.push(`${page} ${stage}`),
        },
      ),
    );
    expect(error.toJSON()).toEqual(cancel.toJSON());
    expect(pages).toEqual([0]);
    expect(stages).toEqual([]);
  });

  it('sizes itself by the machine: a core left for the caller, 1 to 4 workers', () => {
    expect(defaultPoolSize()).toBeGreaterThanOrEqual(1);
    expect(defaultPoolSize()).toBeLessThanOrEqual(4);
  });
});

describe('the pool', () => {
  const testWorker = new URL('./test-worker.ts', import.meta.url);
  const command = (filename: string): InputFile => ({ filename, data: new Uint8Array(1) });

  it('fails only the call of a worker that exits, and starts a fresh worker', async () => {
    let spawned = 0;
    const spawn = () => {
      spawned++;
      return spawnNodeWorker(testWorker);
    };
    const pool = createRecognitionPool({ size: 2, spawn });
    try {
      const other = pool.countPages(command('wait:1500'));
      const crash = await rejection(pool.countPages(command('exit')));
      expect([crash.code, crash.status]).toEqual(['WORKER_CRASHED', 500]);
      expect(crash.message).toMatch(/exit code 3/);
      expect(await other).toBe(1);
      // Two calls at once need two workers again: the survivor and a fresh one.
      expect(await Promise.all([pool.countPages(melodyPdf), pool.countPages(command('wait:10'))])).toEqual([1, 1]);
      expect(spawned).toBe(3);
    } finally {
      await pool.close();
    }
  });

  it('reports an uncaught error and running out of memory as crashes, and goes on', async () => {
    const pool = createRecognitionPool({ size: 1, spawn: () => spawnNodeWorker(testWorker, { resourceLimits: { maxOldGenerationSizeMb: 128 } }) });
    try {
      const thrown = await rejection(pool.countPages(command('throw')));
      expect([thrown.code, thrown.message]).toEqual(['WORKER_CRASHED', 'The recognition worker running this call stopped unexpectedly (uncaught error: boom).']);
      const outOfMemory = await rejection(pool.countPages(command('oom')));
      expect(outOfMemory.code).toBe('WORKER_CRASHED');
      expect(outOfMemory.message).toMatch(/memory/);
      expect(await pool.countPages(melodyPng)).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('queues calls beyond its size in order of arrival, telling each caller when its call starts', async () => {
    const pool = createRecognitionPool({ size: 1, spawn: () => spawnNodeWorker(testWorker) });
    try {
      const starts: number[] = [];
      const calls = [0, 1, 2].map((i) => pool.countPages(command('wait:200'), { onStart: () => starts.push(i) }));
      expect(starts).toEqual([0]);
      await calls[0];
      expect(starts).toEqual([0, 1]);
      expect(await Promise.all(calls)).toEqual([1, 1, 1]);
      expect(starts).toEqual([0, 1, 2]);
    } finally {
      await pool.close();
    }
  });

  it('rejects running, queued and later calls when closed', async () => {
    const pool = createRecognitionPool({ size: 1, spawn: () => spawnNodeWorker(testWorker) });
    let queuedStarted = false;
    const running = rejection(pool.countPages(command('wait:10000')));
    const queued = rejection(pool.countPages(command('wait:10'), { onStart: () => (queuedStarted = true) }));
    await pool.close();
    for (const error of await Promise.all([running, queued, rejection(pool.countPages(melodyPng))])) {
      expect([error.code, error.status, error.message]).toEqual(['INTERNAL_ERROR', 503, 'The recognition pool was closed before this call finished.']);
    }
    expect(queuedStarted).toBe(false);
  });

  it('ends a worker whose page runs past the page budget with ENGINE_TIMEOUT, and serves the next call on a fresh one', async () => {
    let spawned = 0;
    const pool = createRecognitionPool({ size: 1, pageTimeoutMs: 200, spawn: () => (spawned++, spawnNodeWorker(testWorker)) });
    try {
      const timedOut = await rejection(pool.recognize({ files: [command('hang')] }));
      expect([timedOut.code, timedOut.status]).toEqual(['ENGINE_TIMEOUT', 504]);
      expect(timedOut.message).toMatch(/0\.2 s/);
      expect(await pool.countPages(melodyPng)).toBe(1);
      expect(spawned).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('ends a worker whose page takes the process past the memory budget with ENGINE_OUT_OF_MEMORY, and serves the next call on a fresh one', { timeout: 30_000 }, async () => {
    let spawned = 0;
    const budgetMb = Math.ceil(process.memoryUsage.rss() / 2 ** 20) + 400;
    const pool = createRecognitionPool({ size: 1, memoryBudgetMb: budgetMb, pageTimeoutMs: 20_000, spawn: () => (spawned++, spawnNodeWorker(testWorker)) });
    try {
      const started = Date.now();
      const outOfMemory = await rejection(pool.recognize({ files: [command('hoard:800')] }));
      expect([outOfMemory.code, outOfMemory.status]).toEqual(['ENGINE_OUT_OF_MEMORY', 413]);
      expect(outOfMemory.message).toContain(`past the ${budgetMb} MiB`);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await pool.countPages(melodyPng)).toBe(1);
      expect(spawned).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('past the memory budget, ends the page that has run longest and leaves the others', async () => {
    let resident = 100 * 2 ** 20;
    const members: Array<{ ended: boolean; page: () => void }> = [];
    const pool = createPool(
      2,
      () => {
        const member = { ended: false, page: () => undefined as void };
        members.push(member);
        return {
          calls: {
            recognize: (_request, events) =>
              new Promise((resolve) => {
                member.page = () => void events.beforePage(0);
                setTimeout(() => resolve({ pageCount: 1 } as RecognitionOutcome), 1500);
              }),
            countPages: async () => 1,
            renderPage: async () => new Uint8Array(),
          },
          onEnd: () => undefined,
          terminate: () => void (member.ended = true),
          interruptible: true,
        } satisfies PoolMember;
      },
      { memoryBudgetMb: 1000, residentMemory: () => resident },
    );
    try {
      const first = rejection(pool.recognize({ files: [command('a')] }));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const second = pool.recognize({ files: [command('b')] });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(members.map((m) => m.ended)).toEqual([false, false]);
      resident = 1200 * 2 ** 20;
      const error = await first;
      expect([error.code, error.message]).toEqual([
        'ENGINE_OUT_OF_MEMORY',
        'Reading a page took the process to 1200 MiB, past the 1000 MiB recognition may use (memoryBudgetMb), and its recognition was stopped. Check the page is a score of a usual size and resolution, or raise the memory budget.',
      ]);
      resident = 100 * 2 ** 20;
      expect((await second).pageCount).toBe(1);
      expect(members.map((m) => m.ended)).toEqual([true, false]);
    } finally {
      await pool.close();
    }
  });

  it('ends the worker of a call whose signal aborts, with the reason given, and goes on with a fresh one', async () => {
    let spawned = 0;
    const pool = createRecognitionPool({ size: 1, spawn: () => (spawned++, spawnNodeWorker(testWorker)) });
    try {
      const controller = new AbortController();
      let reached!: () => void;
      const pageStarted = new Promise<void>((resolve) => (reached = resolve));
      const hanging = rejection(pool.recognize({ files: [command('hang')] }, { beforePage: () => reached() }, { signal: controller.signal }));
      const queuedController = new AbortController();
      let queuedStarted = false;
      const queued = rejection(pool.countPages(command('wait:10'), { signal: queuedController.signal, onStart: () => (queuedStarted = true) }));
      await pageStarted;
      const cancel = new OmrError('OMR_JOB_CANCELED', 'The job was canceled.');
      queuedController.abort();
      controller.abort(cancel);
      expect((await hanging).toJSON()).toEqual(cancel.toJSON());
      expect((await queued).code).toBe('ABORTED');
      expect(queuedStarted).toBe(false);
      expect(await pool.countPages(melodyPng)).toBe(1);
      expect(spawned).toBe(2);
      // A call aborted before it is made is not made.
      expect((await rejection(pool.countPages(melodyPng, { signal: AbortSignal.abort() }))).code).toBe('ABORTED');
      expect(spawned).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it("does not count a fresh worker's start toward its first page's time", async () => {
    // A worker that takes 300 ms to start, then reads its one page at once, under a 100 ms budget,
    // on the test's clock: the start's 300 ms pass in one step, so a budget counted from the call runs out in it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const started = new Promise((resolve) => setTimeout(resolve, 300));
    let ended = 0;
    const slowStart: PoolMember = {
      calls: {
        async recognize(_request, events) {
          await started;
          await events.beforePage(0);
          return { pageCount: 1 } as RecognitionOutcome;
        },
        countPages: async () => 1,
        renderPage: async () => new Uint8Array(0),
      },
      ready: started,
      onEnd: () => undefined,
      terminate: () => void ended++,
      interruptible: true,
    };
    const pool = createPool(1, () => slowStart, { pageTimeoutMs: 100 });
    try {
      const run = pool.recognize({ files: [command('quick')] });
      await vi.advanceTimersByTimeAsync(300);
      expect((await run).pageCount).toBe(1);
      expect(ended).toBe(0);
    } finally {
      vi.useRealTimers();
      await pool.close();
    }
  });

  it('checks the page budget between pages on the calling thread, which cannot be ended', async () => {
    const slowPages = (pageMs: number): PoolMember => ({
      calls: {
        async recognize(_request, events) {
          for (let page = 0; page < 3; page++) {
            await events.beforePage(page);
            await new Promise((resolve) => setTimeout(resolve, pageMs));
          }
          throw new Error('the run went past a page that ran out of time');
        },
        countPages: async () => 1,
        renderPage: async () => new Uint8Array(0),
      },
      onEnd: () => undefined,
      terminate: () => undefined,
    });
    const pages: number[] = [];
    const pool = createPool(1, () => slowPages(150), { pageTimeoutMs: 50 });
    try {
      const timedOut = await rejection(pool.recognize({ files: [command('slow')] }, { beforePage: (page) => void pages.push(page) }));
      expect(timedOut.code).toBe('ENGINE_TIMEOUT');
      // The first page ran to its end; the second never started.
      expect(pages).toEqual([0]);
    } finally {
      await pool.close();
    }
  });

  it('rejects an aborted call on the calling thread at once, and lets the thread go at its next page', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const pages: number[] = [];
    const member: PoolMember = {
      calls: {
        async recognize(_request, events) {
          await events.beforePage(0);
          await held;
          await events.beforePage(1);
          throw new Error('the run went past its cancel');
        },
        countPages: async () => 1,
        renderPage: async () => new Uint8Array(0),
      },
      onEnd: () => undefined,
      terminate: () => undefined,
    };
    const pool = createPool(1, () => member);
    try {
      const controller = new AbortController();
      const run = rejection(pool.recognize({ files: [command('held')] }, { beforePage: (page) => void pages.push(page) }, { signal: controller.signal }));
      let nextStarted = false;
      const next = pool.countPages(command('next'), { onStart: () => (nextStarted = true) });
      await new Promise((resolve) => setTimeout(resolve, 0));
      controller.abort();
      expect((await run).code).toBe('ABORTED');
      // The thread is still held by the page under way: the next call waits for it.
      expect(nextStarted).toBe(false);
      release();
      expect(await next).toBe(1);
      expect(pages).toEqual([0]);
    } finally {
      await pool.close();
    }
  });

  it('runs on the calling thread one call at a time when in-process, and closes the same way', async () => {
    const pool = createInProcessPool();
    const starts: number[] = [];
    const first = pool.countPages(melodyPng, { onStart: () => starts.push(0) });
    const second = pool.countPages(threePages, { onStart: () => starts.push(1) });
    const third = rejection(pool.countPages(melodyPdf, { onStart: () => starts.push(2) }));
    expect(starts).toEqual([0]);
    expect(await Promise.all([first, second])).toEqual([1, 3]);
    await pool.close();
    expect((await third).code).toBe('INTERNAL_ERROR');
  });
});

function sizeOf(png: Uint8Array): [number, number] {
  const raster = decodePng(png);
  return [raster.width, raster.height];
}
