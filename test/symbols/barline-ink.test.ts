import { describe, expect, it } from 'vitest';
import type { BinaryImage } from '../../src/preparation/binarize.js';
import { barlineStrokes } from '../../src/symbols/barline-ink.js';
import type { BarlineSymbol } from '../../src/symbols/read-symbols.js';
import { straightStaff } from '../support/straight-staff.js';

const SPACE = 12;
const TOP = 20;

/** A page 200 × 100 px with one staff (top line at y 20) and upright strokes [x0, x1) drawn from its top line to its bottom line. */
function page(strokes: [number, number][], extra: (ink: BinaryImage) => void = () => {}): BinaryImage {
  const ink: BinaryImage = { width: 200, height: 100, data: new Uint8Array(200 * 100) };
  for (let l = 0; l < 5; l++) for (let x = 0; x < 200; x++) ink.data[(TOP + l * SPACE) * 200 + x] = 1;
  for (const [x0, x1] of strokes) for (let y = TOP; y <= TOP + 4 * SPACE; y++) for (let x = x0; x < x1; x++) ink.data[y * 200 + x] = 1;
  extra(ink);
  return ink;
}

/** The barline as the class map painted it: one box over [x0, x1), as thick as it is wide. */
function painted(x0: number, x1: number): BarlineSymbol {
  return { x0, x1, x: (x0 + x1) / 2, y0: TOP, y1: TOP + 4 * SPACE, thickness: x1 - x0, confidence: 0.9, staves: [0] };
}

describe('barline strokes in the ink', () => {
  const staves = [straightStaff(TOP, SPACE, 0, 200)];

  it('measure a thin stroke thin where the class map painted it thick', () => {
    const strokes = barlineStrokes(painted(98, 104), staves, page([[100, 102]]), SPACE);
    expect(strokes).toHaveLength(1);
    expect(strokes[0]!.thickness).toBe(2);
    expect(strokes[0]!.x).toBe(101);
  });

  it('split a final barline the class map merged into its thin and its heavy stroke', () => {
    const strokes = barlineStrokes(painted(98, 114), staves, page([[100, 102], [106, 112]]), SPACE);
    expect(strokes.map((s) => [s.x0, s.x1, s.thickness])).toEqual([[100, 102, 2], [106, 112, 6]]);
  });

  it('keep to what most rows show: a notehead touching the line in one space does not widen it', () => {
    const head = (ink: BinaryImage) => {
      for (let y = TOP + 2; y < TOP + SPACE - 2; y++) for (let x = 90; x < 100; x++) ink.data[y * 200 + x] = 1;
    };
    const strokes = barlineStrokes(painted(98, 104), staves, page([[100, 102]], head), SPACE);
    expect(strokes.map((s) => s.thickness)).toEqual([2]);
  });

  it('leave the barline as painted where the ink does not show it', () => {
    const line = painted(98, 104);
    expect(barlineStrokes(line, staves, page([]), SPACE)).toEqual([line]);
  });
});
