import { describe, expect, it } from 'vitest';
import { binarize, inkThreshold, otsuThreshold } from '../../src/preparation/binarize.js';
import { estimateShear, estimateSkew } from '../../src/preparation/deskew.js';
import { flattenBackground } from '../../src/preparation/normalize.js';
import { CANONICAL_STAFF_SPACE, cubic, preparePage, rescale } from '../../src/preparation/prepare-page.js';
import { toPreparedPoint, toSourcePoint, type PageTransform } from '../../src/reading/page-transform.js';
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

/**
 * The general resampling of preparation (turn, shear, scale) written out pixel by pixel, as a
 * reference for pages that need only scaling: Catmull-Rom where the page is enlarged by more than
 * 1/0.85, bilinear elsewhere, paper beyond the edges.
 */
function referenceScale(src: { width: number; height: number; data: Uint8Array }, width: number, height: number): Uint8Array {
  const k = src.width / width;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sx = (x + 0.5 - width / 2) * k + src.width / 2 - 0.5;
      const sy = (y + 0.5 - height / 2) * k + src.height / 2 - 0.5;
      const [x0, y0] = [Math.floor(sx), Math.floor(sy)];
      const [fx, fy] = [sx - x0, sy - y0];
      const at = (xx: number, yy: number) => src.data[yy * src.width + xx]!;
      if (x0 < 0 || y0 < 0 || x0 >= src.width - 1 || y0 >= src.height - 1) out[y * width + x] = 255;
      else if (k < 0.85 && x0 >= 1 && y0 >= 1 && x0 < src.width - 2 && y0 < src.height - 2) {
        const [wx, wy] = [cubic(fx), cubic(fy)];
        let v = 0;
        for (let j = 0; j < 4; j++) v += wy[j]! * (wx[0]! * at(x0 - 1, y0 - 1 + j) + wx[1]! * at(x0, y0 - 1 + j) + wx[2]! * at(x0 + 1, y0 - 1 + j) + wx[3]! * at(x0 + 2, y0 - 1 + j));
        out[y * width + x] = Math.max(0, Math.min(255, Math.round(v)));
      } else {
        const top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * fx;
        const bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * fx;
        out[y * width + x] = Math.round(top + (bottom - top) * fy);
      }
    }
  }
  return out;
}

