/**
 * The recognition worker's entry: exposes the recognition API through
 * comlink, on `parentPort` in a Node worker thread, on the worker's global
 * scope in a browser's Web Worker. Built as its own file beside the
 * library's `index.js`, where the pool looks for it.
 */
import { expose, releaseProxy, type Remote } from 'comlink';
import { installOmrErrorTransfer } from './error-transfer.js';
import type { RecognitionApi, RecognitionEvents } from './recognition-api.js';
import { createRecognitionService } from './recognition-service.js';
import { workerEndpoint } from './worker-endpoint.js';

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

expose(api, workerEndpoint('recognition-worker.js'));
