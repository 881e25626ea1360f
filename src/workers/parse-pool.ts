/**
 * Reading uploads off the caller's thread: score imports (MusicXML, MXL,
 * MIDI) and the page counts of files added to jobs, in a parse worker of
 * their own — not the recognition pool, where they would queue behind
 * pages being recognised.
 *
 * A legal 24 MB MusicXML takes the reader seconds and hundreds of MiB; on
 * the thread that answers a server's requests that is seconds of no answer
 * to anyone, and a crafted file that outgrows the heap would end the whole
 * process. In the worker it is one call that takes its time. The worker has
 * a heap cap (Node) and every call a time budget: a file past either ends
 * the worker, its call fails with `FILE_TOO_LARGE`, and the next call starts
 * a fresh worker.
 *
 * One call runs at a time, in order of arrival: imports are rare next to
 * recognitions, and one worker bounds the memory they hold at once to one
 * heap cap. The parse worker is found as the recognition worker is
 * (`worker-pool.ts`): `parse-worker.js` beside this module when built,
 * `parse-worker.ts` run through tsx from source.
 */
import { transfer, wrap, type Remote } from 'comlink';
import { envForWorker } from '../env.js';
import { OmrError } from '../errors.js';
import { installOmrErrorTransfer } from './error-transfer.js';
import { spawnNodeWorker } from './node-worker.js';
import type { ParseApi, ScoreParser } from './parse-api.js';
import { webWorkerHandle } from './web-worker.js';
import type { WorkerHandle } from './worker-handle.js';

export type { ScoreFile, ScoreFileKind, ScoreParser } from './parse-api.js';

/**
 * How long one call may take. The largest legal MusicXML (2 million
 * elements, `MAX_XML_ELEMENTS`) is read in some 10 s on a busy machine; a
 * minute means the file is built to be slow.
 */
export const DEFAULT_PARSE_TIMEOUT_MS = 60_000;

/**
 * The parse worker's heap cap, in MiB (Node's `maxOldGenerationSizeMb`).
 * The largest legal MusicXML peaks at some 600 MiB of memory, the whole
 * process counted; past 1 GiB the file is one the readers' own limits did
 * not foresee, and the worker is ended instead of the process.
 */
export const DEFAULT_PARSE_HEAP_MB = 1024;

/** Longest delay a timer takes (about 24.8 days); a larger budget, `Infinity` among them, is none. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface ParseWorkerOptions {
  /** A call's time budget, in milliseconds; default {@link DEFAULT_PARSE_TIMEOUT_MS}, `Infinity` for none. */
  timeoutMs?: number;
  /** The worker's heap cap, in MiB (Node only); default {@link DEFAULT_PARSE_HEAP_MB}. */
  maxHeapMb?: number;
  /** Starts a worker with that heap cap; default {@link spawnParseWorker}. */
  spawn?: (maxHeapMb: number) => WorkerHandle;
}

/** Starts the parse worker shipped beside this module (see above). */
export function spawnParseWorker(maxHeapMb: number): WorkerHandle {
  if (typeof process !== 'undefined' && process.versions?.node) {
    // Through a variable: bundlers take `new URL(…, import.meta.url)` for a file to copy, and this one is Node's.
    const here = import.meta.url;
    return spawnNodeWorker(new URL(here.endsWith('.ts') ? './parse-worker.ts' : './parse-worker.js', here), { resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } });
  }
  return webWorkerHandle(new Worker(new URL('./parse-worker.js', import.meta.url), { type: 'module' }));
}

/** The worker now serving calls. */
interface Member {
  handle: WorkerHandle;
  remote: Remote<ParseApi>;
  /** Settles once the worker is up and configured: a call's time starts no earlier. */
  ready: Promise<unknown>;
  /** Rejects, with the error its call gets, when the worker ends on its own. */
  ended: Promise<never>;
}

interface Call {
  run(remote: Remote<ParseApi>): Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: OmrError): void;
}

