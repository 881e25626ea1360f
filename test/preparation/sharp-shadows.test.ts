import { describe, expect, it } from 'vitest';
import { binarize, inkThreshold } from '../../src/preparation/binarize.js';
import { flattenBackground, paperMap } from '../../src/preparation/normalize.js';
import { preparePage } from '../../src/preparation/prepare-page.js';
import { toSourcePoint } from '../../src/reading/page-transform.js';
import { shadowedPaper, unevenPaper } from '../../src/preparation/sharp-shadows.js';
import { detectStaves, staffLineY } from '../../src/staves/detect-staves.js';
import { blankPage, drawLines, fillRect } from '../support/draw.js';

const SPACE = 12;

/**
 * A photographed page: six staves with heads, a table showing along the left
 * edge, and a shadow with a sharp edge across the lower staves' right halves
 * (paper and ink at half their brightness beyond the edge).
 */
function shadowedPhoto() {
  const page = blankPage(1200, 1300, 235);
  const tops: number[] = [];
  for (let s = 0; s < 6; s++) {
    const top = 120 + s * SPACE * 15;
    drawLines(page, top, 5, SPACE, 2, 140, 1150);
    for (let n = 0; n < 12; n++) fillRect(page, 220 + n * 75, top + ((n % 8) * SPACE) / 2 - SPACE / 2, SPACE * 1.3, SPACE);
    tops.push(top);
  }
  fillRect(page, 0, 0, 90, 1300, 35);
  for (let y = 0; y < 1300; y++) {
    for (let x = 0; x < 1200; x++) if (x + 0.8 * (1300 - y) < 1200 && x > 90) page.data[y * 1200 + x] = Math.round(page.data[y * 1200 + x]! * 0.5);
  }
  return { page, tops };
}

describe('sharp shadows', () => {
  it('tell an unevenly lit photo from an evenly lit page', () => {
    expect(unevenPaper(paperMap(shadowedPhoto().page))).toBe(true);
    const even = blankPage(1200, 1300, 228);
    drawLines(even, 200, 5, SPACE, 2, 100, 1100);
    expect(unevenPaper(paperMap(even))).toBe(false);
  });

  it('estimate the paper up to the shadow’s edge, lifting the ink, and leave the table to the block estimate', () => {
    const { page } = shadowedPhoto();
    const paper = shadowedPaper(page, paperMap(page), SPACE);
    const at = (x: number, y: number) => paper[y * 1200 + x]!;
    // On the last staff's top line (y 1020) the shadow's edge is at x 976: the paper a little inside
    // it is half of 235, a little outside all of it.
    expect(Math.abs(at(960, 1020) - 118)).toBeLessThanOrEqual(2);
    expect(at(990, 1020)).toBeGreaterThanOrEqual(230);
    // The table is no paper: 255, the block estimate rules there.
    expect(at(40, 600)).toBe(255);
  });

  it('keep the paper inside the shadow’s edge paper, where the block estimate alone turns it to ink', () => {
    const { page } = shadowedPhoto();
    const map = paperMap(page);
    const inkAt = (flat: ReturnType<typeof flattenBackground>, x: number, y: number) => binarize(flat, inkThreshold(flat)).data[y * 1200 + x];
    // Between the last two staves (y 1000), just inside the edge (x 960 there).
    const [x, y] = [940, 1000];
    expect(inkAt(flattenBackground(page, map), x, y)).toBe(1);
    expect(inkAt(flattenBackground(page, map, shadowedPaper(page, map, SPACE)), x, y)).toBe(0);
  });

  it('let every staff under the shadow be found where it was drawn', () => {
    const { page, tops } = shadowedPhoto();
    const prepared = preparePage(page);
    const staves = detectStaves(prepared.ink, { staffSpace: SPACE });
    const found = staves.map((s) => toSourcePoint(prepared.transform, (s.x0 + s.x1) / 2, staffLineY(s, 0, (s.x0 + s.x1) / 2))[1]);
    expect(found).toHaveLength(tops.length);
    found.forEach((y, i) => expect(Math.abs(y - tops[i]!)).toBeLessThan(SPACE / 3));
    // Across the whole width, the shadowed right half included.
    for (const s of staves) expect(toSourcePoint(prepared.transform, s.x1, 0)[0]).toBeGreaterThan(1100);
  });
});
