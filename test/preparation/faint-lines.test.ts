import { describe, expect, it } from 'vitest';
import type { GrayImage } from '../../src/image/gray.js';
import { binarize, inkThreshold } from '../../src/preparation/binarize.js';
import { faintLineInk } from '../../src/preparation/faint-lines.js';
import { detectStaves } from '../../src/staves/detect-staves.js';
import { createRng } from '../../training/data/prng.js';

const SPACE = 12;

/** A prepared page (staff space 12 px) of staves broken into dots that the paper's grain swallows, on grainy gray paper. */
function faintStaves(seed: number): GrayImage {
  const rng = createRng(seed);
  const width = 900;
  const height = 700;
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = 205 + Math.round(rng.next() * 50 - 25);
  for (let top = 80; top + 4 * SPACE < height - 60; top += 12 * SPACE) {
    for (let l = 0; l < 5; l++) {
      const y = top + l * SPACE;
      for (let x = 60; x < width - 60; x++) if (rng.next() < 0.6) data[y * width + x] = 130;
    }
  }
  return { width, height, data };
}

/** A page of text lines and no staves, on the same paper. */
function textPage(seed: number): GrayImage {
  const rng = createRng(seed);
  const width = 900;
  const height = 700;
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = 205 + Math.round(rng.next() * 50 - 25);
  for (let top = 60; top < height - 40; top += 2 * SPACE) {
    for (let y = top; y < top + 9; y++) for (let x = 60; x < width - 60; x++) if ((x >> 3) % 3 !== 2 && rng.next() < 0.5) data[y * width + x] = 40;
  }
  return { width, height, data };
}

describe('faint staff lines', () => {
  it('are lost to the page threshold but found again on the smoothed page', () => {
    const page = faintStaves(3);
    expect(() => detectStaves(binarize(page, inkThreshold(page)), { staffSpace: SPACE })).toThrow(expect.objectContaining({ code: 'NO_MUSIC_DETECTED' }));
    const staves = detectStaves(faintLineInk(page, SPACE), { staffSpace: SPACE });
    expect(staves).toHaveLength(4);
    for (const staff of staves) expect(Math.abs(staff.space - SPACE)).toBeLessThan(0.6);
  });

  it('make no staves out of lines of text', () => {
    const page = textPage(5);
    expect(() => detectStaves(faintLineInk(page, SPACE), { staffSpace: SPACE })).toThrow(expect.objectContaining({ code: 'NO_MUSIC_DETECTED' }));
  });
});