export function createParseWorker(options: ParseWorkerOptions = {}): ScoreParser {
  installOmrErrorTransfer();
  const timeoutMs = options.timeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS;
  const maxHeapMb = options.maxHeapMb ?? DEFAULT_PARSE_HEAP_MB;
  if (!(timeoutMs > 0)) throw new OmrError('INVALID_ARGUMENT', `timeoutMs must be a positive number of milliseconds, got ${timeoutMs}.`);
  if (!Number.isSafeInteger(maxHeapMb) || maxHeapMb < 1) throw new OmrError('INVALID_ARGUMENT', `maxHeapMb must be a whole number of MiB from 1, got ${maxHeapMb}.`);
  const spawn = options.spawn ?? spawnParseWorker;
  const queue: Call[] = [];
  let member: Member | undefined;
  /** Set while a call runs (the next waits in `queue`): fails that call at once, as `close` does. */
  let stopRunning: ((error: OmrError) => void) | undefined;
  let closed = false;

  function submit<T>(run: (remote: Remote<ParseApi>) => Promise<T>): Promise<T> {
    if (closed) return Promise.reject(parserClosed());
    return new Promise<T>((resolve, reject) => {
      queue.push({ run, resolve: resolve as (value: unknown) => void, reject });
      if (!stopRunning) void next();
    });
  }

  async function next(): Promise<void> {
    const call = queue.shift();
    if (!call || closed) return;
    const stopped = new Promise<never>((_, reject) => (stopRunning = reject));
    try {
      call.resolve(await Promise.race([runOnWorker(call), stopped]));
    } catch (err) {
      call.reject(OmrError.from(err));
    } finally {
      stopRunning = undefined;
    }
    void next();
  }

  /** Runs a call on the worker, starting one if none is up; a call past its budget ends the worker. */
  async function runOnWorker(call: Call): Promise<unknown> {
    const current = (member ??= start());
    // Working, the worker keeps the process running until its answer arrives; idle, it lets a script end.
    current.handle.keepAlive?.(true);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([current.ready, current.ended]);
      const outOfTime = new Promise<never>((_, reject) => {
        if (timeoutMs > MAX_TIMER_MS) return;
        timer = setTimeout(() => {
          retire(current);
          reject(tookTooLong(timeoutMs));
        }, timeoutMs);
      });
      return await Promise.race([call.run(current.remote), current.ended, outOfTime]);
    } finally {
      clearTimeout(timer);
      if (member === current) current.handle.keepAlive?.(false);
    }
  }

  function start(): Member {
    const handle = spawn(maxHeapMb);
    const remote = wrap<ParseApi>(handle.endpoint);
    const started: Member = { handle, remote, ready: remote.configure(envForWorker()), ended: undefined as unknown as Promise<never> };
    started.ended = new Promise<never>((_, reject) =>
      handle.onEnd((reason, outOfMemory) => {
        if (member === started) member = undefined;
        void handle.terminate();
        reject(outOfMemory ? outOfHeap(maxHeapMb) : crashed(reason));
      }),
    );
    // Only a call running on it listens; an idle worker's end needs no answer.
    started.ended.catch(() => undefined);
    return started;
  }

  /** Ends a worker; the next call starts a fresh one. */
  function retire(ending: Member): void {
    if (member === ending) member = undefined;
    void Promise.resolve(ending.handle.terminate()).catch(() => undefined);
  }

  return {
    readScore: (file, options) => submit((remote) => remote.readScore(sent(file), options)),
    countPages: (file) => submit((remote) => remote.countPages(sent(file))),
    async close() {
      closed = true;
      for (const call of queue.splice(0)) call.reject(parserClosed());
      stopRunning?.(parserClosed());
      if (member) {
        const ending = member;
        member = undefined;
        await Promise.resolve(ending.handle.terminate()).catch(() => undefined);
      }
    },
  };
}

/**
 * A file as the worker receives it: with an exact copy of its bytes, which is
 * then transferred, so the caller's buffer stays the caller's. Anything but
 * bytes goes as it is, for the worker to refuse as the calling thread would.
 */
function sent<T extends { data: Uint8Array }>(file: T): T {
  if (!(file.data instanceof Uint8Array)) return file;
  const data = new Uint8Array(file.data); // a copy, also of a Node Buffer (whose `slice` is a view)
  return transfer({ ...file, data }, [data.buffer as ArrayBuffer]);
}

function tookTooLong(budgetMs: number): OmrError {
  return new OmrError('FILE_TOO_LARGE', `Reading the file took longer than the ${budgetMs / 1000} s it may take, and was stopped: it holds more than can be read. Split the score, or import it in parts.`);
}

function outOfHeap(maxHeapMb: number): OmrError {
  return new OmrError('FILE_TOO_LARGE', `Reading the file needed more than the ${maxHeapMb} MiB of memory it may use, and was stopped: it holds more than can be read. Split the score, or import it in parts.`);
}

function crashed(reason: string): OmrError {
  return new OmrError('WORKER_CRASHED', `The worker reading the file stopped unexpectedly (${reason}).`, { status: 500 });
}

function parserClosed(): OmrError {
  return new OmrError('INTERNAL_ERROR', 'The parser was closed before this call finished.', { status: 503 });
}
