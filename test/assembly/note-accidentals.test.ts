import { describe, expect, it } from 'vitest';
import { noteAccidentals } from '../../src/assembly/read-page.js';
import type { AccidentalSymbol, Head } from '../../src/symbols/read-symbols.js';

const SPACE = 12;
const head = (x: number, position: number): Head => ({ x0: x - 7, x1: x + 7, y0: 0, y1: 12, x, y: 6, staff: 0, confidence: 1, kind: 'black', position, small: false });
const flat = (x: number, position: number): AccidentalSymbol => ({ x0: x - 5, x1: x + 5, y0: 0, y1: 30, staff: 0, confidence: 1, kind: 'flat', position });

describe('noteAccidentals', () => {
  it('gives an accidental to the nearest head to its right at its position, a step off at most', () => {
    const heads = [head(100, 4), head(140, 5)];
    const found = noteAccidentals(heads, [flat(85, 5)], [], SPACE);
    expect([...found]).toEqual([[heads[0], 'flat']]);
  });

  it('does not reach across a barline to the next measure’s head', () => {
    // A cautionary flat read a step low, left over after the last note of a measure.
    const heads = [head(100, 4), head(130, 4)];
    const found = noteAccidentals(heads, [flat(85, 3), flat(112, 3)], [120], SPACE);
    expect([...found]).toEqual([[heads[0], 'flat']]);
  });
});
