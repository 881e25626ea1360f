/**
 * A recognition worker that misbehaves on request, for the pool's tests:
 * `countPages` of a file named `exit` ends the thread, `throw` throws outside
 * any call, `oom` fills the heap, `wait:N` answers 1 after N ms; any other
 * file is counted by the real service. `recognize` of a file named `hang`
 * starts its first page and never ends it, and `hoard:N` starts it, takes N
 * MiB of WebAssembly memory and never ends it; any other file is recognised
 * by the real service.
 */
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { parentPort } from 'node:worker_threads';
import { installOmrErrorTransfer } from '../../src/workers/error-transfer.js';
import type { RecognitionApi } from '../../src/workers/recognition-api.js';
import { createRecognitionService } from '../../src/workers/recognition-service.js';

installOmrErrorTransfer();
const service = createRecognitionService();
/** Memory a `hoard` call holds on to. */
const hoard: Uint8Array[] = [];

const api: RecognitionApi = {
  ...service,
  async countPages(file) {
    const [command, argument] = file.filename.split(':');
    if (command === 'exit') process.exit(3);
    if (command === 'throw') {
      setTimeout(() => {
        throw new Error('boom');
      });
      return new Promise<number>(() => undefined);
    }
    if (command === 'oom') {
      const hoard: number[][] = [];
      for (;;) hoard.push(Array.from({ length: 1e5 }, (_, i) => i + hoard.length));
    }
    if (command === 'wait') return new Promise<number>((resolve) => setTimeout(() => resolve(1), Number(argument)));
    return service.countPages(file);
  },
  async recognize(request, events) {
    const [command, argument] = (request.files[0]?.filename ?? '').split(':');
    if (command !== 'hang' && command !== 'hoard') return service.recognize(request, events);
    await events.beforePage(0);
    if (command === 'hoard') hoard.push(new Uint8Array(new WebAssembly.Memory({ initial: Number(argument) * 16 }).buffer).fill(1));
    return new Promise<never>(() => undefined);
  },
};

expose(api, nodeEndpoint(parentPort!));
