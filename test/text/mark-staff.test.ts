/** Which staff a dynamic between two staves belongs to (text-regions.ts markStaff). */
import { describe, expect, it } from 'vitest';
import type { Staff } from '../../src/staves/detect-staves.js';
import type { StaffSystem } from '../../src/staves/systems.js';
import { markStaff } from '../../src/text/text-regions.js';

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
});
