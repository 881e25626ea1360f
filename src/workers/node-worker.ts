/**
 * Node's worker_threads as pool workers. A worker on a `.ts` module (the
 * library run from source, under vitest or tsx) runs it through tsx.
 */
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { Worker, WorkerOptions } from 'node:worker_threads';
import { endingHandle, type WorkerHandle } from './worker-handle.js';

export function spawnNodeWorker(url: URL, options: WorkerOptions = {}): WorkerHandle {
  // Loaded when needed, so that browser builds never see worker_threads.
  const { Worker } = process.getBuiltinModule('worker_threads');
  // `--import tsx` registers tsx's loader on the main thread only, so the worker registers it itself (tsx is a development dependency).
  const worker = url.pathname.endsWith('.ts')
    ? new Worker(`import('tsx/esm/api').then(({ register }) => register()).then(() => import(${JSON.stringify(url.href)}))`, { ...options, eval: true })
    : new Worker(url, options);
  return nodeWorkerHandle(worker);
}

export function nodeWorkerHandle(worker: Worker): WorkerHandle {
  const handle = endingHandle(
    nodeEndpoint(worker as unknown as Parameters<typeof nodeEndpoint>[0]),
    () => worker.terminate(),
    (alive) => (alive ? worker.ref() : worker.unref()),
  );
  // Idle from the start: the pool keeps it alive while it runs a call (`pool.ts`).
  worker.unref();
  // Listening for 'error' also keeps the worker's uncaught exception from becoming this thread's.
  // Running out of memory arrives here too, followed by 'exit'.
  worker.on('error', (err: Error & { code?: string }) => {
    const outOfMemory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
    handle.end(outOfMemory ? err.message : `uncaught error: ${err.message}`, outOfMemory);
  });
  worker.on('exit', (code: number) => handle.end(`exit code ${code}`));
  return handle;
}
