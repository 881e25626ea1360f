/**
 * Vertical geometry of a staff: where a point sits in staff positions (half
 * staff spaces counted down from the top line, so 0 is the top line, 8 the
 * bottom line, 9 the space below it), and which staff a point belongs to.
 *
 * Lines are followed locally (`staffLineY`), so a position is right on a
 * curled photo as well as on a flat scan.
 */
import { staffLineY, type Staff } from './detect-staves.js';

/** Staff positions of the top line, the middle line and the bottom line. */
export const TOP_LINE = 0;
export const MIDDLE_LINE = 4;
export const BOTTOM_LINE = 8;

/** Local staff space at x: a fourth of the distance from the top line to the bottom line. */
export function localSpace(staff: Staff, x: number): number {
  return (staffLineY(staff, 4, x) - staffLineY(staff, 0, x)) / 4;
}

/** Staff position of y at x, as a real number (round it to get a line or space). */
export function staffPosition(staff: Staff, x: number, y: number): number {
  const top = staffLineY(staff, 0, x);
  const bottom = staffLineY(staff, 4, x);
  if (y >= top && y <= bottom) {
    // Inside the staff, interpolate between the two nearest lines: they bend independently on a photo.
    for (let l = 0; l < 4; l++) {
      const a = staffLineY(staff, l, x);
      const b = staffLineY(staff, l + 1, x);
      if (y <= b) return 2 * l + (2 * (y - a)) / Math.max(1e-6, b - a);
    }
  }
  const half = (bottom - top) / 8;
  return y < top ? (y - top) / half : 8 + (y - bottom) / half;
}

/** y of a staff position at x (the inverse of {@link staffPosition}). */
export function positionY(staff: Staff, x: number, position: number): number {
  const top = staffLineY(staff, 0, x);
  const bottom = staffLineY(staff, 4, x);
  const half = (bottom - top) / 8;
  if (position <= 0) return top + position * half;
  if (position >= 8) return bottom + (position - 8) * half;
  const l = Math.floor(position / 2);
  const a = staffLineY(staff, l, x);
  const b = staffLineY(staff, Math.min(4, l + 1), x);
  return a + ((position - 2 * l) / 2) * (b - a);
}

/** Distance from y to the staff's band between its top and bottom lines (0 inside). */
export function distanceToStaff(staff: Staff, x: number, y: number): number {
  const top = staffLineY(staff, 0, x);
  const bottom = staffLineY(staff, 4, x);
  return y < top ? top - y : y > bottom ? y - bottom : 0;
}

/** A point more than this many spaces beside a staff (another column of a two-column page) does not belong to it. */
export const BESIDE_STAFF = 8;
/** A flat's bowl, which sits on its note's line or space, stands this many spaces above the bottom of its box. */
const FLAT_BOWL_RISE = 0.55;

/** Index of the staff a point belongs to: the one whose band is nearest, horizontally in reach. */
export function nearestStaff(staves: readonly Staff[], x: number, y: number): number {
  let best = -1;
  let bestDistance = Infinity;
  staves.forEach((staff, i) => {
    // A point well beside a staff (another column of a two-column page) does not belong to it.
    const dx = x < staff.x0 ? staff.x0 - x : x > staff.x1 ? x - staff.x1 : 0;
    if (dx > staff.space * BESIDE_STAFF) return;
    const d = distanceToStaff(staff, Math.min(staff.x1, Math.max(staff.x0, x)), y) + dx;
    if (d < bestDistance) {
      bestDistance = d;
      best = i;
    }
  });
  return best;
}

/**
 * Staff position of an accidental of `kind` ('flat', 'sharp' …) in `box`: a flat's bowl, not its box
 * centre, sits on the note's line or space (the stem rises above it).
 */
export function accidentalPosition(staff: Staff, box: { x0: number; y0: number; x1: number; y1: number }, kind: string, space: number): number {
  const y = kind === 'flat' || kind === 'flat-flat' ? box.y1 - space * FLAT_BOWL_RISE : (box.y0 + box.y1) / 2;
  return Math.round(staffPosition(staff, (box.x0 + box.x1) / 2, y));
}
