/** Which staff an expression word between two staves of a system is for (text-regions.ts classify). */
import { describe, expect, it } from 'vitest';
import type { Staff } from '../../src/staves/detect-staves.js';
import { findTextRegions, type TextPageInput } from '../../src/text/text-regions.js';

const SPACE = 12;
const WIDTH = 1000;
const HEIGHT = 400;

/** A straight staff of five lines whose top line is at `top`, from x 20 to `right`. */
function staff(top: number, right = 980): Staff {
  return { xs: [20, right], lines: [0, 1, 2, 3, 4].map((l) => [top + l * SPACE, top + l * SPACE]), x0: 20, x1: right, space: SPACE };
}

/** Two staves of one system drawn on a page, ending at `right`, and a word of five letters whose middle stands at `wordY`. */
function page(wordY: number, right = 980): TextPageInput {
  const upper = staff(60, right);
  const lower = staff(108 + 6.5 * SPACE, right);
  const ink = { width: WIDTH, height: HEIGHT, data: new Uint8Array(WIDTH * HEIGHT) };
  for (const s of [upper, lower]) for (const [y] of s.lines) for (let x = s.x0; x < s.x1; x++) ink.data[y! * WIDTH + x] = 1;
  for (let letter = 0; letter < 5; letter++) {
    const x0 = 400 + letter * 9;
    for (let y = wordY - 5; y < wordY + 5; y++) for (let x = x0; x < x0 + 7; x++) ink.data[y * WIDTH + x] = 1;
  }
  const gray = { width: WIDTH, height: HEIGHT, data: ink.data.map((v) => (v ? 0 : 255)) };
  return { gray, ink, staves: [upper, lower], systems: [{ staves: [0, 1] }], space: SPACE, page: 1 };
}

describe('expression words between the staves of a system', () => {
  it('belong to the staff above when they stand under it, just past the middle of a narrow gap', () => {
    // 3.4 spaces under the upper staff's bottom line, 3.1 over the lower staff's top line.
    const [word] = findTextRegions(page(108 + Math.round(3.4 * SPACE))).lines.filter((l) => l.kind === 'expression');
    expect(word?.staff).toBe(0);
  });

  it('belong to the staff below when they stand clearly nearer it', () => {
    const [word] = findTextRegions(page(108 + Math.round(5.2 * SPACE))).lines.filter((l) => l.kind === 'expression');
    expect(word?.staff).toBe(1);
  });

  it('belong to the staff above when they stand nearer the one below but beside where both end', () => {
    // The staves' lines end at x 300 (a photo's, found short of the page's edge); the word stands at x 400–445.
    const [word] = findTextRegions(page(108 + Math.round(5.2 * SPACE), 300)).lines.filter((l) => l.kind === 'expression');
    expect(word?.staff).toBe(0);
  });
});
