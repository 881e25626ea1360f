/**
 * Pages that come turned: a quarter either way or upside down, each is
 * turned upright before it is read, and a page the right way up is never
 * turned. The committed melody page (engraved by MuseScore 3) is turned
 * here by each amount.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodePng } from '../../src/input/png.js';
import { orientRaster } from '../../src/input/orientation.js';
import { resizeArea } from '../../src/image/raster.js';
import { staffLineY } from '../../src/staves/detect-staves.js';
import { uprightPage, upsideDown } from '../../src/staves/upright.js';
import { CANONICAL_STAFF_SPACE } from '../../src/preparation/prepare-page.js';

const page = decodePng(new Uint8Array(readFileSync(join(import.meta.dirname, '../fixtures/recognition/melody-300dpi.png'))));
/** Exif orientations that turn a raster clockwise by each amount. */
const CLOCKWISE = { 90: 6, 180: 3, 270: 8 } as const;

describe('uprightPage', () => {
  const upright = uprightPage(page);
  const lineTops = (p: typeof upright) => p.staves.map((s) => Math.round(staffLineY(s, 0, (s.x0 + s.x1) / 2) / CANONICAL_STAFF_SPACE));

  it('leaves a page that came upright as it is', () => {
    expect(upright.turned).toBe(0);
    expect(upright.staves.length).toBeGreaterThanOrEqual(1);
    expect(upright.tinyStaffSpace).toBeUndefined();
    expect(upsideDown(upright.prepared.ink, upright.staves, CANONICAL_STAFF_SPACE)).toBe(false);
  });

  it.each([90, 180, 270] as const)('turns a page that came turned %i° clockwise back upright, to the same staves', { timeout: 60_000 }, (turn) => {
    const read = uprightPage(orientRaster(page, CLOCKWISE[turn]));
    expect(read.turned).toBe((360 - turn) % 360);
    expect(read.prepared.gray.width).toBe(upright.prepared.gray.width);
    expect(lineTops(read)).toEqual(lineTops(upright));
  });

  it.each([6, 7])('finds the staves of a page reduced %i times, its staff space under 4 px (a page photographed from afar)', (times) => {
    // The run-length and profile estimates of the staff size see nothing under 5 px; the page's rows still repeat with its space.
    const small = uprightPage(resizeArea(page, Math.round(page.width / times), Math.round(page.height / times)));
    expect(small.turned).toBe(0);
    expect(small.staves.length).toBe(upright.staves.length);
    expect(small.prepared.source.staffSpace).toBeLessThan(4);
    expect(small.tinyStaffSpace).toBe(small.prepared.source.staffSpace);
  });

  it('tells a page upside down by where its staves hold their clefs', () => {
    const turned = uprightPage(orientRaster(page, CLOCKWISE[180]));
    // Read again without turning: the staves are found, and they are upside down.
    const prepared = turned.prepared;
    expect(upsideDown(prepared.ink, turned.staves, CANONICAL_STAFF_SPACE)).toBe(false);
    const ink = { ...prepared.ink, data: prepared.ink.data.slice().reverse() };
    const staves = turned.staves.map((s) => ({
      ...s,
      x0: ink.width - 1 - s.x1,
      x1: ink.width - 1 - s.x0,
      xs: s.xs.map((x) => ink.width - 1 - x).reverse(),
      lines: s.lines.map((_, l) => s.lines[4 - l]!.map((y) => ink.height - 1 - y).reverse()),
    }));
    expect(upsideDown(ink, staves, CANONICAL_STAFF_SPACE)).toBe(true);
  });
});
