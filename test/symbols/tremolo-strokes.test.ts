import { describe, expect, it } from 'vitest';
import type { BinaryImage } from '../../src/preparation/binarize.js';
import { strokesAcrossStem } from '../../src/symbols/tremolo-strokes.js';
import { straightStaff } from '../support/straight-staff.js';

const SPACE = 12;
const TOP = 30;
/** The staff whose lines page() draws (each two pixels thick, its middle half a pixel below its top row). */
const staff = straightStaff(TOP + 0.5, SPACE, 10, 290);
/** The stem's columns (two pixels wide), its tip and its head end. */
const STEM_X = 150;
const TIP = 40;
const HEAD_END = 100;

/** Paper with a staff's five lines (two pixels thick), and an up-stem from TIP down to HEAD_END. */
function page(stem = true): BinaryImage {
  const ink: BinaryImage = { width: 300, height: 140, data: new Uint8Array(300 * 140) };
  for (let l = 0; l < 5; l++) fill(ink, 10, TOP + l * SPACE, 290, TOP + l * SPACE + 2);
  if (stem) fill(ink, STEM_X, TIP, STEM_X + 2, HEAD_END);
  return ink;
}

function fill(ink: BinaryImage, x0: number, y0: number, x1: number, y1: number): void {
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) ink.data[y * ink.width + x] = 1;
}

/**
 * A tremolo stroke as engravers draw it: a bar 1.3 spaces wide and half a space thick, centred on the
 * stem at height y, rising half a space from its left end to its right.
 */
function stroke(ink: BinaryImage, y: number): void {
  const half = Math.round(SPACE * 0.65);
  for (let dx = -half; dx <= half; dx++) {
    const top = Math.round(y - SPACE * 0.25 - (dx / half) * SPACE * 0.25);
    fill(ink, STEM_X + 1 + dx, top, STEM_X + 2 + dx, top + Math.round(SPACE * 0.5));
  }
}

const across = (ink: BinaryImage, x = STEM_X + 1) => strokesAcrossStem(ink, [staff], x, TIP, HEAD_END, SPACE).map(Math.round);

describe('tremolo strokes across a stem', () => {
  it('finds one stroke, and where it is', () => {
    const ink = page();
    stroke(ink, 60);
    expect(across(ink)).toEqual([60]);
  });

  it('counts three strokes a little apart, one of them crossing a staff line', () => {
    const ink = page();
    for (const y of [48, 57, 66]) stroke(ink, y);
    expect(across(ink)).toHaveLength(3);
  });

  it('finds none on a bare stem crossing the staff lines', () => {
    expect(across(page())).toEqual([]);
  });

  it('takes no flag for a stroke: a flag hangs on one side only', () => {
    const ink = page();
    for (let dy = 0; dy < 18; dy++) fill(ink, STEM_X + 2, TIP + dy, STEM_X + 2 + Math.round(dy / 2) + 3, TIP + dy + 1);
    expect(across(ink)).toEqual([]);
  });

  it('takes no beam running on to the next stem for a stroke', () => {
    const ink = page();
    fill(ink, STEM_X - 30, 60, STEM_X + 2, 66); // a beam from the stem before, ending at this one
    fill(ink, STEM_X - 2, 60, STEM_X + 30, 66); // … and going on to the next
    expect(across(ink)).toEqual([]);
  });

  it('takes no thin line crossing the stem for a stroke (a tie, a hairpin)', () => {
    const ink = page();
    fill(ink, STEM_X - 8, 75, STEM_X + 10, 76);
    expect(across(ink)).toEqual([]);
  });

  it('follows the stem past the tip the model saw where a stroke cut it short', () => {
    const ink = page();
    fill(ink, STEM_X, TIP - 14, STEM_X + 2, TIP);
    stroke(ink, TIP - 6);
    expect(across(ink)).toEqual([TIP - 6]);
  });

  it('reads strokes where a stem would stand, over a whole note that has none', () => {
    const ink = page(false);
    stroke(ink, 60);
    expect(across(ink)).toEqual([60]);
  });

  it('takes no slur crossing the stem slantwise for a stroke: its ink goes on beyond a stroke’s reach', () => {
    const ink = page();
    // A third of a space thick, rising a pixel for every three across, from two spaces left of the stem to two right.
    for (let dx = -24; dx <= 24; dx++) fill(ink, STEM_X + 1 + dx, Math.round(70 - dx / 3), STEM_X + 2 + dx, Math.round(70 - dx / 3) + 4);
    expect(across(ink)).toEqual([]);
  });

  it('takes no bar falling to the right for a stroke (engravers slant strokes up to the right)', () => {
    const ink = page();
    const half = Math.round(SPACE * 0.65);
    for (let dx = -half; dx <= half; dx++) {
      const top = Math.round(60 - SPACE * 0.25 + (dx / half) * SPACE * 0.25);
      fill(ink, STEM_X + 1 + dx, top, STEM_X + 2 + dx, top + Math.round(SPACE * 0.5));
    }
    expect(across(ink)).toEqual([]);
  });

  it('finds a stroke with a barline standing a little beyond its end', () => {
    const ink = page();
    stroke(ink, 60);
    fill(ink, STEM_X - 15, TOP, STEM_X - 13, TOP + 4 * SPACE + 2);
    expect(across(ink)).toEqual([60]);
  });

  it('takes no ragged staff line on a scan for a stroke: a row of fringe above and below it, beside the stem', () => {
    const ink = page();
    const line = TOP + 2 * SPACE;
    fill(ink, STEM_X - 5, line - 1, STEM_X + 14, line);
    fill(ink, STEM_X - 7, line + 2, STEM_X + 8, line + 3);
    expect(across(ink)).toEqual([]);
  });
});
