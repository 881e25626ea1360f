/**
 * Measurements of the page's ink the music reader asks for where the model's
 * labels fall short (through the page sight, reading/page-reading.ts): the
 * upright strokes of a key signature, and the whole height of a clef the
 * model labelled only in part.
 */
import type { BinaryImage } from '../preparation/binarize.js';
import type { Staff } from '../staves/detect-staves.js';
import { positionY } from '../staves/staff-geometry.js';
import type { ClefSymbol } from './read-symbols.js';

/** A column of ink this many spaces long, or longer, is a key accidental's upright stroke. */
const KEY_STROKE_LENGTH = 1.5;
/** How far, in spaces, a clef's ink is followed up and down from the middle of its box. */
const CLEF_INK_REACH = 6;

/** Strokes in a key area are looked for from this many spaces inside its left edge (clear of the clef's tail). */
const KEY_AREA_INSET = 0.4;

/**
 * Upright strokes in [x0, x1) on a staff: columns whose longest run of ink
 * (through the staff lines it crosses) is a space and a half or more, next
 * to each other. A flat has one, a sharp two; the clef's tail and the staff
 * lines have none there.
 */
export function keyAreaStrokes(staff: Staff, x0: number, x1: number, ink: BinaryImage, space: number): number {
  const from = Math.max(0, Math.ceil(x0 + space * KEY_AREA_INSET));
  const to = Math.min(ink.width, Math.floor(x1 - 1));
  let strokes = 0;
  let inStroke = false;
  let gap = 0;
  for (let x = from; x < to; x++) {
    const top = Math.max(0, Math.floor(positionY(staff, x, -4)));
    const bottom = Math.min(ink.height - 1, Math.ceil(positionY(staff, x, 10)));
    let longest = 0;
    let run = 0;
    for (let y = top; y <= bottom; y++) {
      run = ink.data[y * ink.width + x] ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    if (longest >= space * KEY_STROKE_LENGTH) {
      if (!inStroke) strokes++;
      inStroke = true;
      gap = 0;
    } else if (inStroke && ++gap > 1) inStroke = false;
  }
  return strokes;
}

/**
 * The column of rows inked within a clef's width, from the middle of its box
 * up and down (staff lines bridge, empty spaces end it; small gaps, a thin
 * stroke lost to binarisation, are crossed): the clef's own height.
 * Undefined where the box's middle row holds no ink.
 */
export function clefInk(c: ClefSymbol, ink: BinaryImage, space: number): { y0: number; y1: number } | undefined {
  const x0 = Math.max(0, Math.round(c.x0));
  const x1 = Math.min(ink.width - 1, Math.round(c.x1));
  const inked = (y: number) => {
    if (y < 0 || y >= ink.height) return false;
    for (let x = x0; x <= x1; x++) if (ink.data[y * ink.width + x]) return true;
    return false;
  };
  const reach = (from: number, step: 1 | -1) => {
    let y = from;
    let last = from;
    while (Math.abs(y - from) < space * CLEF_INK_REACH && (inked(y) || inked(y + step) || inked(y + 2 * step))) {
      if (inked(y)) last = y;
      y += step;
    }
    return last;
  };
  const middle = Math.round((c.y0 + c.y1) / 2);
  if (!inked(middle)) return undefined;
  return { y0: reach(middle, -1), y1: reach(middle, 1) + 1 };
}
