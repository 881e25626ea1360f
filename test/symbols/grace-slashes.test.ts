/** Acciaccaturas' slashes in the ink (grace-slashes.ts), on drawn notes. */
import { describe, expect, it } from 'vitest';
import type { BinaryImage } from '../../src/preparation/binarize.js';
import { readGraceSlashes } from '../../src/symbols/grace-slashes.js';
import type { Head } from '../../src/symbols/read-symbols.js';

const SPACE = 12;
const WIDTH = 120;
const HEIGHT = 120;

/** A small head at (40–50, 80–88) with a stem up from its right edge to y 50, and whatever `draw` adds. */
function note(draw: (set: (x: number, y: number) => void) => void = () => {}): { ink: BinaryImage; head: Head } {
  const ink: BinaryImage = { width: WIDTH, height: HEIGHT, data: new Uint8Array(WIDTH * HEIGHT) };
  const set = (x: number, y: number) => (ink.data[y * WIDTH + x] = 1);
  for (let y = 80; y < 88; y++) for (let x = 40; x < 50; x++) set(x, y);
  for (let y = 50; y < 85; y++) for (let x = 48; x < 50; x++) set(x, y);
  draw(set);
  const head: Head = { x0: 40, x1: 50, y0: 80, y1: 88, x: 45, y: 84, staff: 0, confidence: 1, kind: 'black', position: 0, small: true };
  return { ink, head };
}

/** A stroke two pixels thick from (x0, y0) to (x1, y1). */
function stroke(set: (x: number, y: number) => void, x0: number, y0: number, x1: number, y1: number): void {
  for (let x = x0; x <= x1; x++) {
    const y = Math.round(y0 + ((y1 - y0) * (x - x0)) / (x1 - x0));
    set(x, y);
    set(x, y + 1);
  }
}

describe('grace slashes', () => {
  it('finds a stroke rising to the right across a small head\'s up-stem, over the head', () => {
    const { ink, head } = note((set) => stroke(set, 38, 76, 56, 62));
    const [slash, ...rest] = readGraceSlashes(ink, [head], SPACE);
    expect(rest).toHaveLength(0);
    expect(slash).toMatchObject({ x: 48, staff: 0 });
    expect(slash!.y).toBeGreaterThan(62);
    expect(slash!.y).toBeLessThan(80);
  });

  it('finds none where only a flag leaves the stem (to the right), or a level line crosses the corner', () => {
    const flag = note((set) => stroke(set, 50, 52, 58, 64));
    expect(readGraceSlashes(flag.ink, [flag.head], SPACE)).toEqual([]);
    const line = note((set) => {
      for (let x = 20; x < 70; x++) set(x, 72);
    });
    expect(readGraceSlashes(line.ink, [line.head], SPACE)).toEqual([]);
  });

  it('looks only at small heads with a stem up', () => {
    const { ink, head } = note((set) => stroke(set, 38, 76, 56, 62));
    expect(readGraceSlashes(ink, [{ ...head, small: false }], SPACE)).toEqual([]);
    const stemless = note((set) => stroke(set, 38, 76, 56, 62));
    for (let y = 50; y < 80; y++) for (let x = 48; x < 50; x++) stemless.ink.data[y * WIDTH + x] = 0;
    // The slash alone is no stem: the column over the head's right edge has no run long enough.
    expect(readGraceSlashes(stemless.ink, [stemless.head], SPACE)).toEqual([]);
  });
});
