import { describe, expect, it } from 'vitest';
import { OmrError } from '../../src/errors.js';
import { CANONICAL_STAFF_SPACE, preparePage } from '../../src/preparation/prepare-page.js';
import { toPreparedPoint, toSourcePoint } from '../../src/reading/page-transform.js';
import { detectStaves, staffLineY, withoutRetraced, type Staff } from '../../src/staves/detect-staves.js';
import { groupSystems } from '../../src/staves/systems.js';
import { degradePhoto, degradeScan } from '../../training/data/degrade.js';
import { generateRandomScore } from '../../training/data/random-score.js';
import { renderPages, type RenderedPage } from '../../training/data/render-pages.js';
import { blankPage, drawLines, fillRect } from '../support/draw.js';

function detect(page: Parameters<typeof preparePage>[0]) {
  const prepared = preparePage(page);
  return { prepared, staves: detectStaves(prepared.ink, { staffSpace: CANONICAL_STAFF_SPACE }) };
}

/** Every labelled staff is found, with its top line within a third of a staff space, and nothing else is. */
function expectStavesMatch(page: RenderedPage, image: Parameters<typeof preparePage>[0], warp: (x: number, y: number) => [number, number] = (x, y) => [x, y]) {
  const { prepared, staves } = detect(image);
  // Each labelled staff's top line, at its middle, moved through the degradation and into the prepared page.
  const truth = page.labels.staves.map((s) => toPreparedPoint(prepared.transform, ...warp((s.x0 + s.x1) / 2, s.lines[0]!)));
  const tolerance = CANONICAL_STAFF_SPACE / 3;
  const unmatched = truth.filter(([x, y]) => !staves.some((s) => x >= s.x0 && x <= s.x1 && Math.abs(staffLineY(s, 0, x) - y) < tolerance));
  expect(unmatched).toEqual([]);
  expect(staves.length).toBe(truth.length);
  // Systems: as many as engraved, with as many staves each, top to bottom.
  const systems = groupSystems(staves, prepared.ink);
  expect(systems.map((s) => s.staves.length)).toEqual(page.labels.systems.map((s) => s.staves.length));
}

