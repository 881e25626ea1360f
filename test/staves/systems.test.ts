import { describe, expect, it } from 'vitest';
import type { BinaryImage } from '../../src/preparation/binarize.js';
import { groupSystems } from '../../src/staves/systems.js';
import { straightStaff } from '../support/straight-staff.js';

const SPACE = 12;
const WIDTH = 600;
const GAP = 6 * SPACE;

/**
 * A page of staves (top lines `tops`, from x 50 to 550), the given groups of them joined by a line at
 * their start, and barlines through each staff at `barlines(staff)`.
 */
function page(tops: number[], groups: number[][], barlines: (staff: number) => number[]) {
  const height = tops[tops.length - 1]! + 8 * SPACE;
  const ink: BinaryImage = { width: WIDTH, height, data: new Uint8Array(WIDTH * height) };
  const fill = (x0: number, x1: number, y0: number, y1: number) => {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) ink.data[y * WIDTH + x] = 1;
  };
  tops.forEach((top, s) => {
    for (let l = 0; l < 5; l++) fill(50, 550, top + l * SPACE, top + l * SPACE + 2);
    for (const x of barlines(s)) fill(x, x + 2, top, top + 4 * SPACE + 2);
  });
  for (const group of groups) fill(50, 52, tops[group[0]!]!, tops[group[group.length - 1]!]! + 4 * SPACE + 2);
  return { ink, staves: tops.map((top) => straightStaff(top, SPACE, 50, 550)) };
}

const tops = (n: number) => Array.from({ length: n }, (_, k) => 20 + k * (4 * SPACE + GAP));

describe('groupSystems', () => {
  it('joins staves a line joins at their start, and leaves staves no line joins apart', () => {
    const { ink, staves } = page(tops(4), [[0, 1], [2, 3]], () => [200, 400]);
    // Two groups of two, their barlines at the same places but a wider gap between them than inside them.
    const wide = page([20, 140, 320, 440], [[0, 1], [2, 3]], () => [200, 400]);
    expect(groupSystems(wide.staves, wide.ink).map((s) => s.staves)).toEqual([[0, 1], [2, 3]]);
    // At even gaps, with their barlines lined up, two groups of an orchestral system are one.
    expect(groupSystems(staves, ink).map((s) => s.staves)).toEqual([[0, 1, 2, 3]]);
  });

  it('takes a group\'s barlines as the lines through all its staves, not a stem as tall as one staff', () => {
    const { ink, staves } = page(tops(4), [[0, 1], [2, 3]], (s) => (s === 2 ? [120, 200, 400] : [200, 400]));
    expect(groupSystems(staves, ink).map((s) => s.staves)).toEqual([[0, 1, 2, 3]]);
  });

  it('keeps groups apart whose barlines stand at other places, and single staves whatever their barlines', () => {
    const shifted = page(tops(4), [[0, 1], [2, 3]], (s) => (s < 2 ? [200, 400] : [230, 400]));
    expect(groupSystems(shifted.staves, shifted.ink).map((s) => s.staves)).toEqual([[0, 1], [2, 3]]);
    const lines = page(tops(3), [], () => [200, 400]);
    expect(groupSystems(lines.staves, lines.ink).map((s) => s.staves)).toEqual([[0], [1], [2]]);
  });

  it('joins again the staves of a system whose joining line was lost, where other systems show its staff count', () => {
    // Three systems of three staves, a wide gap between systems; the last system's line at its start is lost.
    const systemTops = [0, 1, 2].flatMap((k) => [0, 1, 2].map((s) => 20 + k * (3 * 4 * SPACE + 4 * GAP) + s * (4 * SPACE + GAP)));
    const lost = page(systemTops, [[0, 1, 2], [3, 4, 5]], (s) => [200 + 10 * Math.floor(s / 3)]);
    expect(groupSystems(lost.staves, lost.ink).map((s) => s.staves)).toEqual([[0, 1, 2], [3, 4, 5], [6, 7, 8]]);
    // Pieces a system's gap apart stay apart, and so do pieces that add up to more than a system.
    const apart = page([...systemTops.slice(0, 7), systemTops[7]! + 2 * GAP], [[0, 1, 2], [3, 4, 5]], (s) => [200 + 10 * Math.floor(s / 3)]);
    expect(groupSystems(apart.staves, apart.ink).map((s) => s.staves)).toEqual([[0, 1, 2], [3, 4, 5], [6], [7]]);
    const more = page([...systemTops, systemTops[8]! + 4 * SPACE + GAP], [[0, 1, 2], [3, 4, 5], [6, 7], [8, 9]], (s) => [200 + 10 * Math.floor(s / 3)]);
    expect(groupSystems(more.staves, more.ink).map((s) => s.staves)).toEqual([[0, 1, 2], [3, 4, 5], [6, 7], [8, 9]]);
  });
});
