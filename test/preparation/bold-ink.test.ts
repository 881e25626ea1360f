import { describe, expect, it } from 'vitest';
import { boldInkExcess, thinInk } from '../../src/preparation/bold-ink.js';

describe('bold ink', () => {
  it('takes off each side of a stroke as much as the staff lines stand thicker than a quarter space', () => {
    expect([2, 3, 4, 5, 6, 7].map((t) => boldInkExcess(t, 12))).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it('thins every stroke by the radius on each side, to the page edges, and keeps the paper', () => {
    const width = 20;
    const height = 12;
    const data = new Uint8Array(width * height).fill(250);
    // A horizontal bar 7 rows thick across the page, and a vertical one 7 columns wide at the left edge.
    for (let y = 2; y < 9; y++) for (let x = 0; x < width; x++) data[y * width + x] = 10;
    for (let y = 0; y < height; y++) for (let x = 0; x < 7; x++) data[y * width + x] = 10;
    const thin = thinInk({ width, height, data }, 2);
    const column = (x: number) => Array.from({ length: height }, (_, y) => thin.data[y * width + x]! < 128);
    const row = (y: number) => Array.from({ length: width }, (_, x) => thin.data[y * width + x]! < 128);
    // The bar: rows 4–6 keep ink (7 − 2·2 = 3 rows); the page edge does not count as paper.
    expect(column(15).map((ink, y) => (ink ? y : -1)).filter((y) => y >= 0)).toEqual([4, 5, 6]);
    expect(row(0).map((ink, x) => (ink ? x : -1)).filter((x) => x >= 0)).toEqual([0, 1, 2, 3, 4]);
    expect(thin.data[11 * width + 15]).toBe(250);
    expect(thinInk({ width, height, data }, 0).data).toBe(data);
  });
});
