import { describe, expect, it } from 'vitest';
import type { GrayImage } from '../../src/image/gray.js';
import { createRng } from '../../training/data/prng.js';
import { staffSpaceFromProfiles } from '../../src/preparation/staff-space-profile.js';

/** A gray page of staves whose light lines are broken into dashes, on noisy paper. */
function brokenStaves(space: number, seed: number): GrayImage {
  const rng = createRng(seed);
  const width = 800;
  const height = 1000;
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = 200 + Math.round(rng.next() * 40 - 20);
  for (let top = 60; top + 4 * space < height - 40; top += 10 * space) {
    for (let l = 0; l < 5; l++) {
      const y = Math.round(top + l * space);
      for (let x = 40; x < width - 40; x++) if (rng.next() < 0.55) data[y * width + x] = 150;
    }
  }
  return { width, height, data };
}

describe('staff space from gray-level profiles', () => {
  it.each([7, 10.5, 14, 22])('finds a space of %s px where lines are light and broken', (space) => {
    const estimate = staffSpaceFromProfiles(brokenStaves(space, Math.round(space * 10)));
    expect(estimate).toBeDefined();
    expect(Math.abs(estimate! - space)).toBeLessThan(0.6);
  });
});
