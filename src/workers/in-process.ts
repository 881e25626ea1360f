/**
 * The recognition pool without workers: the same calls, queue and errors,
 * run on the calling thread — for environments without workers, and tests.
 * One call runs at a time, since runs on one thread would only interleave
 * and hold more pages in memory. A running call cannot be terminated: on
 * close(), or when its signal aborts, it is rejected at once and stops at
 * its next page. For the same reason the page budget (`pageTimeoutMs`) is
 * checked between pages only: a page that overruns it fails the run with
 * `ENGINE_TIMEOUT` as the next page starts, and a page that never ends
 * holds the thread — use the worker pool where pages may hang.
 */
import { createPool, type PoolOptions, type RecognitionPool } from './pool.js';
import { createRecognitionService } from './recognition-service.js';

export function createInProcessPool(options: PoolOptions = {}): RecognitionPool {
  const calls = createRecognitionService();
  return createPool(1, () => ({ calls, onEnd: () => undefined, terminate: () => undefined }), options);
}
