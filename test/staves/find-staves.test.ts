import { describe, expect, it } from 'vitest';
import type { GrayImage } from '../../src/image/gray.js';
import { binarize, inkThreshold } from '../../src/preparation/binarize.js';
import { findStaves } from '../../src/staves/find-staves.js';
import { staffLineY } from '../../src/staves/detect-staves.js';
import { createRng } from '../../training/data/prng.js';

const SPACE = 12;

/**
 * A prepared page (staff space 12 px) on grainy gray paper: staves of solid dark lines at `crisp`
 * tops, staves whose light lines are broken into dots at `faint` tops, each from x0 to x1.
 */
function page(crisp: number[], faint: { top: number; x0?: number; x1?: number }[], seed = 7): GrayImage {
  const rng = createRng(seed);
  const width = 900;
  const height = 900;
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = 205 + Math.round(rng.next() * 50 - 25);
  for (const top of crisp) for (let l = 0; l < 5; l++) for (let x = 60; x < 840; x++) data[(top + l * SPACE) * width + x] = 30;
  for (const { top, x0 = 60, x1 = 840 } of faint) {
    for (let l = 0; l < 5; l++) for (let x = x0; x < x1; x++) if (rng.next() < 0.7) data[(top + l * SPACE) * width + x] = 130;
  }
  return { width, height, data };
}

const tops = (g: GrayImage) => findStaves(binarize(g, inkThreshold(g)), g, SPACE).map((s) => Math.round(staffLineY(s, 0, 450)));

describe('findStaves', () => {
  it('adds the staves whose lines only the smoothed page shows to those the page shows', () => {
    expect(tops(page([80, 420, 740], [{ top: 250 }, { top: 580 }]))).toEqual([80, 250, 420, 580, 740]);
  });

  it('adds no staff only the smoothed page shows that runs well short of the others', () => {
    expect(tops(page([80, 420, 740], [{ top: 250, x0: 300, x1: 640 }]))).toEqual([80, 420, 740]);
  });

  it('starts a faint staff traced from halfway along, ending with the others, where the staff beside it starts', () => {
    // Its start lost in a shadow: the lines are carried on to the left edge of the staves around it.
    const g = page([80, 420, 740], [{ top: 250, x0: 380 }]);
    const staves = findStaves(binarize(g, inkThreshold(g)), g, SPACE);
    expect(staves.map((s) => Math.round(staffLineY(s, 0, 450)))).toEqual([80, 250, 420, 740]);
    expect(staves[1]!.x0).toBe(staves[0]!.x0);
    expect(Math.round(staffLineY(staves[1]!, 4, 70))).toBe(250 + 4 * SPACE);
  });

  it('finds the staves of a page whose lines are all faint', () => {
    expect(tops(page([], [{ top: 80 }, { top: 300 }]))).toEqual([80, 300]);
  });

  it('looks on the smoothed ink of a page with sharp lines only when its own ink shows no staff', () => {
    const mixed = page([80, 420, 740], [{ top: 250 }]);
    const found = (g: GrayImage) => findStaves(binarize(g, inkThreshold(g)), g, SPACE, true).map((s) => Math.round(staffLineY(s, 0, 450)));
    expect(found(mixed)).toEqual([80, 420, 740]);
    expect(found(page([], [{ top: 80 }, { top: 300 }]))).toEqual([80, 300]);
  });

  it('finds the staves of a bold scan enlarged to the canonical size, whose lines stand seven rows thick and waver', () => {
    const width = 900;
    const g: GrayImage = { width, height: 600, data: new Uint8Array(width * 600).fill(235) };
    for (const top of [100, 350]) {
      for (let x = 60; x < 840; x++) {
        // Bent paper: the lines rise and fall by two rows along the staff.
        const wave = Math.round(2 * Math.sin(x / 90));
        for (let l = 0; l < 5; l++) for (let dy = -3; dy <= 3; dy++) g.data[(top + l * SPACE + wave + dy) * width + x] = 40;
      }
    }
    expect(tops(g).map((y) => Math.abs(y - 100) <= 3 || Math.abs(y - 350) <= 3)).toEqual([true, true]);
  });
});
