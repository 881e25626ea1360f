/**
 * The queue both pools share: up to `size` members (workers, or the calling
 * thread) run recognition calls, one call per member at a time; calls
 * beyond that wait in order of arrival. Members start when first needed and
 * are reused warm (models loaded). A member that ends on its own fails only
 * the call it was running, and the next call that needs a member starts a
 * fresh one.
 *
 * No call may hang its member: a recognition whose page runs past the page
 * budget fails with `ENGINE_TIMEOUT`, and a call whose signal aborts fails
 * with the signal's reason. A worker running such a call is ended and
 * replaced, so the pool keeps serving; the calling thread cannot be ended,
 * so there the budget is checked between pages only, and an aborted call
 * lets its thread go at its next page.
 *
 * Nor may a page take the host down: where the pool is given a memory
 * budget and a way to read the process's resident memory, the memory is
 * read every {@link MEMORY_CHECK_MS} while workers read pages. Past the
 * budget, the page that has run longest fails with `ENGINE_OUT_OF_MEMORY`
 * and its worker is ended, which frees everything it held (WebAssembly
 * memory, pixels and models alike, which a heap cap would not count).
 */
import { OmrError } from '../errors.js';
import type { InputFile } from '../input/decode-pages.js';
import type { RecognitionApi, RecognitionEvents, RecognitionOutcome, RecognitionRequest } from './recognition-api.js';

export interface CallOptions {
  /** Called when the call leaves the queue and starts running; until then it is queued (a job reports OMR_QUEUED). */
  onStart?: () => void;
  /**
   * Aborting it rejects the call at once with the signal's reason (an
   * `OmrError`, or `ABORTED`): a queued call leaves the queue, and a worker
   * running it is ended and replaced.
   */
  signal?: AbortSignal;
}

/**
 * How long one page of a recognition may run by default: from one page's
 * start to the next one's (its decoding included), or to the end of the
 * run. A dense page takes seconds, tens of seconds on a slow machine;
 * two minutes means something is stuck.
 */
export const DEFAULT_PAGE_TIMEOUT_MS = 120_000;

/** Longest delay a timer takes (about 24.8 days); a larger page budget, `Infinity` among them, is none. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** How often the process's memory is read while workers read pages, in milliseconds. */
export const MEMORY_CHECK_MS = 250;

export interface PoolOptions {
  /** The page budget, in milliseconds; default {@link DEFAULT_PAGE_TIMEOUT_MS}, `Infinity` for none. */
  pageTimeoutMs?: number;
  /**
   * The most resident memory the whole process may hold while workers read
   * pages, in MiB; `Infinity` (the default here) for none. Enforced only
   * where `residentMemory` is given, and only on members that can be ended.
   */
  memoryBudgetMb?: number;
  /** The process's resident memory now, in bytes (Node: `process.memoryUsage.rss`). */
  residentMemory?: () => number;
}

/**
 * Recognition off the caller's hands. The caller keeps its file bytes: a
 * worker gets a copy. Returned PNGs belong to the caller. Every failure is an
 * `OmrError`.
 */
export interface RecognitionPool {
  /** Recognises a job's files; `events.beforePage` rejecting cancels the run with that error. */
  recognize(request: RecognitionRequest, events?: Partial<RecognitionEvents>, options?: CallOptions): Promise<RecognitionOutcome>;
  countPages(file: InputFile, options?: CallOptions): Promise<number>;
  renderPage(files: InputFile[], page: number, maxSide?: number, options?: CallOptions): Promise<Uint8Array>;
  /** Ends every member; calls queued or running are rejected, and so are later ones. */
  close(): Promise<void>;
  /**
   * True where a call whose `signal` aborts is rejected at once (every pool
   * `createPool` makes); a pool without it may go on to the end of the page.
   */
  readonly abortsAtOnce?: boolean;
}

/** What a member runs: the API without `configure`, which is the member's own business as it starts. */
export type RecognitionCalls = Omit<RecognitionApi, 'configure'>;

export interface PoolMember {
  calls: RecognitionCalls;
  /** Sets the listener told that the member ended on its own (a worker crashed). */
  onEnd(listener: (reason: string) => void): void;
  terminate(): void | Promise<unknown>;
  /** Settles once the member has started and can take calls (a worker's thread is up): a page's time starts no earlier. */
  ready?: Promise<unknown>;
  /**
   * Whether `terminate` stops a call in the middle (a worker). Absent on the
   * calling thread, which no one can end: a call there runs to its next page.
   */
  interruptible?: boolean;
  /** Whether the member keeps its host process running (`WorkerHandle.keepAlive`); absent where it never does. */
  keepAlive?(alive: boolean): void;
}

