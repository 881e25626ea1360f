/**
 * Browsers' Web Workers as pool workers.
 */
import { endingHandle, type WorkerHandle } from './worker-handle.js';

/** The message field that names the lock a worker holds for its lifetime (see {@link watchLifetime}). */
export const LIFETIME_LOCK = 'scoresightLifetimeLock';

export function webWorkerHandle(worker: Worker): WorkerHandle {
  const handle = endingHandle(worker, () => worker.terminate());
  worker.addEventListener('error', (event) => {
    // Reported through the pool's error instead.
    event.preventDefault();
    handle.end(event.message ? `uncaught error: ${event.message}` : 'its script failed to load');
  });
  // A reply that cannot be read would leave its call waiting forever.
  worker.addEventListener('messageerror', () => handle.end('a message from it could not be read'));
  watchLifetime(worker, handle.end);
  return handle;
}

/** The message field with which the worker says it now holds its lifetime lock. */
export const LIFETIME_LOCK_HELD = 'scoresightLifetimeLockHeld';

/**
 * A Worker object fires no event when its worker closes itself or is killed
 * (out of memory); a Web Lock tells. The worker holds a lock for its lifetime
 * (`recognition-worker.ts`), and a request for the same lock from here is
 * granted once it is gone.
 *
 * This side requests the lock only once the worker says it holds it: the two
 * threads' requests reach the browser's lock manager on separate channels, in
 * no guaranteed order, so a request sent merely after the worker's could
 * still be granted first, and a healthy worker would be taken for gone.
 */
function watchLifetime(worker: Worker, end: (reason: string) => void): void {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks) return;
  const name = `scoresight-worker-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  worker.addEventListener('message', function held(event) {
    if ((event.data as Record<string, unknown> | null)?.[LIFETIME_LOCK_HELD] !== name) return;
    worker.removeEventListener('message', held);
    void locks.request(name, () => end('it stopped'));
  });
  worker.postMessage({ [LIFETIME_LOCK]: name });
}
