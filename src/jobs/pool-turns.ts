/**
 * Fair turns at a recognition pool shared by several engines — on the
 * server, one engine per account. The pool serves calls in the order they
 * arrive, so an account with many queued jobs would fill its queue and make
 * another account's single job wait behind all of them. Instead each
 * engine is a lane: calls wait here, in their lane, and are handed to the
 * pool one at a time, taking the lanes in turn: the lane served least
 * recently goes first (a lane new to the pool before all others).
 *
 * At most one handed call waits inside the pool; the next is chosen only
 * when that one starts (the pool's `onStart`), so the choice is made as late
 * as possible, when a worker frees. A call that settles without starting
 * (refused at once) counts as started. Lanes keep arrival order.
 *
 * Engines sharing a pool share its turns without being told: they are kept
 * per pool object.
 */
import type { RecognitionPool } from '../workers/pool.js';

/** Hands a call to the pool; calls `started` once the pool starts running it. */
export type PoolCall<T> = (started: () => void) => Promise<T>;

interface Waiting {
  hand(): void;
}

export class PoolTurns {
  /** Lanes with calls waiting, each in arrival order. */
  private readonly lanes = new Map<object, Waiting[]>();
  /** When each lane was last served, counted in calls handed; a lane never served has none. */
  private readonly served = new WeakMap<object, number>();
  private handedSoFar = 0;
  /** Calls handed to the pool that have not started yet. */
  private handed = 0;
  private dispatching = false;

  /** Runs `call` when it is `lane`'s turn; resolves or rejects as the call does. */
  run<T>(lane: object, call: PoolCall<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiting: Waiting = {
        hand: () => {
          let started = false;
          const start = () => {
            if (started) return;
            started = true;
            this.handed--;
            this.dispatch();
          };
          this.handed++;
          let result: Promise<T>;
          try {
            result = call(start);
          } catch (err) {
            result = Promise.reject(err);
          }
          result.then(resolve, reject).finally(start);
        },
      };
      const queue = this.lanes.get(lane);
      if (queue) queue.push(waiting);
      else this.lanes.set(lane, [waiting]);
      this.dispatch();
    });
  }

  private dispatch(): void {
    // A call the pool starts at once calls back in here: the loop below picks up after it.
    if (this.dispatching) return;
    this.dispatching = true;
    try {
      while (this.handed === 0 && this.lanes.size > 0) {
        const lane = this.leastRecentlyServed();
        const queue = this.lanes.get(lane)!;
        const next = queue.shift()!;
        if (queue.length === 0) this.lanes.delete(lane);
        this.served.set(lane, ++this.handedSoFar);
        next.hand();
      }
    } finally {
      this.dispatching = false;
    }
  }

  /** The waiting lane served longest ago; among lanes never served, the first to arrive. */
  private leastRecentlyServed(): object {
    let best: object | undefined;
    let bestServed = Infinity;
    for (const lane of this.lanes.keys()) {
      const served = this.served.get(lane) ?? 0;
      if (served < bestServed) {
        best = lane;
        bestServed = served;
      }
    }
    return best!;
  }
}

const turnsByPool = new WeakMap<RecognitionPool, PoolTurns>();

/** The turns of `pool`, shared by every engine that uses it. */
export function turnsFor(pool: RecognitionPool): PoolTurns {
  let turns = turnsByPool.get(pool);
  if (!turns) {
    turns = new PoolTurns();
    turnsByPool.set(pool, turns);
  }
  return turns;
}
