import { describe, expect, it } from 'vitest';
import { sightOf } from '../support/page-sight.js';
import { staffSignatures } from '../../src/assembly/signatures.js';
import type { AccidentalSymbol, PageSymbols } from '../../src/symbols/read-symbols.js';
import { straightStaff } from '../support/straight-staff.js';

const SPACE = 12;
const TOP = 100;
const staff = straightStaff(TOP, SPACE);
/** y of a staff position (half spaces down from the top line). */
const at = (position: number) => TOP + (position * SPACE) / 2;

function page(accidentals: AccidentalSymbol[]): PageSymbols {
  return {
    heads: [{ x0: 200, x1: 214, y0: at(4) - 6, y1: at(4) + 6, x: 207, y: at(4), staff: 0, confidence: 1, kind: 'black', position: 4, small: false }],
    stems: [],
    flags: [],
    rests: [],
    dots: [],
    accidentals,
    clefs: [{ x0: 10, x1: 40, y0: at(-3), y1: at(11), staff: 0, confidence: 1, kind: 'G', balance: 0.5 }],
    time: [],
    barlines: [],
    tuplets: [],
    repeatDots: [],
    curves: [],
    articulations: [],
    hairpins: [],
    voltas: [],
    graceSlashes: [], octaveLines: [],
    braces: [],
    map: { width: 1, height: 1, data: new Uint8Array(1), confidence: new Uint8Array(1) },
  };
}

/** An accidental drawn like a flat on `position` (its bowl there, its stem rising above), read as `kind`. */
function flatShape(kind: AccidentalSymbol['kind'], x: number, position: number): AccidentalSymbol {
  const y1 = at(position) + SPACE * 0.55;
  return { x0: x, x1: x + 10, y0: y1 - SPACE * 2.3, y1, staff: 0, confidence: 0.7, kind, position: Math.round(position - 1.2) };
}

