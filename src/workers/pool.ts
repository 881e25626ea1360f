/**
 * The queue both pools share: up to `size` members (workers, or the calling
 * thread) run recognition calls, one call per member at a time; calls
 * beyond that wait in order of arrival. Members start when first needed and
 * are reused warm (models loaded). A member that ends on its own fails only
 * the call it was running, and the next call that needs a member starts a
 * fresh one.
 */
import { OmrError } from '../errors.js';
import type { InputFile } from '../input/decode-pages.js';
import type { RecognitionApi, RecognitionEvents, RecognitionOutcome, RecognitionRequest } from './recognition-api.js';

export interface CallOptions {
  /** Called when the call leaves the queue and starts running; until then it is queued (a job reports OMR_QUEUED). */
  onStart?: () => void;
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
}

/** What a member runs: the API without `configure`, which is the member's own business as it starts. */
export type RecognitionCalls = Omit<RecognitionApi, 'configure'>;

export interface PoolMember {
  calls: RecognitionCalls;
  /** Sets the listener told that the member ended on its own (a worker crashed). */
  onEnd(listener: (reason: string) => void): void;
  terminate(): void | Promise<unknown>;
  /** Whether the member keeps its host process running (`WorkerHandle.keepAlive`); absent where it never does. */
  keepAlive?(alive: boolean): void;
}

interface QueuedCall {
  run(calls: RecognitionCalls): Promise<unknown>;
  onStart: (() => void) | undefined;
  resolve(value: unknown): void;
  reject(error: OmrError): void;
}

export function createPool(size: number, spawn: () => PoolMember): RecognitionPool {
  if (!Number.isSafeInteger(size) || size < 1) throw new OmrError('INVALID_ARGUMENT', `pool size must be a whole number from 1, got ${size}.`);
  const queue: QueuedCall[] = [];
  const idle: PoolMember[] = [];
  const running = new Map<PoolMember, QueuedCall>();
  let closed = false;

  function submit<T>(run: (calls: RecognitionCalls) => Promise<T>, options: CallOptions | undefined): Promise<T> {
    if (closed) return Promise.reject(poolClosed());
    return new Promise<T>((resolve, reject) => {
      queue.push({ run, onStart: options?.onStart, resolve: resolve as (value: unknown) => void, reject });
      dispatch();
    });
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
      call.resolve(await call.run(member.calls));
    } catch (err) {
      call.reject(OmrError.from(err));
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
      return submit(
        (calls) =>
          calls.recognize(request, {
            // Closing the pool also stops a run it cannot terminate (one on the calling thread) at its next page.
            beforePage: async (page) => {
              if (closed) throw poolClosed();
              await events?.beforePage?.(page);
            },
            onStage: (page, stage) => events?.onStage?.(page, stage),
          }),
        options,
      );
    },
    countPages: (file, options) => submit((calls) => calls.countPages(file), options),
    renderPage: (files, page, maxSide, options) => submit((calls) => calls.renderPage(files, page, maxSide), options),
    async close() {
      closed = true;
      for (const call of queue.splice(0)) call.reject(poolClosed());
      for (const call of running.values()) call.reject(poolClosed());
      const members = [...idle.splice(0), ...running.keys()];
      running.clear();
      await Promise.all(members.map((member) => member.terminate()));
    },
  };
}

function poolClosed(): OmrError {
  return new OmrError('INTERNAL_ERROR', 'The recognition pool was closed before this call finished.', { status: 503 });
}