interface QueuedCall {
  run(calls: RecognitionCalls, call: QueuedCall): Promise<unknown>;
  onStart: (() => void) | undefined;
  resolve(value: unknown): void;
  reject(error: OmrError): void;
  /** Why the call was given up (aborted, or out of time); a member that could not be ended stops its run at its next page. */
  stopped?: OmrError;
  /** When the current page started (`Date.now()`). */
  pageStart?: number;
  /** Ends a worker's page that runs out of time. */
  timer?: ReturnType<typeof setTimeout>;
}

export function createPool(size: number, spawn: () => PoolMember, options: PoolOptions = {}): RecognitionPool {
  if (!Number.isSafeInteger(size) || size < 1) throw new OmrError('INVALID_ARGUMENT', `pool size must be a whole number from 1, got ${size}.`);
  const pageTimeoutMs = options.pageTimeoutMs ?? DEFAULT_PAGE_TIMEOUT_MS;
  if (!(pageTimeoutMs > 0)) throw new OmrError('INVALID_ARGUMENT', `pageTimeoutMs must be a positive number of milliseconds, got ${pageTimeoutMs}.`);
  const memoryBudgetMb = options.memoryBudgetMb ?? Infinity;
  if (!(memoryBudgetMb > 0)) throw new OmrError('INVALID_ARGUMENT', `memoryBudgetMb must be a positive number of MiB, got ${memoryBudgetMb}.`);
  const residentMemory = Number.isFinite(memoryBudgetMb) ? options.residentMemory : undefined;
  const queue: QueuedCall[] = [];
  const idle: PoolMember[] = [];
  const running = new Map<PoolMember, QueuedCall>();
  let closed = false;
  let memoryCheck: ReturnType<typeof setInterval> | undefined;

  function submit<T>(run: (calls: RecognitionCalls, call: QueuedCall) => Promise<T>, options: CallOptions | undefined): Promise<T> {
    if (closed) return Promise.reject(poolClosed());
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<T>((resolve, reject) => {
      const call: QueuedCall = { run, onStart: options?.onStart, resolve: resolve as (value: unknown) => void, reject };
      queue.push(call);
      if (signal) {
        const abort = () => giveUp(call, abortReason(signal));
        signal.addEventListener('abort', abort, { once: true });
        const settled = () => signal.removeEventListener('abort', abort);
        call.resolve = (value) => (settled(), resolve(value as T));
        call.reject = (error) => (settled(), reject(error));
      }
      dispatch();
    });
  }

  /**
   * Fails a call before it ends on its own. Queued, it leaves the queue;
   * running on a worker, the worker is ended and the next call gets a fresh
   * one; running on the calling thread, it is marked, and its run stops at
   * its next page.
   */
  function giveUp(call: QueuedCall, error: OmrError): void {
    clearTimeout(call.timer);
    const queued = queue.indexOf(call);
    if (queued >= 0) queue.splice(queued, 1);
    call.stopped = error;
    const member = memberOf(call);
    if (member?.interruptible) {
      running.delete(member);
      void Promise.resolve(member.terminate()).catch(() => {});
      dispatch();
    }
    call.reject(error);
  }

  /**
   * A page of `call` starts, and with it the page's time. A worker whose
   * page runs out of time is ended there; the calling thread, which cannot
   * be ended, has its page's time checked as the next page starts.
   */
  function startPage(call: QueuedCall): void {
    clearTimeout(call.timer);
    call.pageStart = Date.now();
    watchMemory();
    if (!memberOf(call)?.interruptible || pageTimeoutMs > MAX_TIMER_MS) return;
    call.timer = setTimeout(() => giveUp(call, pageTimedOut(pageTimeoutMs)), pageTimeoutMs);
    // No reason for a script to keep running: the worker holds it while it works.
    (call.timer as { unref?: () => void }).unref?.();
  }

  /**
   * Reads the process's memory while a worker reads a page; past the
   * budget, ends the page that has run longest (a runaway page grows for as
   * long as it runs). Runs only while such a page is being read.
   */
  function watchMemory(): void {
    const reading = () => [...running].filter(([member, call]) => member.interruptible && call.pageStart !== undefined).map(([, call]) => call);
    if (!residentMemory || memoryCheck !== undefined || reading().length === 0) return;
    memoryCheck = setInterval(() => {
      const pages = reading();
      if (pages.length === 0) {
        clearInterval(memoryCheck);
        memoryCheck = undefined;
        return;
      }
      const usedMb = residentMemory() / 2 ** 20;
      if (usedMb <= memoryBudgetMb) return;
      const longest = pages.reduce((a, b) => (b.pageStart! < a.pageStart! ? b : a));
      giveUp(longest, outOfMemory(memoryBudgetMb, usedMb));
    }, MEMORY_CHECK_MS);
    (memoryCheck as { unref?: () => void }).unref?.();
  }

  /** Throws why a call must stop at this page boundary: it was given up, or its last page ran out of time. */
  function checkBetweenPages(call: QueuedCall): void {
    if (call.stopped) throw call.stopped;
    if (call.pageStart !== undefined && Date.now() - call.pageStart > pageTimeoutMs) throw pageTimedOut(pageTimeoutMs);
  }

  function memberOf(call: QueuedCall): PoolMember | undefined {
    for (const [member, current] of running) if (current === call) return member;
    return undefined;
  }

  function dispatch(): void {
    while (queue.length > 0 && (idle.length > 0 || idle.length + running.size < size)) {
      const call = queue.shift()!;
      let member: PoolMember;
      try {
        // The most recently used member first: its models are loaded.
        member = idle.pop() ?? join();
      } catch (err) {
        call.reject(OmrError.from(err));
        continue;
      }
      void run(member, call);
    }
  }

  function join(): PoolMember {
    const member = spawn();
    member.onEnd((reason) => {
      const call = running.get(member);
      running.delete(member);
      if (idle.includes(member)) idle.splice(idle.indexOf(member), 1);
      void member.terminate();
      call?.reject(new OmrError('WORKER_CRASHED', `The recognition worker running this call stopped unexpectedly (${reason}).`, { status: 500 }));
      dispatch();
    });
    return member;
  }

  async function run(member: PoolMember, call: QueuedCall): Promise<void> {
    running.set(member, call);
    // Working, the member keeps the process running until its answer arrives; idle, it lets a script end.
    member.keepAlive?.(true);
    try {
      call.onStart?.();
      call.resolve(await call.run(member.calls, call));
    } catch (err) {
      call.reject(OmrError.from(err));
    } finally {
      clearTimeout(call.timer);
    }
    // A member that ended, or was ended by close(), while running the call is gone.
    if (running.get(member) !== call) return;
    running.delete(member);
    idle.push(member);
    dispatch();
    if (idle.includes(member)) member.keepAlive?.(false);
  }

  return {
    recognize(request, events, options) {
      return submit(async (calls, call) => {
        // Opening the files counts as the first page's time, starting a fresh worker does not; each page then has its own.
        await memberOf(call)?.ready?.catch(() => undefined);
        if (call.stopped) throw call.stopped;
        startPage(call);
        return calls.recognize(request, {
          // Closing the pool also stops a run it cannot terminate (one on the calling thread) at its next page.
          beforePage: async (page) => {
            if (closed) throw poolClosed();
            checkBetweenPages(call);
            await events?.beforePage?.(page);
            if (call.stopped) throw call.stopped;
            startPage(call);
          },
          onStage: (page, stage) => events?.onStage?.(page, stage),
        });
      }, options);
    },
    countPages: (file, options) => submit((calls) => calls.countPages(file), options),
    renderPage: (files, page, maxSide, options) => submit((calls) => calls.renderPage(files, page, maxSide), options),
    abortsAtOnce: true,
    async close() {
      closed = true;
      clearInterval(memoryCheck);
      for (const call of queue.splice(0)) call.reject(poolClosed());
      for (const call of running.values()) {
        clearTimeout(call.timer);
        call.reject(poolClosed());
      }
      const members = [...idle.splice(0), ...running.keys()];
      running.clear();
      await Promise.all(members.map((member) => member.terminate()));
    },
  };
}

/** Why an aborted call failed: the signal's reason when it is an `OmrError` (a job's cancel), else `ABORTED`. */
function abortReason(signal: AbortSignal): OmrError {
  return signal.reason instanceof OmrError ? signal.reason : new OmrError('ABORTED', 'The recognition call was aborted before it finished.');
}

function pageTimedOut(budgetMs: number): OmrError {
  return new OmrError(
    'ENGINE_TIMEOUT',
    `A page took longer than the ${budgetMs / 1000} s a page may take (pageTimeoutMs), and its recognition was stopped. Check the page is a score of a usual size, or raise the page budget.`,
  );
}

function outOfMemory(budgetMb: number, usedMb: number): OmrError {
  return new OmrError(
    'ENGINE_OUT_OF_MEMORY',
    `Reading a page took the process to ${Math.round(usedMb)} MiB, past the ${budgetMb} MiB recognition may use (memoryBudgetMb), and its recognition was stopped. Check the page is a score of a usual size and resolution, or raise the memory budget.`,
  );
}

function poolClosed(): OmrError {
  return new OmrError('INTERNAL_ERROR', 'The recognition pool was closed before this call finished.', { status: 503 });
}
