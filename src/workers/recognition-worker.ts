/**
 * The recognition worker's entry: exposes the recognition API through
 * comlink, on `parentPort` in a Node worker thread, on the worker's global
 * scope in a browser's Web Worker. Built as its own file beside the
 * library's `index.js`, where the pool looks for it.
 */
import { expose, releaseProxy, type Endpoint, type Remote } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { installOmrErrorTransfer } from './error-transfer.js';
import type { RecognitionApi, RecognitionEvents } from './recognition-api.js';
import { createRecognitionService } from './recognition-service.js';
import { LIFETIME_LOCK, LIFETIME_LOCK_HELD } from './web-worker.js';

installOmrErrorTransfer();
const service = createRecognitionService();

const api: RecognitionApi = {
  ...service,
  async recognize(request, events) {
    try {
      return await service.recognize(request, events);
    } finally {
      // The caller's events arrive as a proxy whose message ports stay open, on both threads, until released.
      (events as unknown as Remote<RecognitionEvents>)[releaseProxy]();
    }
  },
};

expose(api, endpoint());

function endpoint(): Endpoint {
  if (typeof process !== 'undefined' && process.versions?.node) {
    const { parentPort } = process.getBuiltinModule('worker_threads');
    if (!parentPort) throw new Error('recognition-worker.js runs as a worker thread, not on its own.');
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
