/**
 * Octave lines (8va over a staff, 8vb under it), found in the page's ink.
 *
 * An octave line is an "8" clear of the staff with a dashed line running
 * right from it over the notes it moves (its closing hook is not looked
 * for: "loco" after it can cut the hook short).
 * The symbol model paints the "8" as a tuplet number; a tuplet's number
 * stands alone over its group or in the middle of a solid bracket, never at
 * the left end of a dashed line. Which notes the line covers, and what it
 * does to their pitch, is the music reader's question.
 */
import type { BinaryImage } from '../preparation/binarize.js';
import { staffLineY, type Staff } from '../staves/detect-staves.js';
import type { Mark } from './read-symbols.js';

export interface OctaveLineSymbol {
  staff: number;
  /** From the 8's left edge to the dashed line's end, and the 8's top and bottom, in prepared pixels. */
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** The model's confidence in the 8. */
  confidence: number;
  /** Octaves the notes under it sound from where they are written: 1 over the staff, −1 under it. */
  octaves: 1 | -1;
}

/** The 8 stands at least this many spaces clear of the staff's outer line. */
const EIGHT_CLEAR_OF_STAFF = 0.5;
/** The first dash starts within this many spaces right of the 8 … */
const FIRST_DASH_REACH = 1.2;
/** … each dash is at most this many spaces long (a bracket's or a volta's line is solid) … */
const DASH_MAX_LENGTH = 1.5;
/** … at least this many long, and at least {@link DASH_ELONGATION} times as long as it is thick (staccato dots in a row under a triplet's 3 are round) … */
const DASH_MIN_LENGTH = 0.25;
const DASH_ELONGATION = 2;
/** … and at most this many thick … */
const DASH_MAX_THICKNESS = 0.35;
/** … and the next starts within this many spaces of the last one's end. */
const DASH_MAX_GAP = 1.2;
/** A line of fewer dashes than this is something else (a tuplet number beside a stray stroke). */
const MIN_DASHES = 3;
/** The dashes run level with the 8: from this many spaces above its box to as far below it. */
const DASH_ROWS_BEYOND_EIGHT = 0.3;

/** The octave lines over and under each staff, each from one of the tuplet-number marks. */
export function readOctaveLines(ink: BinaryImage, numbers: readonly Mark[], staves: readonly Staff[], space: number): { lines: OctaveLineSymbol[]; eights: Set<Mark> } {
  const lines: OctaveLineSymbol[] = [];
  const eights = new Set<Mark>();
  for (const mark of numbers) {
    const staff = staves[mark.staff];
    if (!staff) continue;
    const above = mark.y1 <= staffLineY(staff, 0, mark.x) - space * EIGHT_CLEAR_OF_STAFF;
    const below = mark.y0 >= staffLineY(staff, 4, mark.x) + space * EIGHT_CLEAR_OF_STAFF;
    if (!above && !below) continue;
    const end = dashedLineEnd(ink, mark, space);
    if (end === undefined) continue;
    lines.push({ staff: mark.staff, x0: mark.x0, x1: end, y0: mark.y0, y1: mark.y1, confidence: mark.confidence, octaves: above ? 1 : -1 });
    eights.add(mark);
  }
  return { lines, eights };
}

/** Where the dashed line running right from the mark ends, on the row level with the mark that carries it furthest; undefined where no row does. */
function dashedLineEnd(ink: BinaryImage, mark: Mark, space: number): number | undefined {
  let best: number | undefined;
  const from = Math.max(0, Math.round(mark.y0 - space * DASH_ROWS_BEYOND_EIGHT));
  const to = Math.min(ink.height - 1, Math.round(mark.y1 + space * DASH_ROWS_BEYOND_EIGHT));
  for (let y = from; y <= to; y++) {
    const end = dashesAlong(ink, y, Math.round(mark.x1), space);
    if (end !== undefined && (best === undefined || end > best)) best = end;
  }
  return best;
}

/** The end of a run of at least {@link MIN_DASHES} thin dashes along row y from x (the first within reach); undefined where there is none. */
function dashesAlong(ink: BinaryImage, y: number, x: number, space: number): number | undefined {
  const on = (cx: number) => cx < ink.width && ink.data[y * ink.width + cx]! > 0;
  const reach = space * FIRST_DASH_REACH;
  let cx = x;
  let gapLimit = reach;
  let dashes = 0;
  let end = x;
  for (;;) {
    const gapStart = cx;
    while (cx < ink.width && !on(cx) && cx - gapStart <= gapLimit) cx++;
    if (cx >= ink.width || !on(cx)) break;
    const start = cx;
    while (on(cx)) cx++;
    const length = cx - start;
    const thick = thickness(ink, Math.round((start + cx) / 2), y);
    if (length > space * DASH_MAX_LENGTH || length < space * DASH_MIN_LENGTH || length < thick * DASH_ELONGATION || thick > space * DASH_MAX_THICKNESS) break;
    dashes++;
    end = cx;
    gapLimit = space * DASH_MAX_GAP;
  }
  return dashes >= MIN_DASHES ? end : undefined;
}

/** The height of the ink run through (x, y) in its column. */
function thickness(ink: BinaryImage, x: number, y: number): number {
  let top = y;
  let bottom = y;
  while (top > 0 && ink.data[(top - 1) * ink.width + x]! > 0) top--;
  while (bottom < ink.height - 1 && ink.data[(bottom + 1) * ink.width + x]! > 0) bottom++;
  return bottom - top + 1;
}
