/**
 * Voltas (first and second endings): which measures each spans, and its number.
 *
 * A volta's bracket starts at a barline and runs over the measures of its
 * ending to the barline it stops at (closed with a hook there) or to just
 * before it (left open). A bracket-like line that does not start at a
 * measure's start is something else (a tuplet's bracket). Endings are
 * numbered in order: an ending that begins where the one before it ended is
 * the next number ("1." then "2."); any other begins a set, at 2 after a
 * backward repeat, else at 1. An ending that runs on over a system break
 * goes on under the next system's bracket, which has no hook at its start.
 */
import type { Barline } from '../score/model.js';
import type { VoltaSymbol } from '../symbols/voltas.js';

/** One ending on a system: its first and last measure (indices on the system) and how its bracket ends. */
export interface SystemEnding {
  first: number;
  last: number;
  closed: boolean;
  /** The bracket comes on from the system before, without a hook: the ending there goes on. */
  continued?: boolean;
}

/** A volta's hook stands within this many spaces of the barline its ending starts at (past a repeat's strokes and dots) … */
const VOLTA_START_REACH = 1.5;
/** … or, on a system's first measure, after the clef and key, within this many spaces of the system's start. */
const VOLTA_OPENING_REACH = 12;
/** Its line ends within this many spaces of the barline its ending stops at. */
const VOLTA_END_REACH = 2;
/** Brackets on several staves of a system starting within this many spaces of each other are one volta. */
const SAME_VOLTA = 1.5;

/** The endings the voltas over a system's staves mark, left to right (`bounds`: the measures' edges, as in SystemMeasures). */
export function systemEndings(bounds: readonly number[], voltas: readonly VoltaSymbol[], space: number): SystemEnding[] {
  const endings: SystemEnding[] = [];
  const starts: number[] = [];
  for (const volta of [...voltas].sort((a, b) => a.x0 - b.x0)) {
    if (starts.some((x) => Math.abs(x - volta.x0) < space * SAME_VOLTA)) continue;
    const first = volta.continued ? (volta.x0 < bounds[1]! ? 0 : undefined) : startMeasure(bounds, volta.x0, space);
    if (first === undefined) continue;
    // The measure whose right edge is nearest the line's end.
    let last = first;
    for (let m = first + 1; m < bounds.length - 1; m++) if (Math.abs(bounds[m + 1]! - volta.x1) < Math.abs(bounds[last + 1]! - volta.x1)) last = m;
    if (Math.abs(bounds[last + 1]! - volta.x1) > space * VOLTA_END_REACH) continue;
    if (endings.some((e) => e.last >= first)) continue;
    starts.push(volta.x0);
    endings.push({ first, last, closed: volta.closed, ...(volta.continued ? { continued: true } : {}) });
  }
  return endings;
}

/** The measure an ending starts at whose bracket's hook stands at x; undefined if x is no measure's start. */
function startMeasure(bounds: readonly number[], x: number, space: number): number | undefined {
  for (let m = 1; m < bounds.length - 1; m++) if (Math.abs(bounds[m]! - x) <= space * VOLTA_START_REACH) return m;
  if (x >= bounds[0]! && x < Math.min(bounds[1]!, bounds[0]! + space * VOLTA_OPENING_REACH)) return 0;
  return undefined;
}

/** A system's endings, and which of its measures end with a backward repeat. */
export interface SystemEndings {
  endings: readonly SystemEnding[];
  /** Per measure of the system: whether its right barline repeats back. */
  repeatsBack: readonly boolean[];
}

/**
 * The endings' numbers, in reading order over every system: an ending that starts on the measure after
 * the one before it ended continues its set. Any other starts a set: at 1, or at 2 where the measure
 * before it repeats back (the music before it was the first ending, its bracket unseen, on an earlier
 * page or missed). A bracket continued from the system before is the ending left open at that
 * system's end, with its number; with none such it is undefined (no ending).
 */
export function numberEndings(systems: readonly SystemEndings[]): (number | undefined)[][] {
  let offset = 0;
  let previous: { last: number; number: number; open: boolean } | undefined;
  let repeatsBack = false;
  return systems.map((system) => {
    const numbers = system.endings.map((ending) => {
      if (ending.continued) {
        const carried = previous && previous.open && previous.last + 1 === offset ? previous.number : undefined;
        if (carried !== undefined) previous = { last: offset + ending.last, number: carried, open: !ending.closed };
        return carried;
      }
      const before = ending.first > 0 ? system.repeatsBack[ending.first - 1] : repeatsBack;
      const number = previous && previous.last + 1 === offset + ending.first ? previous.number + 1 : before ? 2 : 1;
      previous = { last: offset + ending.last, number, open: !ending.closed };
      return number;
    });
    offset += system.repeatsBack.length;
    repeatsBack = system.repeatsBack[system.repeatsBack.length - 1] ?? false;
    return numbers;
  });
}

/** What a measure's barlines carry of the endings: the number of one starting at its left, and one stopping at its right. */
export interface MeasureEndings {
  start?: number;
  stop?: { number: number; type: 'stop' | 'discontinue' };
}

/**
 * Per system, per measure, the endings' starts and stops: an ending starts at its first measure and
 * stops at its last, closed or left open ('discontinue'), except where it runs on over the next
 * system's continued bracket: it neither stops at the break nor starts again after it.
 */
export function placeEndings(systems: readonly SystemEndings[]): MeasureEndings[][] {
  const numbers = numberEndings(systems);
  const marks = systems.map((system) => system.repeatsBack.map((): MeasureEndings => ({})));
  systems.forEach((system, si) => {
    system.endings.forEach((ending, k) => {
      const number = numbers[si]![k];
      if (number === undefined) return;
      if (!ending.continued) marks[si]![ending.first]!.start = number;
      const next = systems[si + 1];
      const goesOn = !ending.closed && ending.last === system.repeatsBack.length - 1 && next?.endings[0]?.continued && numbers[si + 1]![0] === number;
      if (!goesOn) marks[si]![ending.last]!.stop = { number, type: ending.closed ? 'stop' : 'discontinue' };
    });
  });
  return marks;
}

/** A measure's barline with an ending's start or stop added to it. */
export function withEnding(barline: Barline | undefined, number: number, type: 'start' | 'stop' | 'discontinue'): Barline {
  return { ...(barline ?? { style: 'regular' }), ending: { number: String(number), type } };
}
