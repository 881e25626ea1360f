import { describe, expect, it } from 'vitest';
import type { BinaryImage } from '../../src/preparation/binarize.js';
import { readOctaveLines } from '../../src/symbols/octave-lines.js';
import type { Mark } from '../../src/symbols/read-symbols.js';
import { straightStaff } from '../support/straight-staff.js';

const SPACE = 12;
const TOP = 100;
const WIDTH = 400;

type Fill = (x0: number, x1: number, y0: number, y1: number) => void;

/** A page with one staff (top line at y 100, bottom at 148) and the given strokes drawn on it. */
function page(draw: (fill: Fill) => void): BinaryImage {
  const ink: BinaryImage = { width: WIDTH, height: 220, data: new Uint8Array(WIDTH * 220) };
  const fill: Fill = (x0, x1, y0, y1) => {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) ink.data[y * WIDTH + x] = 1;
  };
  for (let l = 0; l < 5; l++) fill(0, WIDTH, TOP + l * SPACE, TOP + l * SPACE + 1);
  draw(fill);
  return ink;
}

/** A number mark (as the model paints an 8 or a 3) with its box from (x0, y0), a space wide and 1.3 tall. */
function numberAt(x0: number, y0: number): Mark {
  return { x0, y0, x1: x0 + SPACE, y1: y0 + Math.round(SPACE * 1.3), x: x0 + SPACE / 2, y: y0 + SPACE * 0.65, staff: 0, confidence: 0.9 };
}

/** Dashes `length` px long with `gap` px between them, 2 px thick at y, from x0 to x1. */
function dashes(fill: Fill, x0: number, x1: number, y: number, length = 5, gap = 4): void {
  for (let x = x0; x < x1; x += length + gap) fill(x, Math.min(x + length, x1), y, y + 2);
}

describe('octave lines in the ink', () => {
  const staves = [straightStaff(TOP, SPACE, 0, WIDTH)];

  it('are an 8 over the staff with a dashed line running right from it: the notes sound an octave up, as far as the line runs', () => {
    const eight = numberAt(60, TOP - 40);
    const ink = page((fill) => {
      dashes(fill, 76, 250, TOP - 32);
      fill(248, 250, TOP - 32, TOP - 22);
    });
    const { lines, eights } = readOctaveLines(ink, [eight], staves, SPACE);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ staff: 0, x0: 60, octaves: 1 });
    expect(lines[0]!.x1).toBeGreaterThan(240);
    expect(lines[0]!.x1).toBeLessThanOrEqual(250);
    expect(eights.has(eight)).toBe(true);
  });

  it('under the staff move the notes an octave down', () => {
    const eight = numberAt(60, TOP + 4 * SPACE + 20);
    const y = TOP + 4 * SPACE + 30;
    const ink = page((fill) => {
      dashes(fill, 76, 200, y);
      fill(193, 195, y - 10, y);
    });
    expect(readOctaveLines(ink, [eight], staves, SPACE).lines.map((l) => l.octaves)).toEqual([-1]);
  });

  it('are not a tuplet number: alone, beside a solid bracket, or with a dash or two beside it', () => {
    const alone = numberAt(60, TOP - 40);
    const bracketed = numberAt(160, TOP - 40);
    const twoDashes = numberAt(300, TOP - 40);
    const ink = page((fill) => {
      fill(176, 260, TOP - 32, TOP - 30);
      dashes(fill, 316, 334, TOP - 32);
    });
    const { lines, eights } = readOctaveLines(ink, [alone, bracketed, twoDashes], staves, SPACE);
    expect(lines).toEqual([]);
    expect(eights.size).toBe(0);
  });

  it('are not a triplet’s 3 over a row of staccato dots: a dot is as tall as it is long', () => {
    const three = numberAt(60, TOP - 40);
    const ink = page((fill) => {
      for (let x = 76; x < 250; x += 12) fill(x, x + 4, TOP - 32, TOP - 28);
    });
    expect(readOctaveLines(ink, [three], staves, SPACE).lines).toEqual([]);
  });

  it('need the 8 clear of the staff: a number on the staff is never one', () => {
    const onStaff = numberAt(60, TOP + 10);
    const ink = page((fill) => dashes(fill, 76, 250, TOP + 17));
    expect(readOctaveLines(ink, [onStaff], staves, SPACE).lines).toEqual([]);
  });
});
