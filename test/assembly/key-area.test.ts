import { describe, expect, it } from 'vitest';
import { keysFromKeyArea } from '../../src/assembly/key-area.js';
import type { StaffSignatures } from '../../src/assembly/signatures.js';
import type { BinaryImage } from '../../src/preparation/binarize.js';
import type { Staff } from '../../src/staves/detect-staves.js';
import { straightStaff } from '../support/straight-staff.js';
import { sightOf } from '../support/page-sight.js';

const SPACE = 12;
const WIDTH = 200;
const staffAt = (top: number): Staff => straightStaff(top, SPACE, 0, WIDTH);

/** A page with staves (lines two pixels thick) and, on each, flats drawn as a stem two spaces tall and a bowl at the foot, at the given x. */
function page(staves: Staff[], flatsAt: number[][]): BinaryImage {
  const data = new Uint8Array(WIDTH * 400);
  const ink = (x: number, y: number) => (data[y * WIDTH + x] = 1);
  staves.forEach((staff, i) => {
    for (const line of staff.lines) for (let x = 0; x < WIDTH; x++) for (const dy of [0, 1]) ink(x, line[0]! + dy);
    for (const x of flatsAt[i]!) {
      const foot = staff.lines[2]![0]! + 6;
      for (let y = foot - 2 * SPACE; y <= foot; y++) for (const dx of [0, 1]) ink(x + dx, y);
      for (let y = foot - 6; y <= foot; y++) for (let dx = 2; dx < 8; dx++) if (y === foot - 6 || y === foot || dx === 7) ink(x + dx, y);
    }
  });
  return { width: WIDTH, height: 400, data };
}

const signatures = (keys: number[]): StaffSignatures[] =>
  keys.map((value) => ({ clefs: [], keys: value ? [{ x: 60, value }] : [], times: [], keyAccidentals: new Set(), keyArea: { x0: 50, x1: 110 } }));

describe('key area', () => {
  const staves = [staffAt(40), staffAt(120), staffAt(200), staffAt(280)];

  it('counts one upright stroke per flat, the staff lines not', () => {
    const ink = page(staves, [[60, 72, 84], [], [60], [60, 72]]);
    const sight = sightOf({ staves, ink, space: SPACE });
    expect(staves.map((_, i) => sight.keyAreaStrokes(i, 50, 110))).toEqual([3, 0, 1, 2]);
  });

  it('raises a staff whose flats were missed to the key the other staves read where their ink agrees', () => {
    const ink = page(staves, [[60, 72, 84], [60, 72, 84], [60, 72, 84], [60, 72, 84]]);
    const read = signatures([-3, -3, 0, -2]);
    keysFromKeyArea(read, [0, 1, 2, 3], sightOf({ staves, ink, space: SPACE }), SPACE);
    expect(read.map((s) => s.keys.map((k) => k.value))).toEqual([[-3], [-3], [-3], [-3]]);
  });

  it('changes no key to a count the other staves do not confirm (a smudge is one stroke too many)', () => {
    const ink = page(staves, [[60], [60], [60, 72], []]);
    const read = signatures([-1, -1, -1, 0]);
    keysFromKeyArea(read, [0, 1, 2, 3], sightOf({ staves, ink, space: SPACE }), SPACE);
    expect(read.map((s) => s.keys.map((k) => k.value))).toEqual([[-1], [-1], [-1], []]);
  });
});
