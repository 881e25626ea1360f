/**
 * Volta brackets (first and second endings), found in the page's ink.
 *
 * A volta is a thin level line over a staff, a couple of spaces above its
 * top line, with a hook down at its start and, where the ending closes, at
 * its end; its number stands under the line beside the first hook. Beams are
 * thick, slurs and hairpins are not level, ledger lines and dashes are short,
 * and a tuplet's bracket is broken by its number: none of them is a long thin
 * level line with a hook at its start. An ending that runs on over the next
 * system goes on there with no hook, from the start of its first measure. Which measures a volta spans, and
 * its number, are the music reader's questions (assembly/voltas.ts).
 */
import type { BinaryImage } from '../preparation/binarize.js';
import { staffLineY, type Staff } from '../staves/detect-staves.js';

export interface VoltaSymbol {
  staff: number;
  /** The line's ends, in prepared pixels. */
  x0: number;
  x1: number;
  /** The line's height on the page. */
  y: number;
  /** Whether a hook closes its end (an ending that stops there, rather than one left open). */
  closed: boolean;
  /** No hook at its start, where the system's first measure starts: an ending carried on from the system before. */
  continued?: boolean;
}

/** The line stands at least this many spaces above the staff's top line … */
const VOLTA_MIN_RISE = 1.2;
/** … and at most this many (engravers lift it clear of high notes). */
const VOLTA_MAX_RISE = 10;
/** It is at least this many spaces long. */
const VOLTA_MIN_LENGTH = 3;
/** It is at most this many spaces thick (a beam is half a space). */
const VOLTA_MAX_THICKNESS = 0.3;
/** A row's ink continues the line through gaps of at most this many spaces (a stem or a letter touching it does not break it). */
const VOLTA_GAP = 0.15;
/** The hook down from the line is at least this many spaces long … */
const HOOK_MIN_LENGTH = 1;
/** … and stands within this many spaces of the line's end. */
const HOOK_REACH = 0.4;
/** Paper a few pixels above and below the line along all but this share of its length (a row through bold letters has ink there) … */
const CLEAR_TOUCHING = 0.2;
/** … leaving out, below it, this many spaces after its start, where the number hangs. */
const NUMBER_WIDTH = 1.5;
/** A line with no hook at its start carries an ending on from the system before where it starts within this many spaces of the staff's start (after the clef and key) … */
const CONTINUED_START_REACH = 12;
/** … and is at least this many spaces long. */
const CONTINUED_MIN_LENGTH = 8;
/** Two lines whose rows meet and whose spans overlap by this share of the shorter are one line seen twice. */
const SAME_LINE_OVERLAP = 0.5;

/** The voltas over each staff. */
export function readVoltas(ink: BinaryImage, staves: readonly Staff[], space: number): VoltaSymbol[] {
  const found: VoltaSymbol[] = [];
  staves.forEach((staff, index) => {
    const above = index > 0 ? staves[index - 1] : undefined;
    for (const line of levelLines(ink, staff, above, space)) {
      const hookAt = (x: number) => hookDown(ink, x, line.y1, space);
      const hooked = hookAt(line.x0);
      const continued = !hooked && line.x0 - staff.x0 <= space * CONTINUED_START_REACH && line.x1 - line.x0 >= space * CONTINUED_MIN_LENGTH;
      if ((!hooked && !continued) || !standsClear(ink, line, space)) continue;
      found.push({ staff: index, x0: line.x0, x1: line.x1, y: (line.y0 + line.y1) / 2, closed: hookAt(line.x1), ...(continued ? { continued } : {}) });
    }
  });
  return found;
}

interface LevelLine {
  x0: number;
  x1: number;
  /** First and last row of its ink. */
  y0: number;
  y1: number;
}

