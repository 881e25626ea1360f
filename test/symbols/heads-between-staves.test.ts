import { describe, expect, it } from 'vitest';
import { headsFollowStems } from '../../src/symbols/heads-between-staves.js';
import type { AccidentalSymbol, Head, Stem } from '../../src/symbols/read-symbols.js';
import type { Staff } from '../../src/staves/detect-staves.js';
import { staffPosition } from '../../src/staves/staff-geometry.js';
import { straightStaff } from '../support/straight-staff.js';

const SPACE = 12;
const staffAt = (top: number): Staff => straightStaff(top, SPACE);

/** A black head centred at (x, y), given to `staff`. */
function head(staves: Staff[], staff: number, x: number, y: number): Head {
  return { x0: x - 7, x1: x + 7, y0: y - 6, y1: y + 6, x, y, staff, confidence: 1, kind: 'black', position: Math.round(staffPosition(staves[staff]!, x, y)), small: false };
}

/** An upright stem at x from y0 to y1, given to the top staff. */
const stemAt = (x: number, y0: number, y1: number): Stem => ({ x, x0: x - 1, x1: x + 1, y0, y1, staff: 0, confidence: 1 });

/** The head after one head and one stem went through headsFollowStems. */
function followed(staves: Staff[], h: Head, stem: Stem, onLedgers: (moved: Head) => boolean = () => true): Head {
  const heads = [h];
  headsFollowStems(heads, [stem], [], [], staves, SPACE, onLedgers);
  return heads[0]!;
}

describe('headsFollowStems', () => {
  it('moves a head hanging below its staff, given to the close staff under it, back to its up-stem’s staff', () => {
    // Orchestral staves: the gap between them is under two spaces.
    const staves = [staffAt(100), staffAt(170)];
    // B♭3 under a treble staff: a space and a half below its bottom line, a third of a space above the next staff.
    const y = 148 + 18;
    const h = head(staves, 1, 300, y);
    expect(h.position).toBe(-1);
    const stem = stemAt(307, y - 42, y - 2);
    const flat: AccidentalSymbol = { x0: 280, x1: 290, y0: y - 16, y1: y + 6.6, staff: 1, confidence: 1, kind: 'flat', position: -1 };
    const dot = { x: 318, y, staff: 1 };
    const heads = [h];
    const accidentals = [flat];
    const dots = [dot];
    headsFollowStems(heads, [stem], accidentals, dots, staves, SPACE, () => true);
    expect(heads[0]).toMatchObject({ staff: 0, position: 11 });
    expect(accidentals[0]).toMatchObject({ staff: 0, position: 11 });
    expect(dots[0]).toMatchObject({ staff: 0 });
  });

  it('leaves a head whose stem points away from the other staff', () => {
    const staves = [staffAt(100), staffAt(170)];
    const h = head(staves, 1, 300, 160);
    expect(followed(staves, h, stemAt(293, 160, 202))).toBe(h);
  });

  it('leaves heads across a grand staff’s wide gap, where a stem into the other staff is a cross-staff beam’s', () => {
    const staves = [staffAt(100), staffAt(220)];
    const h = head(staves, 1, 300, 188);
    expect(followed(staves, h, stemAt(307, 130, 186))).toBe(h);
  });

  it('leaves a head that would need ledger lines the page does not show (a second voice rising into the staff above)', () => {
    const staves = [staffAt(100), staffAt(170)];
    const h = head(staves, 1, 300, 188);
    const stem = stemAt(307, 140, 186);
    expect(followed(staves, h, stem, (moved) => moved.position <= 10)).toBe(h);
    expect(followed(staves, h, stem)).toMatchObject({ staff: 0, position: 15 });
  });
});
