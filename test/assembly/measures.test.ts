import { describe, expect, it } from 'vitest';
import { sightOf } from '../support/page-sight.js';
import { systemMeasures } from '../../src/assembly/measures.js';
import type { Staff } from '../../src/staves/detect-staves.js';
import type { BarlineSymbol, Head } from '../../src/symbols/read-symbols.js';
import { straightStaff } from '../support/straight-staff.js';

const SPACE = 12;

/** A straight staff with its top line at `top`. */
function staff(top: number): Staff {
  return straightStaff(top, SPACE);
}

function barline(index: number, top: number, x: number): BarlineSymbol {
  return { x0: x - 1, x1: x + 1, y0: top, y1: top + 4 * SPACE, x, thickness: 2, confidence: 0.9, staves: [index] };
}

/** A system of four staves 100 px apart, barlines drawn at `xs` on the top staff, leaning `lean` px per staff below. */
function system(xs: number[], lean: number) {
  const tops = [0, 100, 200, 300];
  const staves = tops.map(staff);
  const barlines = tops.flatMap((top, i) => xs.map((x) => barline(i, top, x + lean * i)));
  return systemMeasures([0, 1, 2, 3], staves, barlines, [], SPACE);
}

describe('measures of a system', () => {
  it('are cut at the barlines seen on the staves', () => {
    const measures = system([300, 600], 0);
    expect(measures.bounds).toHaveLength(4);
    expect(measures.bounds[1]).toBeCloseTo(300, 0);
    expect(measures.bounds[2]).toBeCloseTo(600, 0);
  });

  it('follow barlines that lean from staff to staff, as on a photo', () => {
    // Ten pixels a staff: the bottom staff's line is 30 px (2.5 spaces) off the top one's.
    const measures = system([300, 600], 10);
    expect(measures.bounds).toHaveLength(4);
    expect(measures.bounds[1]).toBeCloseTo(315, 0);
  });

  it('read a leaning barline as one stroke, not a double barline, and a double one by the two strokes on a staff', () => {
    // Each staff shows one stroke, a little further right on each staff down: a plain barline.
    for (const lean of [3, 6, 10]) expect(system([300, 600], lean).right, `lean ${lean}`).toEqual([undefined, undefined, undefined]);
    // Two strokes on every staff, leaning alike: a double barline.
    const tops = [0, 100, 200, 300];
    const lines = tops.flatMap((top, i) => [300, 600, 607].map((x) => barline(i, top, x + 6 * i)));
    expect(systemMeasures([0, 1, 2, 3], tops.map(staff), lines, [], SPACE).right[1]).toEqual({ style: 'light-light' });
  });

  it('ignore a line seen on one staff of four (a stem taken for a barline)', () => {
    const staves = [0, 100, 200, 300].map(staff);
    const measures = systemMeasures([0, 1, 2, 3], staves, [barline(2, 200, 450)], [], SPACE);
    expect(measures.bounds).toHaveLength(2);
  });

  it('take no line through a notehead for a barline, though every staff shows one in line (one rhythm on all four)', () => {
    const tops = [0, 100, 200, 300];
    const staves = tops.map(staff);
    const head = (index: number, top: number, x0: number): Head => ({ x0, x1: x0 + 14, y0: top + 54, y1: top + 66, x: x0 + 7, y: top + 60, staff: index, confidence: 0.9, kind: 'black', position: 10, small: false });
    // Stems at 500 beside heads below each staff; a barline at 700 with the next notes a space after it.
    const lines = tops.flatMap((top, i) => [barline(i, top, 500), barline(i, top, 700)]);
    const heads = tops.flatMap((top, i) => [head(i, top, 487), head(i, top, 712)]);
    expect(systemMeasures([0, 1, 2, 3], staves, lines, [], SPACE, undefined, heads).bounds.map(Math.round)).toEqual([0, 700, 1000]);
    expect(systemMeasures([0, 1, 2, 3], staves, lines, [], SPACE).bounds.map(Math.round)).toEqual([0, 500, 700, 1000]);
  });

  it('take a leaning system\'s end barline for its end, not for a last, narrow measure', () => {
    // The staves start and end further right going down (a photo's perspective); each staff's final
    // barline stands at its own end, 24 px (two spaces) right of the one above.
    const tops = [0, 100, 200, 300];
    const staves = tops.map((top, i) => straightStaff(top, SPACE, 40 + 24 * i, 1000 + 24 * i));
    const barlines = tops.flatMap((top, i) => [barline(i, top, 500 + 24 * i), barline(i, top, 999 + 24 * i)]);
    const measures = systemMeasures([0, 1, 2, 3], staves, barlines, [], SPACE);
    expect(measures.bounds).toHaveLength(3);
  });

  it('take a line only the pixels show as a barline where it crosses both staves of a grand staff, not one', () => {
    const staves = [20, 120].map(staff);
    const ink = { width: 1000, height: 300, data: new Uint8Array(1000 * 300) };
    const line = (x: number, y0: number, y1: number) => {
      for (let y = y0; y <= y1; y++) ink.data[y * 1000 + x] = ink.data[y * 1000 + x + 1] = 1;
    };
    line(500, 20, 68); // across the upper staff only: a chord's stem spanning it
    line(700, 20, 168); // through both staves: a barline the model missed
    const measures = systemMeasures([0, 1], staves, [], [], SPACE, sightOf({ staves, ink, space: SPACE }));
    expect(measures.bounds.map(Math.round)).toEqual([0, 701, 1000]);
  });

  it('make a repeat only where a pair of dots stands beside the double barline, not one dot', () => {
    const staves = [staff(0)];
    const final = (x: number, thickness: number): BarlineSymbol => ({ ...barline(0, 0, x), thickness, x0: x - thickness / 2, x1: x + thickness / 2 });
    const lines = [barline(0, 0, 300), final(590, 2), final(600, 6)];
    const dot = (x: number, y: number) => ({ x, y, x0: x - 2, x1: x + 2, y0: y - 2, y1: y + 2, staff: 0, confidence: 0.9 });
    // The dots of a repeat sit in the second and third spaces: 1.5 and 2.5 spaces down.
    const pair = [dot(578, 18), dot(578, 30)];
    expect(systemMeasures([0], staves, lines, pair, SPACE).right[1]?.repeat?.direction).toBe('backward');
    // A staccato dot alone beside the final barline is no repeat.
    const single = systemMeasures([0], staves, lines, [dot(578, 30)], SPACE).right[1];
    expect(single?.repeat).toBeUndefined();
    expect(single?.style).toBe('light-heavy');
  });

  it('read dots on both sides of a thin-thick-thin barline mid-system as one repeat ending and the next beginning', () => {
    const staves = [staff(0)];
    const stroke = (x: number, thickness: number): BarlineSymbol => ({ ...barline(0, 0, x), thickness, x0: x - thickness / 2, x1: x + thickness / 2 });
    const dot = (x: number, y: number) => ({ x, y, x0: x - 2, x1: x + 2, y0: y - 2, y1: y + 2, staff: 0, confidence: 0.9 });
    const lines = [stroke(300, 2), stroke(308, 6), stroke(316, 2), stroke(600, 2)];
    const dots = [dot(292, 18), dot(292, 30), dot(324, 18), dot(324, 30)];
    const measures = systemMeasures([0], staves, lines, dots, SPACE);
    expect(measures.bounds).toHaveLength(4);
    expect(measures.right[0]).toEqual({ style: 'light-heavy', repeat: { direction: 'backward' } });
    expect(measures.left[1]).toEqual({ style: 'heavy-light', repeat: { direction: 'forward' } });
  });

  it('tell heavy strokes by their width against the system\'s thin ones, so blur that thickens every stroke makes none heavy', () => {
    const staves = [staff(0)];
    const stroke = (x: number, thickness: number): BarlineSymbol => ({ ...barline(0, 0, x), thickness, x0: x - thickness / 2, x1: x + thickness / 2 });
    // A scan: thin strokes 5 px (over 0.35 spaces), a final barline's heavy stroke 9 px.
    const lines = [stroke(200, 5), stroke(400, 5), stroke(600, 5), stroke(800, 5), stroke(988, 5), stroke(996, 9)];
    const measures = systemMeasures([0], staves, lines, [], SPACE);
    expect(measures.right.slice(0, 4)).toEqual([undefined, undefined, undefined, undefined]);
    expect(measures.right[4]?.style).toBe('light-heavy');
    // A clean page's double barline: two thin strokes, each at most a little thicker than the rest.
    const double = systemMeasures([0], staves, [stroke(200, 2), stroke(400, 2), stroke(600, 3), stroke(607, 3)], [], SPACE);
    expect(double.right[2]?.style).toBe('light-light');
  });

  it('measure a scan\'s thin strokes by their median, so a plain barline a little bolder than the rest is not heavy', () => {
    const staves = [staff(0)];
    const stroke = (x: number, thickness: number): BarlineSymbol => ({ ...barline(0, 0, x), thickness, x0: x - thickness / 2, x1: x + thickness / 2 });
    // Blur thickens thin strokes unevenly (2 to 5 px); a final barline's heavy stroke is 9 px.
    const lines = [stroke(150, 2), stroke(300, 3), stroke(450, 3), stroke(600, 5), stroke(750, 3), stroke(900, 2), stroke(988, 3), stroke(996, 9)];
    const measures = systemMeasures([0], staves, lines, [], SPACE);
    expect(measures.right.slice(0, 6)).toEqual(Array(6).fill(undefined));
    expect(measures.right[6]?.style).toBe('light-heavy');
  });

  it('read a lone heavy stroke as a plain barline, or as the heavy half of the repeat its dots make', () => {
    const staves = [staff(0)];
    const stroke = (x: number, thickness: number): BarlineSymbol => ({ ...barline(0, 0, x), thickness, x0: x - thickness / 2, x1: x + thickness / 2 });
    const dot = (x: number, y: number) => ({ x, y, x0: x - 2, x1: x + 2, y0: y - 2, y1: y + 2, staff: 0, confidence: 0.9 });
    // A scan bled one barline to 9 px among thin 2 px ones, and a repeat's two strokes into one 9 px stroke.
    const lines = [stroke(200, 2), stroke(400, 9), stroke(600, 2), stroke(800, 9), stroke(1000, 2)];
    const measures = systemMeasures([0], staves, lines, [dot(788, 18), dot(788, 30)], SPACE);
    expect(measures.right[1]).toBeUndefined();
    expect(measures.right[3]).toEqual({ style: 'light-heavy', repeat: { direction: 'backward' } });
  });

  it('make a repeat where at least half the system\'s staves show its pair of dots, not from a pair on one staff of four', () => {
    const staves = [0, 100, 200, 300].map((top) => staff(top));
    const lines = [0, 100, 200, 300].flatMap((top, i) => [barline(i, top, 300), barline(i, top, 600)]);
    const dot = (s: number, x: number, y: number) => ({ x, y: y + s * 100, x0: x - 2, x1: x + 2, y0: y + s * 100 - 2, y1: y + s * 100 + 2, staff: s, confidence: 0.9 });
    const pairs = (...on: number[]) => on.flatMap((s) => [dot(s, 312, 18), dot(s, 312, 30)]);
    expect(systemMeasures([0, 1, 2, 3], staves, lines, pairs(2), SPACE).left[1]).toBeUndefined();
    expect(systemMeasures([0, 1, 2, 3], staves, lines, pairs(0, 3), SPACE).left[1]?.repeat?.direction).toBe('forward');
  });
});
