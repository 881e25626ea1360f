/**
 * The key signature that opens each system, reconciled across staves and
 * systems.
 *
 * Every system restates its key, so a piece gives many readings of one
 * value, and a misread one (a time signature's 3 taken for a fourth flat, a
 * flat lost to noise) would otherwise start a key change that is not there.
 * Two facts settle them:
 *
 * - A key change moves every staff of the system by the same number of
 *   fifths, transposing instruments included. So a system starts a change
 *   only when more of its staves moved by one amount than stayed put, and
 *   by every staff when the amount is one fifth (one accidental more or
 *   less, the commonest misreading). A lone staff has no one to agree with;
 *   its change must hold in the next system too.
 * - Between changes each staff keeps one key: the one read most often. A
 *   tie goes to the key most other staves read (the concert key), then to
 *   the earliest reading.
 */

/** One value per system and staff slot: the key read at the system's start, in fifths; undefined where none was read. */
export type KeyReadings = readonly (readonly (number | undefined)[])[];

/** The reconciled opening key of every slot of every system; undefined only where no key is known yet. */
export function reconcileOpeningKeys(readings: KeyReadings): (number | undefined)[][] {
  const slots = Math.max(0, ...readings.map((r) => r.length));
  const result: (number | undefined)[][] = [];
  let previous: (number | undefined)[] = new Array<number | undefined>(slots).fill(undefined);
  let start = 0;
  let shift = 0;
  for (let i = 1; i <= readings.length; i++) {
    const change = i < readings.length && startsChange(readings, start, i);
    if (i < readings.length && !change) continue;
    const keys = segmentKeys(readings.slice(start, i), slots).map((key, s) => key ?? (previous[s] === undefined ? undefined : previous[s]! + shift));
    for (let k = start; k < i; k++) result.push([...keys]);
    if (change) shift = winner(deltaVotes(readings.slice(start, i), readings[i]!)) ?? 0;
    previous = keys;
    start = i;
  }
  return result;
}

/** Whether system i moves its staves' keys away from those of systems start..i−1. */
function startsChange(readings: KeyReadings, start: number, i: number): boolean {
  const votes = deltaVotes(readings.slice(start, i), readings[i]!);
  const amount = winner(votes);
  if (amount === undefined || amount === 0) return false;
  if ((votes.get(amount) ?? 0) <= (votes.get(0) ?? 0)) return false;
  const voters = [...votes.values()].reduce((a, b) => a + b, 0);
  // One sharp or flat more or less is the commonest misreading of all (a note's accidental, a
  // digit, a blot): such a change must be read on every staff.
  if (Math.abs(amount) === 1 && votes.get(amount)! < voters) return false;
  if (voters >= 2 || i + 1 >= readings.length) return true;
  // A lone staff: the next system must read the same moved key.
  const next = deltaVotes(readings.slice(start, i), readings[i + 1]!);
  return winner(next) === amount;
}

/** For each staff read in `system` and in the segment, how far its key moved, counted by amount. */
function deltaVotes(segment: KeyReadings, system: readonly (number | undefined)[]): Map<number, number> {
  const votes = new Map<number, number>();
  system.forEach((value, s) => {
    if (value === undefined) return;
    const before = mostRead(segment.map((r) => r[s]));
    if (before === undefined) return;
    votes.set(value - before, (votes.get(value - before) ?? 0) + 1);
  });
  return votes;
}

/** The amount with most votes; staying put wins a tie. */
function winner(votes: Map<number, number>): number | undefined {
  let best: number | undefined;
  for (const [amount, n] of votes) {
    const bestN = best === undefined ? -1 : votes.get(best)!;
    if (n > bestN || (n === bestN && amount === 0)) best = amount;
  }
  return best;
}

/** Each slot's key over one segment: the reading most often made, ties settled by the concert key, then by the earliest. */
function segmentKeys(segment: KeyReadings, slots: number): (number | undefined)[] {
  const tallies = Array.from({ length: slots }, (_, s) => tally(segment.map((r) => r[s])));
  const clear = tallies.map((t) => (t.leaders.length === 1 ? t.leaders[0] : undefined));
  const concert = mostRead(clear);
  return tallies.map((t) => {
    if (t.leaders.length <= 1) return t.leaders[0];
    if (concert !== undefined && t.leaders.includes(concert)) return concert;
    return t.leaders[0];
  });
}

/** The value read most often (the first read of equals); undefined for none. */
export function mostRead(values: readonly (number | undefined)[]): number | undefined {
  return tally(values).leaders[0];
}

/** The values read most often, in order of first reading. */
function tally(values: readonly (number | undefined)[]): { leaders: number[] } {
  const counts = new Map<number, number>();
  for (const v of values) if (v !== undefined) counts.set(v, (counts.get(v) ?? 0) + 1);
  const most = Math.max(0, ...counts.values());
  return { leaders: [...counts].filter(([, n]) => n === most).map(([v]) => v) };
}
