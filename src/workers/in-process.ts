/**
 * The recognition pool without workers: the same calls, queue and errors,
 * run on the calling thread — for environments without workers, and tests.
 * One call runs at a time, since runs on one thread would only interleave
 * and hold more pages in memory. A running call cannot be terminated: on
 * close() it is rejected at once and stops at its next page.
 */
import { createPool, type RecognitionPool } from './pool.js';
import { createRecognitionService } from './recognition-service.js';

export function createInProcessPool(): RecognitionPool {
  const calls = createRecognitionService();
  return createPool(1, () => ({ calls, onEnd: () => undefined, terminate: () => undefined }));
}
