/**
 * The parse worker's entry: exposes the parse API (`parse-api.ts`) through
 * comlink. Built as its own file beside the library's `index.js`, where
 * `parse-pool.ts` looks for it.
 */
import { expose } from 'comlink';
import { installOmrErrorTransfer } from './error-transfer.js';
import { createParseService } from './parse-service.js';
import { workerEndpoint } from './worker-endpoint.js';

installOmrErrorTransfer();
expose(createParseService(), workerEndpoint('parse-worker.js'));