describe('staff detection', () => {
  it('finds five-line staves of many sizes on a drawn page, with exact line positions', () => {
    for (const space of [8, 14, 30]) {
      const page = blankPage(1400, 2000);
      const tops = [200, 200 + space * 10, 200 + space * 20];
      for (const top of tops) drawLines(page, top, 5, space, Math.max(1, Math.round(space / 8)), 100, 1300);
      const { prepared, staves } = detect(page);
      expect(staves.length).toBe(3);
      staves.forEach((s, i) => {
        for (let l = 0; l < 5; l++) {
          const [, y] = toSourcePoint(prepared.transform, 700, staffLineY(s, l, 700));
          expect(Math.abs(y - (tops[i]! + l * space))).toBeLessThan(Math.max(1, space / 10));
        }
        const [x0] = toSourcePoint(prepared.transform, s.x0, 0);
        const [x1] = toSourcePoint(prepared.transform, s.x1, 0);
        expect(Math.abs(x0 - 100)).toBeLessThan(space / 2);
        expect(Math.abs(x1 - 1300)).toBeLessThan(space / 2);
      });
    }
  });

  it('groups staves joined at their left edge into one system', () => {
    const page = blankPage(1400, 2000);
    const tops = [200, 360, 700, 1100];
    for (const top of tops) drawLines(page, top, 5, 16, 2, 100, 1300);
    fillRect(page, 99, 200, 3, 360 + 64 - 200); // joins the first two staves
    const { prepared, staves } = detect(page);
    expect(groupSystems(staves, prepared.ink).map((s) => s.staves)).toEqual([[0, 1], [2], [3]]);
  });

  it('keeps a staff in its system when a shadow hid its start, and a coda staff out of the one above', () => {
    const page = blankPage(1400, 2000);
    // The second staff's lines show only from x = 300 (a shadow's edge on a photo); the system's line joins it at 100.
    drawLines(page, 200, 5, 16, 2, 100, 1300);
    drawLines(page, 360, 5, 16, 2, 300, 1300);
    fillRect(page, 99, 200, 3, 360 + 64 - 200);
    // A coda staff that starts far right, with nothing joining it to the staff above.
    drawLines(page, 700, 5, 16, 2, 100, 1300);
    drawLines(page, 860, 5, 16, 2, 500, 1300);
    const { prepared, staves } = detect(page);
    expect(staves.length).toBe(4);
    expect(groupSystems(staves, prepared.ink).map((s) => s.staves)).toEqual([[0, 1], [2], [3]]);
  });

  it('finds a staff whose inner line a scan streak thickened, and adds no staff for a thick band beside one', () => {
    const page = blankPage(1400, 1200);
    for (const top of [200, 500, 800]) drawLines(page, top, 5, 12, 2, 100, 1300);
    fillRect(page, 100, 500 + 24 - 2.5, 1200, 5); // the middle line of the second staff, darkened to five rows
    fillRect(page, 100, 800 + 60 - 2.5, 1200, 5); // a band a space below the third staff
    const { prepared, staves } = detect(page);
    const tops = staves.map((s) => toSourcePoint(prepared.transform, 700, staffLineY(s, 0, 700))[1]);
    expect(tops.length).toBe(3);
    [200, 500, 800].forEach((top, i) => expect(Math.abs(tops[i]! - top)).toBeLessThan(1.5));
  });

  it('keeps a staff traced twice once, the longer trace, and keeps neighbours on a tilted page apart', () => {
    // A staff with its lines at `top` + 12 l on the left, climbing `rise` px by x = 2400.
    const staff = (top: number, x0: number, x1: number, rise = 0): Staff => ({
      xs: [x0, x1],
      lines: [0, 1, 2, 3, 4].map((l) => [top + 12 * l - (rise * x0) / 2400, top + 12 * l - (rise * x1) / 2400]),
      x0,
      x1,
      space: 12,
    });
    const whole = staff(2145, 300, 2430);
    const piece = staff(2146, 300, 890);
    expect(withoutRetraced([piece, staff(1000, 300, 2430), whole])).toEqual([staff(1000, 300, 2430), whole]);
    // Two staves 1.5 spaces apart, tilted by more than that across the page: each one's rows overlap
    // the other's somewhere, but never at the same x.
    const upper = staff(1000, 300, 2400, 80);
    const lower = staff(1066, 300, 2400, 80);
    expect(withoutRetraced([lower, upper])).toEqual([upper, lower]);
  });

  it('refuses six-line tablature with UNSUPPORTED_TABLATURE', () => {
    const page = blankPage(1400, 1600);
    for (const top of [200, 500, 800, 1100]) drawLines(page, top, 6, 16, 2, 100, 1300);
    expect(() => detect(page)).toThrowError(expect.objectContaining({ code: 'UNSUPPORTED_TABLATURE' }));
  });

  it('answers NO_MUSIC_DETECTED for a page without staves', () => {
    const page = blankPage(1200, 1600);
    for (let row = 0; row < 30; row++) for (let w = 0; w < 12; w++) fillRect(page, 100 + w * 85, 100 + row * 45, 60, 14); // lines of "text"
    try {
      detect(page);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(OmrError);
      expect((err as OmrError).code).toBe('NO_MUSIC_DETECTED');
    }
  });

  it('finds every staff of engraved pages, clean, scanned and photographed', { timeout: 120_000 }, async () => {
    for (const seed of [3, 8]) {
      const score = generateRandomScore(seed, { staves: 4, measures: 8 });
      const [page] = await renderPages(score, { font: 'Bravura', pageWidth: 2100, pageHeight: 2970, staffSpacePx: 14, hideEmptyStaves: false });
      expectStavesMatch(page!, page!.image);
      const scan = degradeScan(page!.image, seed);
      expectStavesMatch(page!, scan.image, scan.warp);
      const photo = degradePhoto(page!.image, seed, { curl: { p: 0 } });
      expectStavesMatch(page!, photo.image, photo.warp);
    }
  });
});