describe('staffSignatures', () => {
  it('reads the opening key of flats', () => {
    const s = staffSignatures(0, staff, page([flatShape('flat', 46, 4), flatShape('flat', 58, 1)]), [], SPACE);
    expect(s.keys).toEqual([{ x: 46, value: -2 }]);
  });

  it('takes an opening key sharp standing where no sharp of a key stands, but the first flat does, for a flat', () => {
    // A blurred flat on the middle line (B♭ in the treble clef) whose bowl the model called a sharp.
    const s = staffSignatures(0, staff, page([{ ...flatShape('sharp', 46, 4), position: 3 }]), [], SPACE);
    expect(s.keys).toEqual([{ x: 46, value: -1 }]);
    // A sharp on the top line is the first sharp of a key, F♯, and stays one.
    const f = staffSignatures(0, staff, page([{ x0: 46, x1: 56, y0: at(0) - SPACE * 1.2, y1: at(0) + SPACE * 1.2, staff: 0, confidence: 0.7, kind: 'sharp', position: 0 }]), [], SPACE);
    expect(f.keys).toEqual([{ x: 46, value: 1 }]);
  });

  it('takes a natural right after the opening clef for the flat it was misread from (an opening key has no naturals)', () => {
    const misread = flatShape('natural', 46, 4);
    const s = staffSignatures(0, staff, page([misread]), [], SPACE);
    expect(s.keys).toEqual([{ x: 46, value: -1 }]);
    // Not read again as an accidental of a note.
    expect(s.keyAccidentals.has(misread)).toBe(true);
  });

  it('takes a natural after a barline for a cancelled key only where a key\'s first sharp or flat stands', () => {
    // A natural alone after the barline at x 300, with the next head over a space away: on the top line
    // (F5, the first sharp of a key) it cancels the key; on the bottom line (E4, a cautionary natural in
    // parentheses before a note) it is the note's.
    const natural = (position: number): AccidentalSymbol => ({ x0: 310, x1: 318, y0: at(position) - SPACE * 1.4, y1: at(position) + SPACE * 1.4, staff: 0, confidence: 0.9, kind: 'natural', position });
    const keysWith = (position: number) => {
      const symbols = page([natural(position)]);
      symbols.heads.push({ x0: 332, x1: 346, y0: at(8) - 6, y1: at(8) + 6, x: 339, y: at(8), staff: 0, confidence: 1, kind: 'black', position: 8, small: false });
      return staffSignatures(0, staff, symbols, [300], SPACE).keys;
    };
    expect(keysWith(0)).toEqual([{ x: 310, value: 0 }]);
    expect(keysWith(8)).toEqual([]);
  });

  it('measures a clef change the model labelled only in part by its own ink', () => {
    const symbols = page([]);
    // A treble clef change at x 300–320: the model labelled two spaces of it; its ink reaches from
    // a space and a half above the staff to a space and a half below.
    const change = { x0: 300, x1: 320, y0: at(3), y1: at(7), staff: 0, confidence: 0.8, kind: 'G' as const, balance: 0.5 };
    symbols.clefs.push(change);
    const ink = { width: 1000, height: 300, data: new Uint8Array(1000 * 300) };
    for (let y = Math.round(at(-3)); y <= Math.round(at(11)); y++) ink.data[y * 1000 + 310] = 1;
    expect(staffSignatures(0, staff, symbols, [], SPACE).clefs).toHaveLength(1);
    expect(staffSignatures(0, staff, symbols, [], SPACE, sightOf({ staves: [staff], ink, space: SPACE })).clefs.map((c) => c.value)).toEqual([{ sign: 'G', line: 2 }, { sign: 'G', line: 2 }]);
  });

  it('reads small clef changes the model called "other" by their shape: a G clef cut off at the top, a flattish F clef', () => {
    const symbols = page([]);
    // A G clef change whose tip the model left out (from just inside the top space to below the staff) …
    symbols.clefs.push({ x0: 300, x1: 322, y0: at(1.3), y1: at(10.3), staff: 0, confidence: 0.8, kind: 'other', balance: 0.49 });
    // … and an F clef change hanging from the top line, only a little top-heavy.
    symbols.clefs.push({ x0: 500, x1: 522, y0: at(-0.5), y1: at(5.5), staff: 0, confidence: 0.9, kind: 'other', balance: 0.48 });
    expect(staffSignatures(0, staff, symbols, [], SPACE).clefs.map((c) => c.value)).toEqual([{ sign: 'G', line: 2 }, { sign: 'G', line: 2 }, { sign: 'F', line: 4 }]);
  });

  it('takes no clef from a brace left of where the staff begins, and keeps the clef after it', () => {
    const braced = straightStaff(TOP, SPACE, 30, 1000);
    const symbols = page([]);
    symbols.braces = [{ x0: 8, x1: 26, y0: at(-12), y1: at(22) }];
    // The brace's middle read as a C clef, then the staff's own G clef.
    symbols.clefs = [
      { x0: 12, x1: 24, y0: at(0), y1: at(8), staff: 0, confidence: 0.6, kind: 'C', balance: 0.5 },
      { x0: 40, x1: 70, y0: at(-3), y1: at(11), staff: 0, confidence: 1, kind: 'G', balance: 0.5 },
    ];
    expect(staffSignatures(0, braced, symbols, [], SPACE).clefs).toEqual([{ x: 55, value: { sign: 'G', line: 2 } }]);
  });

  it('takes no clef from a bracket’s hook at the staff’s start when the staff’s own clef follows', () => {
    const bracketed = straightStaff(TOP, SPACE, 30, 1000);
    const symbols = page([]);
    const hook = { x0: 30, x1: 42, y0: at(-4), y1: at(1), staff: 0, confidence: 0.6, kind: 'C' as const, balance: 0.5 };
    const g = { x0: 48, x1: 78, y0: at(-3), y1: at(11), staff: 0, confidence: 1, kind: 'G' as const, balance: 0.5 };
    symbols.clefs = [hook, g];
    expect(staffSignatures(0, bracketed, symbols, [], SPACE).clefs).toEqual([{ x: 63, value: { sign: 'G', line: 2 } }]);
    // Alone, where the staff's start may have been found late, it stays the staff's clef.
    symbols.clefs = [{ ...hook, y0: at(0), y1: at(8) }];
    expect(staffSignatures(0, bracketed, symbols, [], SPACE).clefs.map((c) => c.value.sign)).toEqual(['C']);
  });

  it('believes a time change amid the music only when the model is sure of its glyphs; the opening time always', () => {
    // A C across the staff's middle (positions 2–6), like the one a steep beam's stretch was taken for.
    const common = (x: number, confidence: number) => ({ x0: x, x1: x + 22, y0: at(2) - 2, y1: at(6) + 2, staff: 0, confidence, common: true });
    const symbols = page([]);
    symbols.time = [common(50, 0.6), common(300, 0.73)];
    expect(staffSignatures(0, staff, symbols, [], SPACE).times.map((t) => t.x)).toEqual([50]);
    symbols.time = [common(50, 0.6), common(300, 0.93)];
    expect(staffSignatures(0, staff, symbols, [], SPACE).times.map((t) => t.x)).toEqual([50, 300]);
  });
});
