/** Which staff a dynamic between two staves belongs to (text-regions.ts markStaff). */
import { describe, expect, it } from 'vitest';
import type { Staff } from '../../src/staves/detect-staves.js';
import type { StaffSystem } from '../../src/staves/systems.js';
import { CLASS_INDEX } from '../../src/symbols/symbol-classes.js';
import { markStaff } from '../../src/text/text-regions.js';
import { paintableMap } from '../support/class-map.js';

const SPACE = 12;

/** A straight staff of five lines whose top line is at `top`, from x 0 to 1000. */
function staff(top: number): Staff {
  return { xs: [0, 1000], lines: [0, 1, 2, 3, 4].map((l) => [top + l * SPACE, top + l * SPACE]), x0: 0, x1: 1000, space: SPACE };
}

describe('markStaff', () => {
  // A quartet's narrow gap: the upper staff's bottom line at 148, the lower staff's top line at 148 + 6.5 spaces.
  const staves = [staff(100), staff(148 + 6.5 * SPACE)];
  const oneSystem: StaffSystem[] = [{ staves: [0, 1] }];
  const twoSystems: StaffSystem[] = [{ staves: [0] }, { staves: [1] }];

  it('gives a dynamic under a staff, just past the middle of a narrow gap, to the staff above', () => {
    // 3.4 spaces under the upper staff, 3.1 over the lower: the nearest staff is the lower one.
    expect(markStaff({ staves, systems: oneSystem }, 500, 148 + 3.4 * SPACE)).toBe(0);
  });

  it('gives a dynamic clearly nearer the lower staff to it', () => {
    expect(markStaff({ staves, systems: oneSystem }, 500, 148 + 5 * SPACE)).toBe(1);
  });

  it('keeps the nearest staff across systems, and for marks inside or outside the gap', () => {
    expect(markStaff({ staves, systems: twoSystems }, 500, 148 + 3.4 * SPACE)).toBe(1);
    expect(markStaff({ staves, systems: oneSystem }, 500, 90)).toBe(0);
    expect(markStaff({ staves, systems: oneSystem }, 500, 148 + 6.5 * SPACE + 6 * SPACE)).toBe(1);
  });

  it('measures the gap to the music in the columns of the mark: a dynamic pushed down by ledger-line notes under the upper staff is still its', () => {
    // A "p" 1.4 spaces over the lower staff's top line, 2 spaces wide.
    const lowerTop = 148 + 6.5 * SPACE;
    const p = { x0: 488, x1: 512, y0: lowerTop - 3.4 * SPACE, y1: lowerTop - 1.4 * SPACE };
    const at = [500, (p.y0 + p.y1) / 2] as const;
    const map = paintableMap(500, 300);
    expect(markStaff({ staves, systems: oneSystem, map }, ...at, p)).toBe(1);
    // Notes on ledger lines under the upper staff, and a slur under them, reaching within a space of the p.
    for (let x = 480; x <= 520; x += 2) map.paint(CLASS_INDEX.ledgerLine, x / 2, (148 + 2 * SPACE) / 2);
    for (let x = 470; x <= 530; x += 2) map.paint(CLASS_INDEX.tieSlur, x / 2, (p.y0 - SPACE) / 2);
    expect(markStaff({ staves, systems: oneSystem, map }, ...at, p)).toBe(0);
    // The same ink beside the p, outside its columns, changes nothing.
    const aside = { ...p, x0: 588, x1: 612 };
    expect(markStaff({ staves, systems: oneSystem, map }, 600, at[1], aside)).toBe(1);
  });
});
