import { describe, expect, it } from 'vitest';
import type { GrayImage } from '../../src/image/gray.js';
import { binarize, inkThreshold } from '../../src/preparation/binarize.js';
import { faintLineInk, smoothRows } from '../../src/preparation/faint-lines.js';
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

describe('smoothRows', () => {
  /** Each pixel the rounded mean of its row within `half` of it, clipped at the edges, summed afresh. */
  function reference(gray: GrayImage, half: number): Uint8Array {
    const out = new Uint8Array(gray.data.length);
    for (let y = 0; y < gray.height; y++) {
      for (let x = 0; x < gray.width; x++) {
        let sum = 0;
        let count = 0;
        for (let k = Math.max(0, x - half); k <= Math.min(gray.width - 1, x + half); k++, count++) sum += gray.data[y * gray.width + k]!;
        out[y * gray.width + x] = Math.round(sum / count);
      }
    }
    return out;
  }

  it('gives each pixel the mean of its row around it, on rows wider and narrower than the window', () => {
    const rng = createRng(5);
    for (const [width, half] of [[40, 3], [9, 3], [8, 3], [7, 3], [6, 3], [4, 3], [1, 2], [30, 12]] as const) {
      const gray = { width, height: 3, data: Uint8Array.from({ length: width * 3 }, () => Math.floor(rng.next() * 256)) };
      expect([...smoothRows(gray, half).data], `${width} px rows, half ${half}`).toEqual([...reference(gray, half)]);
    }
  });
});
