/**
 * The thread side of a worker (`recognition-worker.ts`, `parse-worker.ts`):
 * where it talks to the thread that started it — `parentPort` in a Node
 * worker thread, the worker's global scope in a browser's Web Worker.
 */
import type { Endpoint } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { LIFETIME_LOCK, LIFETIME_LOCK_HELD } from './web-worker.js';

/** This worker's endpoint; `entry` names the worker's file for the error of one run on its own. */
export function workerEndpoint(entry: string): Endpoint {
  if (typeof process !== 'undefined' && process.versions?.node) {
    const { parentPort } = process.getBuiltinModule('worker_threads');
    if (!parentPort) throw new Error(`${entry} runs as a worker thread, not on its own.`);
    return nodeEndpoint(parentPort as unknown as Parameters<typeof nodeEndpoint>[0]);
  }
  holdLifetimeLock();
  return globalThis as unknown as Endpoint;
}

/**
 * Holds the lock the pool names (`web-worker.ts`) until this worker ends,
 * however it ends, so the pool learns of an end no event reports. The name
 * comes in the pool's first message, which comlink ignores; once the lock is
 * granted the worker says so (a message comlink ignores too), and only then
 * does the pool queue its own request behind it.
 */
function holdLifetimeLock(): void {
  const scope = globalThis as unknown as EventTarget & { postMessage(message: unknown): void };
  scope.addEventListener('message', function hold(event) {
    const name: unknown = ((event as MessageEvent).data as Record<string, unknown> | null)?.[LIFETIME_LOCK];
    if (typeof name !== 'string') return;
    scope.removeEventListener('message', hold);
    void navigator.locks?.request(name, () => {
      scope.postMessage({ [LIFETIME_LOCK_HELD]: name });
      return new Promise<never>(() => undefined);
    });
  });
}
