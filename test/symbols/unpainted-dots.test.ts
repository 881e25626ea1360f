import { describe, expect, it } from 'vitest';
import { CLASS_INDEX } from '../../src/symbols/symbol-classes.js';
import { unpaintedDots } from '../../src/symbols/unpainted-dots.js';

const SPACE = 12;
const W = 200;
const H = 120;

function page() {
  const ink = { width: W, height: H, data: new Uint8Array(W * H) };
  const map = { width: W / 2, height: H / 2, data: new Uint8Array((W / 2) * (H / 2)), confidence: new Uint8Array((W / 2) * (H / 2)).fill(255) };
  const inkBox = (x0: number, y0: number, x1: number, y1: number) => {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) ink.data[y * W + x] = 1;
  };
  const paintBox = (cls: number, x0: number, y0: number, x1: number, y1: number) => {
    for (let y = y0 >> 1; y < (y1 + 1) >> 1; y++) for (let x = x0 >> 1; x < (x1 + 1) >> 1; x++) map.data[y * map.width + x] = cls;
  };
  return { ink, map, inkBox, paintBox };
}

describe('unpaintedDots', () => {
  it('finds a round speck of ink a space over a head that the class map left as paper, once for every head reaching it', () => {
    const { ink, map, inkBox } = page();
    inkBox(48, 46, 52, 50); // a 4 × 4 dot, its middle 12 px (a space) above the head at (50, 60)
    const dots = unpaintedDots(ink, map, [{ x: 50, y: 60, staff: 0 }, { x: 53, y: 62, staff: 0 }], SPACE);
    expect(dots).toEqual([{ x0: 48, y0: 46, x1: 52, y1: 50, x: 50, y: 48, staff: 0, confidence: expect.any(Number) }]);
  });

  it('finds one under a head as well', () => {
    const { ink, map, inkBox } = page();
    inkBox(98, 70, 102, 74);
    expect(unpaintedDots(ink, map, [{ x: 100, y: 60, staff: 1 }], SPACE).map((d) => [d.x, d.y, d.staff])).toEqual([[100, 72, 1]]);
  });

  it('leaves ink the class map painted as a symbol, specks of noise, lines and blots', () => {
    const { ink, map, inkBox, paintBox } = page();
    inkBox(48, 46, 52, 50); // painted as an articulation: the mark model reads it already
    paintBox(CLASS_INDEX.articulation, 48, 46, 52, 50);
    inkBox(100, 48, 101, 49); // a one-pixel speck
    inkBox(130, 47, 180, 49); // a line running through the search box
    inkBox(146, 76, 155, 85); // a blot three quarters of a space across
    const heads = [50, 100, 150].flatMap((x) => [{ x, y: 60, staff: 0 }]);
    expect(unpaintedDots(ink, map, heads, SPACE)).toEqual([]);
  });

  it('looks no nearer a head than half a space, where its own ink and a dotted note’s dot stand', () => {
    const { ink, map, inkBox } = page();
    inkBox(48, 55, 52, 59); // 3 px above the head's middle: part of the head
    expect(unpaintedDots(ink, map, [{ x: 50, y: 60, staff: 0 }], SPACE)).toEqual([]);
  });
});
