/**
 * A worker as the pool sees it, whatever kind it is: a comlink endpoint,
 * word of its end when it ends on its own, and a way to end it.
 * `node-worker.ts` and `web-worker.ts` adapt worker_threads and Web Workers.
 */
import type { Endpoint } from 'comlink';

export interface WorkerHandle {
  /** Where comlink talks to the worker. */
  endpoint: Endpoint;
  /**
   * Sets the listener told, once, that the worker ended on its own: an
   * uncaught error, an exit, running out of memory, closing itself.
   */
  onEnd(listener: (reason: string) => void): void;
  /** Ends the worker; the `onEnd` listener is not told. */
  terminate(): void | Promise<unknown>;
  /**
   * Whether the worker keeps its host process running (Node's `ref`/`unref`;
   * absent where a worker never does, as in browsers). The pool keeps a worker
   * only while it runs a call, so a script ends once its work is done, without
   * calling `close()`.
   */
  keepAlive?(alive: boolean): void;
}

/** A handle whose `end` reaches the listener at most once, and never after `terminate`. */
export function endingHandle(
  endpoint: Endpoint,
  terminate: () => void | Promise<unknown>,
  keepAlive?: (alive: boolean) => void,
): WorkerHandle & { end(reason: string): void } {
  let listener: ((reason: string) => void) | undefined;
  let over = false;
  return {
    endpoint,
    onEnd: (l) => void (listener = l),
    end(reason) {
      if (over) return;
      over = true;
      listener?.(reason);
    },
    terminate() {
      over = true;
      return terminate();
    },
    ...(keepAlive ? { keepAlive } : {}),
  };
}
