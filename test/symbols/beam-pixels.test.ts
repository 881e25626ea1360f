import { describe, expect, it } from 'vitest';
import { beamsAtStem } from '../../src/symbols/beam-pixels.js';
import { CLASS_INDEX } from '../../src/symbols/symbol-classes.js';

const SPACE = 12; // prepared pixels; the class map is at half that resolution (6 pixels a space)

function blankMap(width = 100, height = 100) {
  return { width, height, data: new Uint8Array(width * height), confidence: new Uint8Array(width * height).fill(255) };
}
type ClassMap = ReturnType<typeof blankMap>;

/** Paints beam in every column from x0 to x1 (map pixels) over rows y0 to y1. */
function paintBeam(map: ClassMap, x0: number, x1: number, y0: number, y1: number) {
  for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) map.data[y * map.width + x] = CLASS_INDEX.beam;
}

describe('beamsAtStem', () => {
  // A down-stem at prepared x 100 whose tip is at y 100; two beams (rows 44–46 and 48–50, prepared 88–101)
  // run left of it.
  const twoBeams = () => {
    const map = blankMap();
    paintBeam(map, 30, 50, 44, 46);
    paintBeam(map, 30, 50, 48, 50);
    return map;
  };
  const lines = (ys: number[]) => ({ at: () => ys, thickness: 2 });

  it('counts two beams at the stem', () => {
    expect(beamsAtStem(twoBeams(), 100, 100, false, 40, SPACE)).toBe(2);
  });

  it('leaves off a staff line the model painted as beam just past the stack, and counts a beam there that is no line', () => {
    const map = twoBeams();
    // Two map rows (four pixels) of beam on the staff line at prepared y 109, a gap of one row past the stack.
    paintBeam(map, 30, 50, 53, 54);
    expect(beamsAtStem(map, 100, 100, false, 40, SPACE)).toBe(3);
    expect(beamsAtStem(map, 100, 100, false, 40, SPACE, lines([85, 109]))).toBe(2);
    // A whole third beam (half a space thick) there is a beam, line or not.
    const third = twoBeams();
    paintBeam(third, 30, 50, 52, 54);
    expect(beamsAtStem(third, 100, 100, false, 40, SPACE, lines([85, 106]))).toBe(3);
  });
});