describe('page preparation', () => {
  it('refuses a blank page as holding no music before scaling it by a staff space it does not have', () => {
    // Measured on a blank page, the staff space was noise (3 px): the page was blown up fourfold, to 256
    // megapixels for an 8000 × 8000 scan, before the staves were looked for.
    for (const paper of [255, 200]) {
      expect(() => preparePage(blankPage(1200, 900, paper)), `paper ${paper}`).toThrow(expect.objectContaining({ code: 'NO_MUSIC_DETECTED' }));
    }
  });

  it('scales a page that needs no turning exactly as the general resampling does, enlarging or reducing', () => {
    // A page of staves with noise, so every sample's weights matter.
    const page = blankPage(300, 200);
    drawLines(page, 40, 5, 9, 1, 10, 290);
    let seed = 7;
    for (let i = 0; i < page.data.length; i++) page.data[i] = Math.max(0, page.data[i]! - ((seed = (seed * 1103515245 + 12345) % 2147483648) % 40));
    for (const [width, height] of [[450, 300], [600, 401], [340, 227], [260, 173], [300, 200]] as const) {
      const expected = referenceScale(page, width, height);
      const got = rescale(page, width, height);
      expect([got.width, got.height]).toEqual([width, height]);
      let differ = 0;
      for (let i = 0; i < expected.length; i++) if (expected[i] !== got.data[i]) differ++;
      expect(differ, `${width} × ${height}`).toBe(0);
    }
  });

  it('enlarges with Catmull-Rom weights: samples kept where they fall, weights summing to one', () => {
    expect(cubic(0)).toEqual([0, 1, 0, 0]);
    expect(cubic(0.5)).toEqual([-1 / 16, 9 / 16, 9 / 16, -1 / 16]);
    for (const t of [0.1, 0.3, 0.7, 0.95]) expect(cubic(t).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    // A straight ramp is reproduced exactly (bilinear does too; the cubic also keeps edges steep).
    expect(cubic(0.3).reduce((sum, w, k) => sum + w * (10 * k), 0)).toBeCloseTo(13, 12);
  });

  it('measures line thickness and staff space from the page', () => {
    for (const [space, thickness] of [[10, 1], [16, 2], [24, 3]] as const) {
      const { page } = staffPage(space, thickness);
      const m = measureStaffMetrics(binarize(page));
      expect(m.lineThickness).toBe(thickness);
      expect(m.staffSpace).toBeCloseTo(space, 0);
      expect(m.confidence).toBeGreaterThan(0.3);
    }
  });

  it('thins a bold scan\'s strokes for the models back towards their engraved weight, and leaves ordinary ink as it is', () => {
    // Staff space 12 px as prepared: lines 1 px thick read as they are; lines 5 px thick (a bled print) thinned.
    for (const [thickness, thinner] of [[1, false], [5, true]] as const) {
      const { page } = staffPage(CANONICAL_STAFF_SPACE, thickness);
      const prepared = preparePage(page);
      expect(prepared.transform.scale).toBeCloseTo(1, 1);
      // Staves are found on the page's own ink; the models look at the thinned page.
      expect(prepared.lineThickness).toBe(thickness);
      expect(measureStaffMetrics(binarize(prepared.forSymbolModel)).lineThickness < thickness).toBe(thinner);
      expect(prepared.forSymbolModel === prepared.gray).toBe(!thinner);
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

  /** The staff page with barlines and stems leaning by `shear` (dx per dy), as a photo taken at an angle shows them. */
  function leaningPage(shear: number) {
    const { page, tops } = staffPage(14, 2);
    for (const top of tops) {
      for (let x = 150; x < 1100; x += 45) {
        // Barlines through the staff every few strokes, stems of three and a half spaces between them.
        const [y0, y1] = x % 180 === 150 % 180 ? [top, top + 56] : [top + 10, top + 59];
        for (let y = y0; y <= y1; y++) fillRect(page, Math.round(x + shear * (y - 800)), y, 2, 1);
      }
    }
    return page;
  }

  it('measures the lean of upright strokes, and finds none on an upright page', () => {
    for (const shear of [-0.18, 0.07, 0.2]) {
      const ink = binarize(leaningPage(shear));
      expect(Math.abs(estimateShear(ink, 0, 2, 14) - shear)).toBeLessThan(0.01);
    }
    expect(Math.abs(estimateShear(binarize(leaningPage(0)), 0, 2, 14))).toBeLessThan(0.005);
  });

  it('shears a leaning page upright and keeps an upright one unsheared', () => {
    const leaning = preparePage(leaningPage(0.15));
    expect(leaning.transform.shear).toBeCloseTo(0.15, 1);
    expect(preparePage(leaningPage(0)).transform.shear).toBeUndefined();
    // The prepared page's first barline stands upright: ink in one column from the staff's top line to its bottom.
    const { tops } = staffPage(14, 2);
    const [x, top] = toPreparedPoint(leaning.transform, 150 + 0.15 * (tops[2]! - 800) + 1, tops[2]!);
    const [, bottom] = toPreparedPoint(leaning.transform, 150 + 0.15 * (tops[2]! + 56 - 800) + 1, tops[2]! + 56);
    let covered = 0;
    for (let y = Math.round(top); y <= Math.round(bottom); y++) covered += leaning.ink.data[y * leaning.ink.width + Math.round(x)]!;
    expect(covered / (Math.round(bottom) - Math.round(top) + 1)).toBeGreaterThan(0.9);
  });

  it('leaves a page on white paper as it is when flattening, and divides any other by its paper', () => {
    const { page } = staffPage(14, 2);
    expect(Buffer.from(flattenBackground(page).data).equals(Buffer.from(page.data))).toBe(true);
    // The same page on paper a shade darker comes out white again.
    const tinted = { ...page, data: page.data.map((v) => Math.round(v * 0.9)) };
    const flat = flattenBackground(tinted);
    expect(flat.data[5]).toBe(255);
    expect(flat.data.filter((v, i) => v !== page.data[i]).length / flat.data.length).toBeLessThan(0.05);
  });

  it('searches a page drawn from vectors within a degree of level, and a decoded one within fifteen', () => {
    const { page } = staffPage(14, 2);
    const turned = degradeScan(page, 6, { skew: { p: 1, maxDegrees: 3 }, blur: { p: 0 }, noise: { p: 0 }, speckle: { p: 0 }, jpeg: { p: 0 }, bleedThrough: { p: 0 }, binarise: { p: 0 }, contrast: { p: 0 } });
    const applied = turned.applied.find((e) => e.effect === 'skew')?.degrees as number;
    expect(Math.abs(applied)).toBeGreaterThan(2.2);
    const raster = { width: turned.width, height: turned.height, channels: 1 as const, data: turned.image.data };
    expect(Math.abs(preparePage(raster).transform.skew - applied)).toBeLessThan(0.1);
    // A degree, and the finer steps' reach beyond it.
    expect(Math.abs(preparePage({ ...raster, vector: true }).transform.skew)).toBeLessThanOrEqual(1.6);
  });

  it('calls the lines of a page drawn from vectors sharp, unless it must be enlarged to be read', () => {
    const large = staffPage(14, 2).page;
    const small = staffPage(7, 1).page;
    expect([preparePage({ ...large, vector: true }).sharp, preparePage(large).sharp]).toEqual([true, false]);
    expect(preparePage({ ...small, vector: true }).sharp).toBe(false);
  });

  it('does not shear a page drawn from vectors, whatever its strokes seem to say', () => {
    // Strokes that lean as a photo's would: measured on a decoded image, kept as drawn on a vector page.
    const page = leaningPage(0.15);
    expect(preparePage(page).transform.shear).toBeCloseTo(0.15, 1);
    expect(preparePage({ ...page, vector: true }).transform.shear).toBeUndefined();
  });

  it('maps points to the prepared page and back through skew, shear and scale', () => {
    const t: PageTransform = { sourceWidth: 1000, sourceHeight: 1400, scale: 1.3, skew: -6.5, shear: -0.18, width: 1300, height: 1820 };
    for (const [x, y] of [[0, 0], [500, 700], [999, 30], [123, 1399]] as const) {
      const [px, py] = toPreparedPoint(t, x, y);
      const [sx, sy] = toSourcePoint(t, px, py);
      expect(sx).toBeCloseTo(x, 6);
      expect(sy).toBeCloseTo(y, 6);
    }
  });
});
