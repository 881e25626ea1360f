import { describe, expect, it } from 'vitest';
import type { BinaryImage } from '../../src/preparation/binarize.js';
import { readVoltas } from '../../src/symbols/voltas.js';
import { straightStaff } from '../support/straight-staff.js';

const SPACE = 12;
const TOP = 100;
const WIDTH = 400;

/** A page with one staff (top line at y 100) and the given marks drawn on it. */
function page(draw: (fill: (x0: number, x1: number, y0: number, y1: number) => void) => void): BinaryImage {
  const ink: BinaryImage = { width: WIDTH, height: 200, data: new Uint8Array(WIDTH * 200) };
  const fill = (x0: number, x1: number, y0: number, y1: number) => {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) ink.data[y * WIDTH + x] = 1;
  };
  for (let l = 0; l < 5; l++) fill(0, WIDTH, TOP + l * SPACE, TOP + l * SPACE + 1);
  draw(fill);
  return ink;
}

/** A bracket over the staff: its line `thickness` px thick, 2.5 spaces above the top line, hooks of 1.5 spaces down at the ends asked for. */
function bracket(fill: (x0: number, x1: number, y0: number, y1: number) => void, x0: number, x1: number, hooks: { start: boolean; end: boolean }, thickness = 2) {
  const y = TOP - Math.round(SPACE * 2.5);
  fill(x0, x1, y, y + thickness);
  if (hooks.start) fill(x0, x0 + 2, y, y + SPACE * 1.5);
  if (hooks.end) fill(x1 - 2, x1, y, y + SPACE * 1.5);
}

describe('volta brackets in the ink', () => {
  const staves = [straightStaff(TOP, SPACE, 0, WIDTH)];

  it('are found over a staff, closed where a hook ends them', () => {
    const ink = page((fill) => {
      bracket(fill, 50, 150, { start: true, end: true });
      bracket(fill, 160, 300, { start: true, end: false });
    });
    const voltas = readVoltas(ink, staves, SPACE);
    expect(voltas.map((v) => [v.x0, v.x1, v.closed])).toEqual([[50, 150, true], [160, 300, false]]);
  });

  it('are found lifted clear of high notes, up to ten spaces over the staff', () => {
    const top = 200;
    const at = (rise: number) => {
      const ink: BinaryImage = { width: WIDTH, height: 300, data: new Uint8Array(WIDTH * 300) };
      const fill = (x0: number, x1: number, y0: number, y1: number) => {
        for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) ink.data[y * WIDTH + x] = 1;
      };
      for (let l = 0; l < 5; l++) fill(0, WIDTH, top + l * SPACE, top + l * SPACE + 1);
      const y = top - Math.round(SPACE * rise);
      fill(50, 150, y, y + 2);
      fill(50, 52, y, y + SPACE * 1.5);
      return readVoltas(ink, [straightStaff(top, SPACE, 0, WIDTH)], SPACE).length;
    };
    expect([at(9), at(11)]).toEqual([1, 0]);
  });

  it('need a hook at the start: a level line alone (a lyric extender, a pedal line) is none', () => {
    expect(readVoltas(page((fill) => bracket(fill, 200, 330, { start: false, end: true })), staves, SPACE)).toEqual([]);
  });

  it('go on over the next system without a hook, from the start of its first measure', () => {
    const voltas = readVoltas(page((fill) => bracket(fill, 50, 300, { start: false, end: true })), staves, SPACE);
    expect(voltas.map((v) => [v.x0, v.x1, v.closed, v.continued])).toEqual([[50, 300, true, true]]);
    // Short, it is no bracket going on (a dash, a lyric extender).
    expect(readVoltas(page((fill) => bracket(fill, 50, 120, { start: false, end: false })), staves, SPACE)).toEqual([]);
  });

  it('are thin: a beam over the staff with a stem down from its start is none', () => {
    expect(readVoltas(page((fill) => bracket(fill, 50, 150, { start: true, end: true }, 6)), staves, SPACE)).toEqual([]);
  });

  it('stand alone: a row through a word\'s bold letters, one of them reaching down like a hook, is none', () => {
    const ink = page((fill) => {
      const top = TOP - SPACE * 3;
      // Upright strokes 2 px wide, 4 px apart, joined along one row (the letters' serifs): that row is a long
      // thin level run with a stroke going down from its start.
      for (let x = 50; x < 130; x += 6) fill(x, x + 2, top - 4, top + 14);
      fill(50, 128, top, top + 1);
    });
    expect(readVoltas(ink, staves, SPACE)).toEqual([]);
  });

  it('are long: a tuplet bracket\'s half, broken by its number, is none', () => {
    expect(readVoltas(page((fill) => bracket(fill, 50, 80, { start: true, end: false })), staves, SPACE)).toEqual([]);
  });
});
