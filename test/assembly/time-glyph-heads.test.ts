import { describe, expect, it } from 'vitest';
import { dropTimeGlyphHeads, type StaffReading } from '../../src/assembly/read-page.js';
import type { Stroke } from '../../src/assembly/strokes.js';
import type { Head } from '../../src/symbols/read-symbols.js';
import { staffReading } from '../support/staff-reading.js';
import { straightStaff } from '../support/straight-staff.js';

const SPACE = 12;

function whole(x: number, position: number, top: number): Stroke {
  const y = top + (position * SPACE) / 2;
  const head: Head = { x0: x - 9, x1: x + 9, y0: y - 6, y1: y + 6, x, y, staff: 0, confidence: 1, kind: 'whole', position, small: false };
  return { kind: 'chord', staff: 0, heads: [head], hooks: 0, beams: 0, grace: false, dots: 0, x, x0: x - 9, x1: x + 9, y0: y - 6, y1: y + 6, confidence: 1 };
}

function reading(top: number, timeAt: number | undefined, items: Stroke[]): StaffReading {
  return staffReading(straightStaff(top, SPACE, 100, 900), {
    signatures: { clefs: [], keys: [], times: timeAt === undefined ? [] : [{ x: timeAt, value: [] }], keyAccidentals: new Set() },
    items,
  });
}

describe('dropTimeGlyphHeads', () => {
  it('takes a whole note where the other staves show their time signature for the signature', () => {
    // Horns in C: no key, and on one staff the model read the common-time C's bowl as a whole note.
    const staves = [reading(100, 150, []), reading(200, undefined, [whole(152, 4, 200), whole(400, 4, 200)]), reading(300, 149, [])];
    dropTimeGlyphHeads(staves, SPACE);
    expect(staves[1]!.items.map((i) => i.x)).toEqual([400]);
  });

  it('keeps a whole note no other staff shows a time signature beside', () => {
    const staves = [reading(100, undefined, []), reading(200, undefined, [whole(152, 4, 200)])];
    dropTimeGlyphHeads(staves, SPACE);
    expect(staves[1]!.items).toHaveLength(1);
  });
});
