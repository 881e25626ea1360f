import { describe, expect, it } from 'vitest';
import { barlinesInPixels } from '../../src/symbols/barline-pixels.js';
import type { BinaryImage } from '../../src/preparation/binarize.js';
import { straightStaff } from '../support/straight-staff.js';

const SPACE = 12;
const TOP = 30;
const staff = straightStaff(TOP, SPACE, 10, 290);

/** Paper with the staff's five lines. */
function page(): BinaryImage {
  const gray: BinaryImage = { width: 300, height: 120, data: new Uint8Array(300 * 120) };
  for (let l = 0; l < 5; l++) fill(gray, 10, TOP + l * SPACE, 290, TOP + l * SPACE + 1);
  return gray;
}

function fill(gray: BinaryImage, x0: number, y0: number, x1: number, y1: number): void {
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) gray.data[y * gray.width + x] = 1;
}

describe('barlines found in the pixels of a lone staff', () => {
  it('finds a stroke from the top line to the bottom one', () => {
    const gray = page();
    fill(gray, 150, TOP, 152, TOP + 4 * SPACE + 1);
    expect(barlinesInPixels(gray, staff, 0, SPACE).map((b) => Math.round(b.x))).toEqual([151]);
  });

  it('lets a line go on into the gap towards another staff of the system', () => {
    const gray = page();
    fill(gray, 150, TOP, 152, TOP + 4 * SPACE + 20);
    expect(barlinesInPixels(gray, staff, 0, SPACE)).toEqual([]);
    expect(barlinesInPixels(gray, staff, 0, SPACE, { top: true, bottom: false })).toHaveLength(1);
  });

  it('ignores a stem that runs past the staff and one that carries a head', () => {
    const gray = page();
    fill(gray, 80, TOP - 20, 82, TOP + 4 * SPACE + 1); // runs above the staff
    fill(gray, 200, TOP, 202, TOP + 4 * SPACE + 1); // the same height as the staff, but with a head
    fill(gray, 188, TOP + 4 * SPACE - 5, 200, TOP + 4 * SPACE + 6);
    expect(barlinesInPixels(gray, staff, 0, SPACE)).toEqual([]);
  });
});
