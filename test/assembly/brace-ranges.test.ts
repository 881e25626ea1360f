import { describe, expect, it } from 'vitest';
import { braceRanges } from '../../src/assembly/read-page.js';
import type { SymbolsSeen } from '../../src/reading/page-reading.js';
import { straightStaff } from '../support/straight-staff.js';

const SPACE = 12;
/** Four staves, 10 spaces apart, starting at x 100 (the second and fourth at `laterStarts` where given). */
const staves = (laterStarts?: number) => [0, 1, 2, 3].map((k) => straightStaff(100 + k * 10 * SPACE, SPACE, k % 2 && laterStarts ? laterStarts : 100, 900));
const seen = (y0: number, y1: number) => ({ braces: [{ x0: 80, x1: 95, y0, y1, staff: 0, confidence: 1 }] }) as unknown as SymbolsSeen;

describe('braceRanges', () => {
  it('takes a brace over two staves at their start as one instrument', () => {
    expect(braceRanges([0, 1, 2, 3], staves(), seen(100, 100 + 14 * SPACE), SPACE)).toEqual([[0, 1]]);
  });

  it('takes a line over all four staves for a bracket, however far right some staves seem to start', () => {
    const bracket = seen(100, 100 + 34 * SPACE);
    expect(braceRanges([0, 1, 2, 3], staves(), bracket, SPACE)).toEqual([]);
    // Staff lines faded at their start on a scan: the second and fourth staves seem to start 15 spaces right.
    expect(braceRanges([0, 1, 2, 3], staves(280), bracket, SPACE)).toEqual([]);
  });
});
