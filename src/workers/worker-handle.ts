/**
 * A worker as the pool sees it, whatever kind it is: a comlink endpoint,
 * word of its end when it ends on its own, and a way to end it.
 * `node-worker.ts` and `web-worker.ts` adapt worker_threads and Web Workers.
 */

/**
 * Where messages to and from a worker go: a Web Worker, a MessagePort, or
 * comlink's adapter of a Node worker thread. The shape comlink talks to
 * (its `Endpoint`), spelled out here so that the public typings need
 * neither comlink's types nor the DOM's.
 */
export interface MessageEndpoint {
  postMessage(message: unknown, transfer?: unknown[]): void;
  addEventListener(type: string, listener: MessageListener, options?: object): void;
  removeEventListener(type: string, listener: MessageListener, options?: object): void;
  start?: () => void;
}

/**
 * A listener as comlink registers one: a function, or an object with
 * `handleEvent`. The event is typed `never` so that the listener types of
 * Web Workers, MessagePorts and Node's ports all fit, without naming the DOM's `Event`.
 */
export type MessageListener = ((event: never) => void) | { handleEvent(event: never): void };

export interface WorkerHandle {
  /** Where comlink talks to the worker. */
  endpoint: MessageEndpoint;
  /**
   * Sets the listener told, once, that the worker ended on its own: an
   * uncaught error, an exit, running out of memory (`outOfMemory`, where
   * the worker's heap cap tells: Node), closing itself.
   */
  onEnd(listener: (reason: string, outOfMemory?: boolean) => void): void;
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
  endpoint: MessageEndpoint,
  terminate: () => void | Promise<unknown>,
  keepAlive?: (alive: boolean) => void,
): WorkerHandle & { end(reason: string, outOfMemory?: boolean): void } {
  let listener: ((reason: string, outOfMemory?: boolean) => void) | undefined;
  let over = false;
  return {
    endpoint,
    onEnd: (l) => void (listener = l),
    end(reason, outOfMemory = false) {
      if (over) return;
      over = true;
      listener?.(reason, outOfMemory);
    },
    terminate() {
      over = true;
      return terminate();
    },
    ...(keepAlive ? { keepAlive } : {}),
  };
}
