import { describe, expect, it } from 'vitest';
import { binarize, inkThreshold, otsuThreshold } from '../../src/preparation/binarize.js';
import { estimateSkew } from '../../src/preparation/deskew.js';
import { flattenBackground } from '../../src/preparation/normalize.js';
import { CANONICAL_STAFF_SPACE, preparePage, toSourcePoint } from '../../src/preparation/prepare-page.js';
import { measureStaffMetrics } from '../../src/preparation/staff-metrics.js';
import { degradeScan } from '../../training/data/degrade.js';
import { blankPage, drawLines, fillRect } from '../support/draw.js';

/** A page of `staves` five-line staves with a few noteheads. */
function staffPage(space: number, thickness: number, staves = 6) {
  const page = blankPage(1200, 1600);
  const tops: number[] = [];
  for (let s = 0; s < staves; s++) {
    const top = 150 + s * space * 12;
    drawLines(page, top, 5, space, thickness, 100, 1100);
    for (let n = 0; n < 12; n++) fillRect(page, 180 + n * 70, top + ((n % 8) * space) / 2 - space / 2, space * 1.3, space);
    tops.push(top);
  }
  return { page, tops };
}

describe('page preparation', () => {
  it('measures line thickness and staff space from the page', () => {
    for (const [space, thickness] of [[10, 1], [16, 2], [24, 3]] as const) {
      const { page } = staffPage(space, thickness);
      const m = measureStaffMetrics(binarize(page));
      expect(m.lineThickness).toBe(thickness);
      expect(m.staffSpace).toBeCloseTo(space, 0);
      expect(m.confidence).toBeGreaterThan(0.3);
    }
  });

  it('finds the skew of a turned page within a tenth of a degree', () => {
    const { page } = staffPage(14, 2);
    for (const degrees of [-2.5, 1.2, 2.9]) {
      const turned = degradeScan(page, 5, { skew: { p: 1, maxDegrees: Math.abs(degrees) }, blur: { p: 0 }, noise: { p: 0 }, speckle: { p: 0 }, jpeg: { p: 0 }, bleedThrough: { p: 0 }, binarise: { p: 0 }, contrast: { p: 0 } });
      const applied = turned.applied.find((e) => e.effect === 'skew')?.degrees as number;
      const ink = binarize(flattenBackground({ width: turned.width, height: turned.height, data: turned.image.data }));
      expect(Math.abs(estimateSkew(ink, 2) - applied)).toBeLessThan(0.1);
    }
  });

  it('flattens uneven light so one threshold keeps faint lines', () => {
    const page = blankPage(400, 400);
    // Light falls off from 255 on the left to 120 on the right; ink is 40 % of the local paper.
    for (let y = 0; y < 400; y++) for (let x = 0; x < 400; x++) page.data[y * 400 + x] = Math.round(255 - (135 * x) / 400);
    for (let y = 100; y < 300; y += 20) for (let x = 20; x < 380; x++) page.data[y * 400 + x] = Math.round(page.data[y * 400 + x]! * 0.4);
    const flat = flattenBackground({ width: 400, height: 400, data: page.data });
    const ink = binarize(flat);
    let lineInk = 0;
    let paperInk = 0;
    for (let x = 20; x < 380; x++) {
      lineInk += ink.data[200 * 400 + x]!;
      paperInk += ink.data[210 * 400 + x]!;
    }
    expect(lineInk / 360).toBeGreaterThan(0.95);
    expect(paperInk).toBe(0);
    expect(inkThreshold(flat)).toBeGreaterThanOrEqual(otsuThreshold(flat));
  });

  it('rescales to the canonical staff space and maps points back to the source page', () => {
    const { page, tops } = staffPage(20, 2);
    const prepared = preparePage(page);
    expect(prepared.transform.scale).toBeCloseTo(CANONICAL_STAFF_SPACE / 20, 2);
    const [, y] = toSourcePoint(prepared.transform, 300, tops[0]! * prepared.transform.scale);
    expect(y).toBeCloseTo(tops[0]!, 0);
  });
});
