/**
 * Long-poll deadlines that run out only when the test says so, passed to
 * the engine as `longPollTimer`. A poll that answers while its deadline is
 * still held was ended by something else — the job's change, an abort, a
 * close — which a test can then assert without timing anything. A poll that
 * nothing wakes waits for good, so such a bug fails by the test's timeout.
 *
 * Only the deadlines a test claims with `next()` are held; the others (the
 * polls of helpers like `until`) run out on a timer, as by default.
 */
import type { LongPollTimer } from '../../src/jobs/local-client.js';

export interface HeldDeadline {
  /** The wait asked for, in milliseconds. */
  ms: number;
  /** Whether `runOut` ended it. */
  ranOut: boolean;
  /** Resolves once the engine stopped the timer (the poll ended some other way, or it ran out). */
  stopped: Promise<void>;
  /** Ends the wait as its deadline would. */
  runOut(): void;
}

export interface HeldDeadlines {
  longPollTimer: LongPollTimer;
  /** Holds the next deadline armed after this call (of the next long-poll the engine starts to hold). */
  next(): Promise<HeldDeadline>;
}

export function heldDeadlines(): HeldDeadlines {
  const listeners: ((deadline: HeldDeadline) => void)[] = [];
  return {
    longPollTimer(end, ms) {
      if (!listeners.length) {
        const timer = setTimeout(end, ms);
        return () => clearTimeout(timer);
      }
      let stop!: () => void;
      const deadline: HeldDeadline = {
        ms,
        ranOut: false,
        stopped: new Promise((resolve) => (stop = resolve)),
        runOut() {
          deadline.ranOut = true;
          end();
        },
      };
      for (const listener of listeners.splice(0)) listener(deadline);
      return stop;
    },
    next() {
      return new Promise((resolve) => listeners.push(resolve));
    },
  };
}
