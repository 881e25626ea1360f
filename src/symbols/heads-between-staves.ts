/**
 * Heads between two close staves. Every symbol first goes to the staff
 * nearest it, but on an orchestral page the gap between staves is under two
 * spaces: a violin's B♭3 hangs a space and a half below its own staff and a
 * third of a space above the next one; on a crowded page a bassoon's high
 * notes run into the clarinet's staff above. The stem tells where a head
 * belongs: it rises into the violin's staff, falls into the bassoon's.
 * Where staves stand that close, such a head moves to the staff its stem
 * reaches, with the accidental before it and the dots after it.
 */
import type { Staff } from '../staves/detect-staves.js';
import { accidentalPosition, BOTTOM_LINE, MIDDLE_LINE, nearestStaff, positionY, staffPosition, TOP_LINE } from '../staves/staff-geometry.js';
import type { AccidentalSymbol, Head, Stem } from './read-symbols.js';

interface Dot {
  x: number;
  y: number;
  staff: number;
}

/** A head moves up to the staff above only from no lower than this staff position of that staff … */
const LOWEST_UNDER_STAFF_ABOVE = 16;
/** … and down to the staff below only from no higher than this one of it. */
const HIGHEST_OVER_STAFF_BELOW = -8;
/** Staves are close where the gap between them is at most this many spaces. */
const CLOSE_STAVES_GAP = 3;
/** An accidental moves with its head where its right edge stands from this many spaces inside the head's left edge … */
const ACCIDENTAL_INSIDE_HEAD = 0.3;
/** … to under this many spaces before it … */
const ACCIDENTAL_BEFORE_HEAD = 3;
/** … its centre within this many spaces of the head's centre up or down. */
const ACCIDENTAL_LEVEL = 1;
/** A dot moves with its head where it stands less than this many spaces right of it … */
const DOT_AFTER_HEAD = 2;
/** … within this many spaces of the head's centre up or down. */
const DOT_LEVEL = 0.8;

/**
 * `onLedgers` tells whether a head, placed on a staff, has the ledger lines its position there needs:
 * a second voice's head inside its own staff, stem rising into the staff above, would need three.
 */
export function headsFollowStems<D extends Dot>(heads: Head[], stems: readonly Stem[], accidentals: AccidentalSymbol[], dots: D[], staves: readonly Staff[], space: number, onLedgers: (head: Head) => boolean): void {
  heads.forEach((head, i) => {
    const stem = stems.find((s) => touches(s, head, space));
    if (!stem) return;
    // The staff the stem reaches: nearest its far end (the stem's own staff is its centre's, which on a
    // crowded page may be the head's).
    const far = Math.abs(stem.y0 - head.y) > Math.abs(stem.y1 - head.y) ? stem.y0 : stem.y1;
    const to = nearestStaff(staves, stem.x, far);
    if (to < 0 || to === head.staff) return;
    const target = staves[to]!;
    const position = Math.round(staffPosition(target, head.x, head.y));
    // The head stands beyond the other staff, its stem runs from it toward that staff's middle (the usual
    // way), and in its own staff it stands on the side facing the other, stem pointing away from its
    // middle (the unusual way: a second voice's, or a crowded page's notes run into their neighbour).
    const below = position > BOTTOM_LINE;
    const rises = far === stem.y0;
    // A head moves only from the half of its own staff (split at its middle line) that faces the other.
    if ((position >= TOP_LINE && position <= BOTTOM_LINE) || below !== rises || (below ? position > LOWEST_UNDER_STAFF_ABOVE || head.position >= MIDDLE_LINE : position < HIGHEST_OVER_STAFF_BELOW || head.position <= MIDDLE_LINE)) return;
    // Only between close staves: across a grand staff's wide gap a stem reaching the other staff is a cross-staff beam's.
    const from = head.staff;
    const gap = below ? positionY(staves[from]!, head.x, TOP_LINE) - positionY(target, head.x, BOTTOM_LINE) : positionY(target, head.x, TOP_LINE) - positionY(staves[from]!, head.x, BOTTOM_LINE);
    if (gap > space * CLOSE_STAVES_GAP) return;
    const moved = { ...head, staff: to, position };
    if (!onLedgers(moved)) return;
    heads[i] = moved;
    for (const [k, a] of accidentals.entries()) {
      const y = (a.y0 + a.y1) / 2;
      if (a.staff === from && a.x1 <= head.x0 + space * ACCIDENTAL_INSIDE_HEAD && a.x1 > head.x0 - space * ACCIDENTAL_BEFORE_HEAD && Math.abs(y - head.y) < space * ACCIDENTAL_LEVEL) {
        accidentals[k] = { ...a, staff: to, position: accidentalPosition(target, a, a.kind, space) };
      }
    }
    for (const [k, d] of dots.entries()) {
      if (d.staff === from && d.x > head.x1 && d.x < head.x1 + space * DOT_AFTER_HEAD && Math.abs(d.y - head.y) < space * DOT_LEVEL) dots[k] = { ...d, staff: to };
    }
  });
}

/** A stem touches a head where it stands within this many spaces of the head's left or right edge … */
const STEM_AT_EDGE = 0.4;
/** … one of its ends within this many spaces of the head's centre up or down … */
const STEM_END_AT_HEAD = 0.8;
/** … and it is at least this many spaces long. */
const STEM_MIN_LENGTH = 2.5;

/** The stem stands at the head's left or right edge and starts at it. */
function touches(stem: Stem, head: Head, space: number): boolean {
  const atEdge = Math.abs(stem.x - head.x0) < space * STEM_AT_EDGE || Math.abs(stem.x - head.x1) < space * STEM_AT_EDGE;
  const startsHere = Math.abs(stem.y0 - head.y) < space * STEM_END_AT_HEAD || Math.abs(stem.y1 - head.y) < space * STEM_END_AT_HEAD;
  return atEdge && startsHere && stem.y1 - stem.y0 >= space * STEM_MIN_LENGTH;
}
