/**
 * Long-poll deadlines that run out only when the test says so, passed to
 * the engine as `longPollTimer`. A poll that answers while its deadline is
 * still held was ended by something else — the job's change, an abort, a
 * close — which a test can then assert without timing anything. A poll that
 * nothing wakes waits for good, so such a bug fails by the test's timeout.
 *
 * Only the deadlines a test claims with `next()` or `hold()` are held; the
 * others (the polls of helpers like `until`) run out on a timer, as by
 * default.
 */
import type { LongPollTimer } from '../../src/jobs/local-client.js';

export interface HeldDeadline {
  /** The wait asked for, in milliseconds. */
  ms: number;
  /** Resolves once the engine stopped the timer (the poll ended some other way, or it ran out). */
  stopped: Promise<void>;
  /** Ends the wait as its deadline would. */
  runOut(): void;
}

export interface HeldDeadlines {
  longPollTimer: LongPollTimer;
  /** Holds the next deadline armed after this call (of the next long-poll the engine starts to hold). */
  next(): Promise<HeldDeadline>;
  /** Holds the next `count` deadlines armed after this call; resolves once all are. */
  hold(count: number): Promise<HeldDeadline[]>;
}

export function heldDeadlines(): HeldDeadlines {
  /** Claims on deadlines still to come, oldest first. */
  const claims: { count: number; held: HeldDeadline[]; resolve: (held: HeldDeadline[]) => void }[] = [];
  const hold = (count: number) => new Promise<HeldDeadline[]>((resolve) => claims.push({ count, held: [], resolve }));
  return {
    longPollTimer(end, ms) {
      const claim = claims[0];
      if (!claim) {
        const timer = setTimeout(end, ms);
        return () => clearTimeout(timer);
      }
      let stop!: () => void;
      const deadline: HeldDeadline = {
        ms,
        stopped: new Promise((resolve) => (stop = resolve)),
        runOut: end,
      };
      claim.held.push(deadline);
      if (claim.held.length === claim.count) claim.resolve(claims.shift()!.held);
      return stop;
    },
    hold,
    async next() {
      return (await hold(1))[0]!;
    },
  };
}
