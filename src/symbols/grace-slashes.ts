/**
 * Slashes through the stems of grace notes (acciaccaturas), found in the page's ink.
 *
 * An acciaccatura is a small eighth with a short stroke through its stem and
 * flag, rising to the right. Its stem goes up from its head, so the stroke
 * crosses the stem above the head and reaches left of it, where no flag goes
 * (a flag leaves its stem to the right) and nothing of the note's own stands:
 * ink there running up to the right is the slash. Staff and ledger lines
 * crossing that corner run level and are left out. Whether the slashed note
 * is a grace note, and an eighth, is the music reader's question.
 */
import type { BinaryImage } from '../preparation/binarize.js';
import type { Head, Mark } from './read-symbols.js';

/** A grace note's stem rises from within this many spaces of its head's right edge, inside it … */
const STEM_INSIDE_HEAD = 0.3;
/** … or outside it … */
const STEM_OUTSIDE_HEAD = 0.2;
/** … at least this many spaces above the head's top. */
const STEM_MIN_RISE = 1.2;
/** The slash is looked for this many spaces left of the stem … */
const SLASH_REACH_LEFT = 1;
/** … clear of the stem by this many … */
const STEM_CLEARANCE = 0.15;
/** … and from this many spaces above the head's top … */
const SLASH_REACH_UP = 1.6;
/** … to this many above it. */
const HEAD_CLEARANCE = 0.1;
/** Ink across at least this share of the corner's width in one row is a staff or ledger line. */
const LEVEL_LINE_SHARE = 0.8;
/** The slash's ink spans at least this many spaces across … */
const SLASH_MIN_WIDTH = 0.25;
/** … and rises to the right by this much per unit across, at least … */
const SLASH_MIN_RISE = 0.3;
/** … and at most. */
const SLASH_MAX_RISE = 2.5;
/** Ink fills at most this share of the corner (a stroke, not another symbol). */
const SLASH_MAX_FILL = 0.35;

/** A slash through the up-stem of each small head that has one, at the stem (its left edge) and the height it crosses it. */
export function readGraceSlashes(ink: BinaryImage, heads: readonly Head[], space: number): Mark[] {
  const found: Mark[] = [];
  for (const head of heads) {
    if (!head.small) continue;
    const stem = stemUp(ink, head, space);
    if (stem === undefined) continue;
    const x0 = Math.max(0, Math.round(stem - space * SLASH_REACH_LEFT));
    const x1 = Math.round(stem - space * STEM_CLEARANCE);
    const y0 = Math.max(0, Math.round(head.y0 - space * SLASH_REACH_UP));
    const y1 = Math.round(head.y0 - space * HEAD_CLEARANCE);
    const slash = risingStroke(ink, x0, y0, x1, y1, space);
    if (slash) found.push({ x: stem, y: slash.y, x0, y0: slash.y0, x1: stem + 1, y1: slash.y1, staff: head.staff, confidence: head.confidence });
  }
  return found;
}

/** The left edge of the stem rising from the head's right side: the leftmost column there whose ink runs up from the head far enough; undefined if none. */
function stemUp(ink: BinaryImage, head: Head, space: number): number | undefined {
  const top = Math.round(head.y0 + (head.y1 - head.y0) / 2);
  const need = Math.round(space * STEM_MIN_RISE + (top - head.y0));
  for (let x = Math.max(0, Math.round(head.x1 - space * STEM_INSIDE_HEAD)); x <= Math.min(ink.width - 1, Math.round(head.x1 + space * STEM_OUTSIDE_HEAD)); x++) {
    let run = 0;
    for (let y = top; y >= 0 && ink.data[y * ink.width + x]! > 0; y--) run++;
    if (run >= need) return x;
  }
  return undefined;
}

/** The stroke rising to the right in the box's ink, less level lines across it: its middle height and extent; undefined if none. */
function risingStroke(ink: BinaryImage, x0: number, y0: number, x1: number, y1: number, space: number): { y: number; y0: number; y1: number } | undefined {
  const width = x1 - x0;
  if (width < 2 || y1 - y0 < 2) return undefined;
  const on = (x: number, y: number) => ink.data[y * ink.width + x]! > 0;
  const level = new Set<number>();
  for (let y = y0; y < y1; y++) {
    let n = 0;
    for (let x = x0; x < x1; x++) if (on(x, y)) n++;
    if (n >= width * LEVEL_LINE_SHARE) level.add(y);
  }
  const points: [number, number][] = [];
  let inked = 0;
  let top = Infinity;
  let bottom = -Infinity;
  for (let x = x0; x < x1; x++) {
    const rows: number[] = [];
    for (let y = y0; y < y1; y++) if (!level.has(y) && on(x, y)) rows.push(y);
    if (!rows.length) continue;
    inked += rows.length;
    top = Math.min(top, rows[0]!);
    bottom = Math.max(bottom, rows[rows.length - 1]!);
    points.push([x, rows.reduce((s, y) => s + y, 0) / rows.length]);
  }
  if (points.length < space * SLASH_MIN_WIDTH || inked > width * (y1 - y0) * SLASH_MAX_FILL) return undefined;
  const rise = -slope(points);
  if (rise < SLASH_MIN_RISE || rise > SLASH_MAX_RISE) return undefined;
  return { y: (top + bottom) / 2, y0: top, y1: bottom + 1 };
}

/** Least-squares slope of y over x (down positive). */
function slope(points: readonly [number, number][]): number {
  const mx = points.reduce((s, [x]) => s + x, 0) / points.length;
  const my = points.reduce((s, [, y]) => s + y, 0) / points.length;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
  }
  return sxx ? sxy / sxx : 0;
}
