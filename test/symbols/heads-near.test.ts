/** Notehead paint near a point of the class map (heads-near.ts). */
import { describe, expect, it } from 'vitest';
import { headsNear } from '../../src/symbols/heads-near.js';
import { CLASS_INDEX } from '../../src/symbols/symbol-classes.js';
import { paintableMap } from '../support/class-map.js';

describe('headsNear', () => {
  it('finds a notehead pixel within the given columns and rows, and nothing past them or of another class', () => {
    const map = paintableMap(40, 30);
    map.paint(CLASS_INDEX.noteheadHalf, 20, 10);
    map.paint(CLASS_INDEX.stem, 5, 5);
    const near = (col: number, row: number) => headsNear(map)(col, row, 3, 2);
    expect(near(23, 12)).toBe(true);
    expect(near(17.4, 8)).toBe(true);
    expect(near(24, 10)).toBe(false);
    expect(near(20, 13)).toBe(false);
    expect(near(5, 5)).toBe(false);
  });

  it('keeps to the map at its edges', () => {
    const map = paintableMap(10, 10);
    map.paint(CLASS_INDEX.noteheadBlack, 0, 9);
    const near = (col: number, row: number) => headsNear(map)(col, row, 2, 2);
    expect(near(1, 8)).toBe(true);
    expect(near(-1, 11)).toBe(true);
    expect(near(9, 0)).toBe(false);
  });
});
