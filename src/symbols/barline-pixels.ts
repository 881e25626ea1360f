/**
 * Barlines found in the page's pixels, where the model missed them.
 *
 * A barline crosses a staff from its top line to its bottom line, with no
 * notehead at either end, and on the system's outer edges it stops there.
 * Stems are shorter than the staff or run past it, a chord's stem carries
 * heads, and the other upright strokes (accidentals, digits, rests) are
 * shorter still. Between the staves of a system the line may go on through
 * the gap (a grand staff's barlines do), so a side facing another staff of
 * the system is not required to be clear.
 */
import type { BinaryImage } from '../preparation/binarize.js';
import type { OuterEdges } from '../reading/page-reading.js';
import { staffLineY, type Staff } from '../staves/detect-staves.js';
import type { BarlineSymbol } from './read-symbols.js';

/** A barline is looked for from this many spaces past the staff's start (its opening line is the system's own). */
const CLEF_SIDE = 1;
/** A barline is at most this many spaces thick (a final barline's heavy stroke included); a wider run of ink is no barline. */
const MAX_THICKNESS = 0.8;
/** On a system's outer edge a barline stops at the staff: beyond it, from this many spaces … */
const BEYOND_FROM = 0.3;
/** … to this many, the column is paper … */
const BEYOND_TO = 0.9;
/** … in all but this share of its rows. */
const BEYOND_INK_SHARE = 0.2;
/** A line across the staff is looked for within this many spaces either side of where it is expected. */
const ACROSS_REACH = 0.5;
/** A column covers the staff where ink fills at least this share of its rows. */
const COVER_SHARE = 0.96;
/** A notehead at a barline's end fills the rows this many spaces above and below the staff line … */
const HEAD_HALF_HEIGHT = 0.4;
/** … clear of the line itself (this many spaces either side of it) … */
const LINE_CLEARANCE = 0.2;
/** … from this many spaces beside the stroke … */
const HEAD_FROM = 0.3;
/** … to this many … */
const HEAD_TO = 1.0;
/** … in at least this share of them. */
const HEAD_FILL = 0.5;

export function barlinesInPixels(image: BinaryImage, staff: Staff, staffIndex: number, space: number, edges: OuterEdges = { top: true, bottom: true }): BarlineSymbol[] {
  const found: BarlineSymbol[] = [];
  let run: number[] = [];
  const flush = () => {
    if (run.length && run.length <= space * MAX_THICKNESS) {
      const x0 = run[0]!;
      const x1 = run[run.length - 1]! + 1;
      const y0 = staffLineY(staff, 0, x0);
      const y1 = staffLineY(staff, 4, x0);
      if (!headAt(image, x0, x1, y0, space) && !headAt(image, x0, x1, y1, space)) {
        found.push({ x: (x0 + x1) / 2, x0, x1, y0, y1, thickness: x1 - x0, confidence: 0.5, staves: [staffIndex] });
      }
    }
    run = [];
  };
  for (let x = Math.ceil(staff.x0 + space * CLEF_SIDE); x < Math.floor(staff.x1); x++) {
    if (spansStaff(image, staff, x, space, edges)) run.push(x);
    else flush();
  }
  flush();
  return found;
}

function ink(image: BinaryImage, x: number, y: number): boolean {
  return x >= 0 && y >= 0 && x < image.width && y < image.height && image.data[Math.round(y) * image.width + x] === 1;
}

/** Ink in column x from the top line to the bottom one, and paper just beyond the outer edges. */
function spansStaff(image: BinaryImage, staff: Staff, x: number, space: number, edges: OuterEdges): boolean {
  const top = Math.round(staffLineY(staff, 0, x));
  const bottom = Math.round(staffLineY(staff, 4, x));
  if (!columnCovers(image, x, top, bottom, 0)) return false;
  let beyond = 0;
  let rows = 0;
  for (let d = Math.round(space * BEYOND_FROM); d <= Math.round(space * BEYOND_TO); d++) {
    if (edges.top) {
      rows++;
      if (ink(image, x, top - d)) beyond++;
    }
    if (edges.bottom) {
      rows++;
      if (ink(image, x, bottom + d)) beyond++;
    }
  }
  return beyond <= rows * BEYOND_INK_SHARE;
}

/**
 * Whether a vertical line crosses the whole staff near x (within half a
 * space): some column is ink from the top line to the bottom one. A stem
 * is shorter than the staff is tall unless it joins a chord spanning it, and
 * such chords do not line up on most staves of a system as barlines do.
 */
export function lineAcross(image: BinaryImage, staff: Staff, x: number, slope: number, space: number): boolean {
  const top = Math.max(0, Math.round(staffLineY(staff, 0, x)));
  const bottom = Math.min(image.height - 1, Math.round(staffLineY(staff, 4, x)));
  for (let cx = Math.round(x - space * ACROSS_REACH); cx <= Math.round(x + space * ACROSS_REACH); cx++) {
    if (columnCovers(image, cx, top, bottom, slope)) return true;
  }
  return false;
}

/** Ink in nearly every row from top to bottom along column x, leaning by `slope` (dx per dy) about the middle. */
function columnCovers(image: BinaryImage, x: number, top: number, bottom: number, slope: number): boolean {
  const middle = (top + bottom) / 2;
  let covered = 0;
  for (let y = top; y <= bottom; y++) if (ink(image, Math.round(x + slope * (y - middle)), y)) covered++;
  return covered >= (bottom - top + 1) * COVER_SHARE;
}

/** Whether a notehead touches the stroke [x0, x1) at the line at y: a filled blob beside it, off the staff line. */
function headAt(image: BinaryImage, x0: number, x1: number, y: number, space: number): boolean {
  for (const side of [-1, 1]) {
    let filled = 0;
    let total = 0;
    for (let dy = -Math.round(space * HEAD_HALF_HEIGHT); dy <= Math.round(space * HEAD_HALF_HEIGHT); dy++) {
      // The staff line itself runs through every column; only rows clear of it tell.
      if (Math.abs(dy) < space * LINE_CLEARANCE) continue;
      for (let d = Math.round(space * HEAD_FROM); d <= Math.round(space * HEAD_TO); d++) {
        const x = side < 0 ? x0 - d : x1 - 1 + d;
        total++;
        if (ink(image, x, y + dy)) filled++;
      }
    }
    if (filled >= total * HEAD_FILL) return true;
  }
  return false;
}
