/**
 * Recognition on a pool of workers — Web Workers in browsers, worker_threads
 * in Node — so rasterising and recognising pages never blocks the caller's
 * thread, and several jobs run at once on a machine with the cores for it.
 *
 * The recognition worker is found beside this module:
 * - Node, built (`dist/node/`): `recognition-worker.js`, a build entry of its own.
 * - Node, TypeScript source (vitest, tsx: this module's own URL ends in
 *   `.ts`): `recognition-worker.ts`, run through tsx.
 * - Browsers: `new Worker(new URL('./recognition-worker.js', import.meta.url),
 *   { type: 'module' })`, written out whole because that is the form bundlers
 *   recognise (and bundle the worker for); unbundled, it is the built
 *   `dist/browser/recognition-worker.js`.
 */
import { proxy, transfer, wrap } from 'comlink';
import { envForWorker } from '../env.js';
import type { InputFile } from '../input/decode-pages.js';
import { installOmrErrorTransfer } from './error-transfer.js';
import { spawnNodeWorker } from './node-worker.js';
import { createPool, type PoolMember, type PoolOptions, type RecognitionPool } from './pool.js';
import type { RecognitionApi } from './recognition-api.js';
import { webWorkerHandle } from './web-worker.js';
import type { WorkerHandle } from './worker-handle.js';

export { DEFAULT_PAGE_TIMEOUT_MS } from './pool.js';
export type { CallOptions, PoolOptions, RecognitionPool } from './pool.js';
export type { RecognitionEvents, RecognitionOutcome, RecognitionRequest } from './recognition-api.js';
export type { WorkerHandle } from './worker-handle.js';

const isNode = typeof process !== 'undefined' && !!process.versions?.node;

export interface RecognitionPoolOptions extends PoolOptions {
  /** Most workers running at once; default {@link defaultPoolSize}. */
  size?: number;
  /** Starts a worker; default {@link spawnRecognitionWorker}. */
  spawn?: () => WorkerHandle;
}

/**
 * Node's pools hold the process to a memory budget (`memoryBudgetMb`,
 * default {@link defaultMemoryBudgetMb}), read as its resident memory;
 * browsers give a page no way to read its workers' memory, so there the
 * page budget alone applies.
 */
export function createRecognitionPool(options: RecognitionPoolOptions = {}): RecognitionPool {
  installOmrErrorTransfer();
  const spawn = options.spawn ?? spawnRecognitionWorker;
  const memory = isNode ? { memoryBudgetMb: defaultMemoryBudgetMb(), residentMemory: () => process.memoryUsage.rss() } : {};
  return createPool(options.size ?? defaultPoolSize(), () => workerMember(spawn()), { ...memory, ...options });
}

/**
 * 4 GiB, or three quarters of the machine's memory where that is less: a
 * dense page takes well under 1 GiB to read, so a page past this is
 * runaway input, ended before the system runs out of memory.
 */
export function defaultMemoryBudgetMb(): number {
  const totalMb = isNode ? process.getBuiltinModule('os').totalmem() / 2 ** 20 : Infinity;
  return Math.min(4096, Math.floor(totalMb * 0.75));
}

/**
 * One worker per core but one (the caller's thread keeps it), from 1 to 4:
 * each recognition holds a page and two models in memory, and more than four
 * at once only queue for memory bandwidth.
 */
export function defaultPoolSize(): number {
  const cores = isNode ? process.getBuiltinModule('os').availableParallelism() : (globalThis.navigator as Navigator | undefined)?.hardwareConcurrency || 1;
  return Math.max(1, Math.min(4, cores - 1));
}

/** Starts the recognition worker shipped beside this module (see above). */
export function spawnRecognitionWorker(): WorkerHandle {
  if (isNode) {
    // Through a variable: bundlers take `new URL(…, import.meta.url)` for a file to copy, and this one is Node's.
    const here = import.meta.url;
    return spawnNodeWorker(new URL(here.endsWith('.ts') ? './recognition-worker.ts' : './recognition-worker.js', here));
  }
  return webWorkerHandle(new Worker(new URL('./recognition-worker.js', import.meta.url), { type: 'module' }));
}

function workerMember(handle: WorkerHandle): PoolMember {
  const remote = wrap<RecognitionApi>(handle.endpoint);
  // The worker has its own `env`: it gets this thread's, before any call.
  const configured = remote.configure(envForWorker());
  return {
    calls: {
      async recognize(request, events) {
        await configured;
        const files = copies(request.files);
        return remote.recognize(transfer({ ...request, files }, buffers(files)), proxy(events));
      },
      async countPages(file) {
        await configured;
        const files = copies([file]);
        return remote.countPages(transfer(files[0]!, buffers(files)));
      },
      async renderPage(files, page, maxSide) {
        await configured;
        const sent = copies(files);
        return remote.renderPage(transfer(sent, buffers(sent)), page, maxSide);
      },
    },
    onEnd: (listener) => handle.onEnd(listener),
    terminate: () => handle.terminate(),
    ready: configured,
    interruptible: true,
    ...(handle.keepAlive ? { keepAlive: (alive: boolean) => handle.keepAlive!(alive) } : {}),
  };
}

/**
 * Files as a worker receives them: each with its own exact copy of its bytes,
 * which is then transferred, not cloned. The caller's buffers stay the
 * caller's, and only a file's bytes cross, never a larger buffer it may be a
 * view of (structured cloning a view clones its whole buffer).
 */
function copies(files: readonly InputFile[]): InputFile[] {
  // Anything but bytes goes as it is, for the worker to refuse as the calling thread would.
  return files.map((file) => (file.data instanceof Uint8Array ? { ...file, data: file.data.slice() } : file));
}

function buffers(files: readonly InputFile[]): ArrayBuffer[] {
  return files.flatMap((file) => (file.data instanceof Uint8Array ? [file.data.buffer as ArrayBuffer] : []));
}
