/**
 * The staves of a prepared page: those its ink shows, and those only a
 * smoothed binarisation shows (faint-lines.ts) — the staff lines of a blurred
 * or low-resolution photo fall apart into dashes at the page's threshold,
 * some staves of the page or all of them.
 */
import { OmrError } from '../errors.js';
import type { GrayImage } from '../image/gray.js';
import type { BinaryImage } from '../preparation/binarize.js';
import { faintLineInk } from '../preparation/faint-lines.js';
import { measureStaffMetrics } from '../preparation/staff-metrics.js';
import { detectStaves, PLAIN_LINE_ROWS, type Staff } from './detect-staves.js';

/**
 * Rows a staff line may fill on the smoothed ink: a blurred line binarised at the smoothed page's
 * threshold stands thicker than on the page's own ink.
 */
const FAINT_LINE_ROWS = 8;

/**
 * Rows beyond its measured thickness a staff line may fill: one each side where the row fill reaches
 * the next row (detect-staves.ts), and one more each side for a line a scan's bent paper makes waver
 * across a strip. A bold scan enlarged to the canonical size draws its lines five to seven rows thick.
 */
const LINE_ROWS_BEYOND_THICKNESS = 4;

/**
 * A staff only the smoothed ink shows must run about as long as the page's others: one traced only
 * part of the way (lines bending away on a curled page) would lose its clef and key.
 */
const FAINT_MIN_LENGTH = 0.9;

/** A faint staff that ends with the staves beside it may be traced from as little as halfway along. */
const FAINT_NEAR_LENGTH = 0.5;

/**
 * The staves of the page; on a page whose lines are `sharp` (drawn from vectors at the size they
 * are read at: they never fall apart), the smoothed ink is looked at only where the ink shows none.
 * `lineThickness` is the staff lines' on `ink`, measured there unless given.
 */
export function findStaves(ink: BinaryImage, gray: GrayImage, staffSpace: number, sharp = false, lineThickness = measureStaffMetrics(ink).lineThickness): Staff[] {
  const options = { staffSpace };
  const beyond = sharp ? 0 : lineThickness + LINE_ROWS_BEYOND_THICKNESS;
  const faint = () => detectStaves(faintLineInk(gray, staffSpace), { ...options, lineRows: Math.max(FAINT_LINE_ROWS, beyond) });
  let found: Staff[];
  try {
    found = detectStaves(ink, { ...options, lineRows: Math.max(PLAIN_LINE_ROWS, beyond) });
  } catch (err) {
    if (!(err instanceof OmrError) || err.code !== 'NO_MUSIC_DETECTED') throw err;
    return faint();
  }
  if (sharp) return found;
  let more: Staff[];
  try {
    more = faint();
  } catch {
    return found;
  }
  const length = (s: Staff) => s.x1 - s.x0;
  const usual = found.map(length).sort((a, b) => a - b)[found.length >> 1]!;
  const top = (s: Staff) => Math.min(...s.lines[0]!);
  const bottom = (s: Staff) => Math.max(...s.lines[4]!);
  // Clear of every staff already found by two spaces: the same staff traced again is not another.
  const apart = (a: Staff, b: Staff) => bottom(a) + 2 * staffSpace < top(b) || bottom(b) + 2 * staffSpace < top(a);
  const added = more.flatMap((f) => {
    if (!found.every((s) => apart(s, f))) return [];
    if (length(f) >= usual * FAINT_MIN_LENGTH) return [f];
    const whole = reachingStart(f, found, usual, staffSpace);
    return whole ? [whole] : [];
  });
  return [...found, ...added].sort((a, b) => a.lines[0]![0]! - b.lines[0]![0]!);
}

/**
 * A faint staff traced from somewhere along its length to where the staves
 * beside it end (its start lost in a shadow): when it runs at least half the
 * usual length, it starts where the nearest staff above or below starts,
 * its lines carried on along their slope.
 */
function reachingStart(faint: Staff, found: readonly Staff[], usual: number, staffSpace: number): Staff | undefined {
  if (faint.x1 - faint.x0 < usual * FAINT_NEAR_LENGTH) return undefined;
  const middle = (s: Staff) => (s.lines[0]![0]! + s.lines[4]![0]!) / 2;
  const neighbour = found.reduce<Staff | undefined>((best, s) => (!best || Math.abs(middle(s) - middle(faint)) < Math.abs(middle(best) - middle(faint)) ? s : best), undefined);
  if (!neighbour || Math.abs(middle(neighbour) - middle(faint)) > staffSpace * 20) return undefined;
  if (Math.abs(neighbour.x1 - faint.x1) > staffSpace * 3 || neighbour.x0 >= faint.x0) return undefined;
  return { ...faint, x0: neighbour.x0 };
}
