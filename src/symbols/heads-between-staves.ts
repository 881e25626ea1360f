/**
 * Heads between two close staves. Every symbol first goes to the staff
 * nearest it, but on an orchestral page the gap between staves is under two
 * spaces: a violin's B♭3 hangs a space and a half below its own staff and a
 * third of a space above the next one. Its stem tells where it belongs: it
 * rises into the staff above. Where staves stand that close, such a head moves to its stem's staff, with the
 * accidental before it and the dots after it.
 */
import type { Staff } from '../staves/detect-staves.js';
import { positionY, staffPosition } from '../staves/staff-geometry.js';
import { accidentalPosition, type AccidentalSymbol, type Head, type Stem } from './read-symbols.js';

interface Dot {
  x: number;
  y: number;
  staff: number;
}

export function headsFollowStems<D extends Dot>(heads: Head[], stems: readonly Stem[], accidentals: AccidentalSymbol[], dots: D[], staves: readonly Staff[], space: number): void {
  heads.forEach((head, i) => {
    // Only heads on their staff's outer lines or beyond can be another staff's.
    if (head.position > 0 && head.position < 8) return;
    const stem = stems.find((s) => s.staff !== head.staff && touches(s, head, space));
    if (!stem) return;
    const target = staves[stem.staff]!;
    const position = Math.round(staffPosition(target, head.x, head.y));
    // The stem runs from the head toward its staff, and the head hangs on the side facing the staff it was given.
    const below = position > 8;
    const fromBelow = Math.abs(stem.y1 - head.y) < Math.abs(stem.y0 - head.y);
    if (below !== fromBelow || (below ? position > 16 : position < -8)) return;
    // Only between close staves: across a grand staff's wide gap a stem reaching the other staff is a cross-staff beam's.
    const from = head.staff;
    const gap = below ? positionY(staves[from]!, head.x, 0) - positionY(target, head.x, 8) : positionY(target, head.x, 0) - positionY(staves[from]!, head.x, 8);
    if (gap > space * 3) return;
    heads[i] = { ...head, staff: stem.staff, position };
    for (const [k, a] of accidentals.entries()) {
      const y = (a.y0 + a.y1) / 2;
      if (a.staff === from && a.x1 <= head.x0 + space * 0.3 && a.x1 > head.x0 - space * 3 && Math.abs(y - head.y) < space) {
        accidentals[k] = { ...a, staff: stem.staff, position: accidentalPosition(target, a, a.kind, space) };
      }
    }
    for (const [k, d] of dots.entries()) {
      if (d.staff === from && d.x > head.x1 && d.x < head.x1 + space * 2 && Math.abs(d.y - head.y) < space * 0.8) dots[k] = { ...d, staff: stem.staff };
    }
  });
}

/** The stem stands at the head's left or right edge and starts at it. */
function touches(stem: Stem, head: Head, space: number): boolean {
  const atEdge = Math.abs(stem.x - head.x0) < space * 0.4 || Math.abs(stem.x - head.x1) < space * 0.4;
  const startsHere = Math.abs(stem.y0 - head.y) < space * 0.8 || Math.abs(stem.y1 - head.y) < space * 0.8;
  return atEdge && startsHere && stem.y1 - stem.y0 >= space * 2.5;
}