/** Long thin level lines in the band over a staff (below the staff above it, if any). */
function levelLines(ink: BinaryImage, staff: Staff, above: Staff | undefined, space: number): LevelLine[] {
  const x0 = Math.max(0, Math.floor(staff.x0));
  const x1 = Math.min(ink.width, Math.ceil(staff.x1));
  const top = Math.min(staffLineY(staff, 0, x0), staffLineY(staff, 0, x1));
  let from = Math.floor(top - space * VOLTA_MAX_RISE);
  if (above) from = Math.max(from, Math.ceil(Math.max(staffLineY(above, 4, x0), staffLineY(above, 4, x1)) + space));
  const to = Math.ceil(top - space * VOLTA_MIN_RISE);
  const open: LevelLine[] = [];
  const lines: LevelLine[] = [];
  for (let y = Math.max(0, from); y <= to && y < ink.height; y++) {
    for (const [a, b] of longRuns(ink, y, x0, x1, space)) {
      const same = open.find((l) => l.y1 >= y - 1 && Math.min(l.x1, b) - Math.max(l.x0, a) > SAME_LINE_OVERLAP * Math.min(l.x1 - l.x0, b - a));
      if (same) Object.assign(same, { x0: Math.min(same.x0, a), x1: Math.max(same.x1, b), y1: y });
      else open.push({ x0: a, x1: b, y0: y, y1: y });
    }
    // Lines no longer continued are complete.
    for (let k = open.length - 1; k >= 0; k--) {
      if (open[k]!.y1 < y) lines.push(...open.splice(k, 1));
    }
  }
  lines.push(...open);
  return lines.sort((a, b) => a.x0 - b.x0).filter((l) => l.y1 - l.y0 + 1 <= Math.max(2, space * VOLTA_MAX_THICKNESS));
}

/** Runs of ink at least a volta long in row y, bridging gaps of a pixel or two. */
function longRuns(ink: BinaryImage, y: number, x0: number, x1: number, space: number): [number, number][] {
  const row = y * ink.width;
  const gap = Math.max(1, Math.round(space * VOLTA_GAP));
  const runs: [number, number][] = [];
  let start = -1;
  let last = -1;
  for (let x = x0; x <= x1; x++) {
    const on = x < x1 && ink.data[row + x]! > 0;
    if (on) {
      if (start < 0 || x - last > gap + 1) {
        if (start >= 0 && last + 1 - start >= space * VOLTA_MIN_LENGTH) runs.push([start, last + 1]);
        start = x;
      }
      last = x;
    }
  }
  if (start >= 0 && last + 1 - start >= space * VOLTA_MIN_LENGTH) runs.push([start, last + 1]);
  return runs;
}

/**
 * Whether the line stands alone: paper just above it, and just below it past its number. A run of ink
 * through a word's bold letters, bridged over their gaps, has the letters' ink above and below it.
 */
function standsClear(ink: BinaryImage, line: LevelLine, space: number): boolean {
  const inked = (y: number, from: number, to: number) => {
    if (y < 0 || y >= ink.height || to <= from) return 0;
    let n = 0;
    for (let x = from; x < to; x++) if (ink.data[y * ink.width + x]! > 0) n++;
    return n / (to - from);
  };
  const after = Math.round(line.x0 + space * NUMBER_WIDTH);
  return inked(line.y0 - 2, line.x0, line.x1) <= CLEAR_TOUCHING && inked(line.y1 + 2, after, line.x1 - Math.round(space * HOOK_REACH)) <= CLEAR_TOUCHING;
}

/** Whether a thin stroke runs down at least a hook's length from just under the line, within reach of x. */
function hookDown(ink: BinaryImage, x: number, lineBottom: number, space: number): boolean {
  const reach = Math.round(space * HOOK_REACH);
  const need = Math.round(space * HOOK_MIN_LENGTH);
  for (let cx = Math.max(0, Math.round(x) - reach); cx <= Math.min(ink.width - 1, Math.round(x) + reach); cx++) {
    let length = 0;
    for (let y = lineBottom + 1; y < ink.height && length < need; y++) {
      if (ink.data[y * ink.width + cx]! > 0 || ink.data[y * ink.width + Math.min(ink.width - 1, cx + 1)]! > 0) length++;
      else break;
    }
    if (length >= need) return true;
  }
  return false;
}
