/**
 * A word the symbol model paints partly as dynamics ("cres" of an italic "cresc." as dynamics, "c." as
 * text) is found as one line of text, not as a mark and a fragment; a dynamic printed a word space
 * before a word keeps a line of its own (text-regions.ts sameWord).
 */
import { describe, expect, it } from 'vitest';
import type { Staff } from '../../src/staves/detect-staves.js';
import { CLASS_INDEX } from '../../src/symbols/symbol-classes.js';
import { findTextRegions, type TextPageInput } from '../../src/text/text-regions.js';

const SPACE = 12;
const WIDTH = 600;
const HEIGHT = 200;
const STAFF: Staff = { xs: [20, 580], lines: [0, 1, 2, 3, 4].map((l) => [40 + l * SPACE, 40 + l * SPACE]), x0: 20, x1: 580, space: SPACE };
/** Middle of the letters' row: 3 spaces under the staff. */
const ROW = 88 + 3 * SPACE;

/** A page with one staff and, under it, letters 7 px wide and 10 high starting at each x, painted by the model as `painted[i]`. */
function page(letters: readonly { x: number; painted: 'dynamics' | 'text' }[]): TextPageInput {
  const ink = { width: WIDTH, height: HEIGHT, data: new Uint8Array(WIDTH * HEIGHT) };
  const map = { width: WIDTH / 2, height: HEIGHT / 2, data: new Uint8Array((WIDTH / 2) * (HEIGHT / 2)), confidence: new Uint8Array((WIDTH / 2) * (HEIGHT / 2)) };
  for (const [y] of STAFF.lines) for (let x = STAFF.x0; x < STAFF.x1; x++) ink.data[y! * WIDTH + x] = 1;
  for (const { x: x0, painted } of letters) {
    for (let y = ROW - 5; y < ROW + 5; y++) {
      for (let x = x0; x < x0 + 7; x++) {
        ink.data[y * WIDTH + x] = 1;
        map.data[(y >> 1) * map.width + (x >> 1)] = CLASS_INDEX[painted];
      }
    }
  }
  const gray = { width: WIDTH, height: HEIGHT, data: ink.data.map((v) => (v ? 0 : 255)) };
  return { gray, ink, map, staves: [STAFF], systems: [{ staves: [0] }], space: SPACE, page: 1 };
}

/** Letters side by side from `x`, one pixel apart (italic letters of a word nearly touch). */
const word = (x: number, painted: readonly ('dynamics' | 'text')[]) => painted.map((p, i) => ({ x: x + i * 8, painted: p }));

describe('a word painted partly as dynamics', () => {
  it('is one line of text holding all its letters', () => {
    const { lines } = findTextRegions(page(word(200, ['dynamics', 'dynamics', 'dynamics', 'dynamics', 'text', 'text'])));
    expect(lines.filter((l) => l.kind === 'dynamics')).toEqual([]);
    const text = lines.filter((l) => l.x0 <= 200 && l.x1 >= 200 + 5 * 8 + 6);
    expect(text).toHaveLength(1);
    expect(text[0]!.glyphs).toHaveLength(6);
  });

  it('leaves a dynamic a word space before a word as a mark of its own', () => {
    // "p" (one letter, painted as dynamics), half a space, then a word of four text letters.
    const { lines } = findTextRegions(page([{ x: 200, painted: 'dynamics' }, ...word(213, ['text', 'text', 'text', 'text'])]));
    const marks = lines.filter((l) => l.kind === 'dynamics');
    expect(marks.map((l) => [l.x0, l.glyphs.length])).toEqual([[200, 1]]);
  });
});
