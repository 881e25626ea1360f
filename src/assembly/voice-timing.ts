/**
 * When the items of a voice happen: where the printed notes leave the time
 * open (rests an engraver left out, a voice that joins another for a note,
 * small notes), the other voices and staves of the system say it. Each
 * helper looks at one measure of one staff; the timing pass
 * (passes/timing-pass.ts) calls them around the repair of its voices
 * (measure-repair.ts).
 */
import { add, compare, equals, frac, mul, sub, toNumber, ZERO, type Fraction } from '../score/fraction.js';
import { notatedDuration } from '../score/timeline.js';
import { voiceDuration, type TimedItem } from './measure-repair.js';
import type { StaffItem } from './strokes.js';
import { standTogether } from './voices.js';

/** An item of a voice with its source on the page. */
export interface PlacedItem extends TimedItem {
  source: StaffItem;
  /** A small note that takes its time (see cueNotes). */
  cue?: boolean;
}

/** A first voice's item counts as run before a later voice starts when it stands this many spaces or more left of it. */
const WELL_LEFT = 1.5;
/** An item within this many spaces of a point of the time grid across the staves starts at its onset. */
const IN_LINE = 0.6;

/**
 * Time the first voice has run before a later voice's first item: the length of its items standing
 * well left of it (a head and a second voice's head on the same beat can stand a head's width apart;
 * a whole note, moved further aside by a head a second away, starts its measure).
 */
export function leadingGap(first: readonly PlacedItem[], later: readonly PlacedItem[], space: number): Fraction {
  const start = later[0];
  if (!start || start.measureRest || start.type === 'whole') return ZERO;
  const together = (item: PlacedItem) => item.source.kind === 'chord' && start.source.kind === 'chord' && standTogether(item.source, start.source, space);
  return voiceDuration(first.filter((item) => !item.measureRest && item.x < start.x - space * WELL_LEFT && !together(item)));
}

/**
 * A staff whose part starts later in the measure than its printed notes show (the rests before them
 * left out, as engravers do in a keyboard's right hand): where the voice falls short by just the
 * onset the other staves' complete voices give the place of its first item, it starts there.
 */
export function lateStart(items: readonly PlacedItem[], grid: readonly TimePoint[], expected: Fraction, space: number): Fraction {
  const first = items[0];
  const short = sub(expected, voiceDuration(items));
  if (!first || first.measureRest || compare(short, ZERO) <= 0) return ZERO;
  const inLine = grid.find((p) => Math.abs(p.x - first.x) < space);
  return inLine && equals(inLine.onset, short) ? short : ZERO;
}

/**
 * A second voice that joins the first for a note or two (a unison with different heads) hands the
 * line back: where the first voice falls short by just what the second runs over, and the second's
 * last items, right of everything in the first, last exactly that long, they are the first's.
 */
export function handBackTrailing(first: PlacedItem[], later: PlacedItem[], laterExpected: Fraction, expected: Fraction): void {
  const short = sub(expected, voiceDuration(first));
  if (compare(short, ZERO) <= 0 || !equals(sub(voiceDuration(later), laterExpected), short)) return;
  const end = Math.max(...first.map((item) => item.x));
  let tail = ZERO;
  for (let k = later.length - 1; k > 0 && later[k]!.x > end; k--) {
    tail = add(tail, later[k]!.duration);
    if (equals(tail, short)) {
      first.push(...later.splice(k));
      return;
    }
    if (compare(tail, short) > 0) return;
  }
}

/**
 * Notes printed small in a voice beside full-size notes, that the voice needs to fill its measure,
 * are cue notes (a second verse's rhythm, another instrument's line): they take their time, unlike
 * grace notes.
 */
export function cueNotes(voice: PlacedItem[], expected: Fraction): void {
  const small = voice.filter((item) => item.grace && item.source.kind === 'chord' && item.source.stem);
  if (!small.length || equals(voiceDuration(voice), expected)) return;
  const timed = small.reduce((sum, item) => add(sum, notatedDuration(item.type, item.dots)), ZERO);
  if (!equals(add(voiceDuration(voice), timed), expected)) return;
  for (const item of small) {
    item.grace = false;
    item.cue = true;
    item.duration = notatedDuration(item.type, item.dots);
  }
}

/** A place in the measure whose time is known: an item of a complete voice. */
export interface TimePoint {
  x: number;
  onset: Fraction;
}

/**
 * The onsets the complete voices (those that fill the measure exactly) give their items, and the
 * measure's end at its closing barline.
 */
export function timeGrid(voices: readonly PlacedItem[][], expected: Fraction, end: number): TimePoint[] {
  const points: TimePoint[] = [{ x: end, onset: expected }];
  for (const voice of voices) {
    if (!equals(voiceDuration(voice), expected) || voice.some((item) => item.measureRest)) continue;
    let onset = ZERO;
    for (const item of voice) {
      if (!item.grace) points.push({ x: item.x, onset });
      onset = add(onset, item.duration);
    }
  }
  return points.sort((a, b) => a.x - b.x);
}

/**
 * A voice still short of its measure once repaired, whose notes stand where
 * other staves' notes leave room between them (the lower staff's half of a
 * beam crossing between the staves, a voice whose rests are not printed):
 * each item takes the onset its place has among the complete voices —
 * that of a note standing in line with it, or between two notes in
 * proportion, on the beat grid of its own value — and the gaps are rests.
 * Returns the gap before each item and after the last, or undefined where
 * the places do not make a voice that fits.
 */
export function gapsByPlace(items: readonly PlacedItem[], grid: readonly TimePoint[], expected: Fraction, space: number): Fraction[] | undefined {
  if (items.length < 2 || grid.length < 3 || compare(voiceDuration(items), expected) >= 0) return undefined;
  if (items.some((item) => item.grace || item.tuplet || item.measureRest)) return undefined;
  const gaps: Fraction[] = [];
  let time = ZERO;
  for (const item of items) {
    const onset = onsetAt(item, grid, space);
    if (!onset || compare(onset, time) < 0) return undefined;
    gaps.push(sub(onset, time));
    time = add(onset, item.duration);
  }
  if (compare(time, expected) > 0) return undefined;
  gaps.push(sub(expected, time));
  return gaps;
}

function onsetAt(item: PlacedItem, grid: readonly TimePoint[], space: number): Fraction | undefined {
  const inLine = grid.find((p) => Math.abs(p.x - item.x) < space * IN_LINE);
  if (inLine) return inLine.onset;
  const k = grid.findIndex((p) => p.x > item.x);
  if (k <= 0) return undefined;
  const [a, b] = [grid[k - 1]!, grid[k]!];
  if (compare(b.onset, a.onset) <= 0) return undefined;
  const t = toNumber(a.onset) + ((toNumber(b.onset) - toNumber(a.onset)) * (item.x - a.x)) / (b.x - a.x);
  // On the grid of its own value (an eighth on eighths), within a third of a step.
  const step = compare(item.duration, frac(1, 2)) < 0 ? item.duration : frac(1, 2);
  const steps = Math.round(t / toNumber(step));
  if (Math.abs(t / toNumber(step) - steps) > 0.3) return undefined;
  return mul(step, frac(steps));
}
