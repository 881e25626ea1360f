import { describe, expect, it } from 'vitest';
import { dropCourtesyClosing } from '../../src/assembly/read-page.js';
import type { StaffReading } from '../../src/assembly/read-page.js';
import type { Stroke } from '../../src/assembly/strokes.js';
import { staffReading } from '../support/staff-reading.js';
import { straightStaff } from '../support/straight-staff.js';

const SPACE = 12;

/** Two measures (100–500, 500–820) and what stands after the system's last barline, at 820–900. */
const measures = () => ({ bounds: [100, 500, 820, 900], right: [undefined, { style: 'light-light' as const }, undefined], left: [undefined, undefined, undefined] });
const staff = (top: number, given: Partial<StaffReading>) => staffReading(straightStaff(top, SPACE, 100, 900), given);

describe('a courtesy signature after a system\'s last barline', () => {
  it('is no measure: it joins the measure before, whose barline ends the system', () => {
    const m = measures();
    const key = { signatures: { clefs: [], keys: [{ x: 835, value: 6 }], times: [], keyAccidentals: new Set<never>() } };
    dropCourtesyClosing(m, [staff(100, key), staff(300, key)]);
    expect(m).toEqual({ bounds: [100, 500, 900], right: [undefined, { style: 'light-light' }], left: [undefined, undefined] });
  });

  it('leaves a last measure that holds notes, or that shows no signature, as it is', () => {
    const note = { kind: 'chord', x: 860 } as unknown as Stroke;
    const key = { signatures: { clefs: [], keys: [{ x: 835, value: 6 }], times: [], keyAccidentals: new Set<never>() } };
    const withNote = measures();
    dropCourtesyClosing(withNote, [staff(100, { ...key, items: [note] }), staff(300, key)]);
    expect(withNote.bounds).toEqual([100, 500, 820, 900]);
    const bare = measures();
    dropCourtesyClosing(bare, [staff(100, {}), staff(300, {})]);
    expect(bare.bounds).toEqual([100, 500, 820, 900]);
  });
});
