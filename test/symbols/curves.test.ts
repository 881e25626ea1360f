import { describe, expect, it } from 'vitest';
import { readCurves } from '../../src/symbols/curves.js';
import { CLASS_INDEX } from '../../src/symbols/symbol-classes.js';
import { straightStaff } from '../support/straight-staff.js';
import { paintableMap, type PaintableMap } from '../support/class-map.js';

const SPACE = 12;
/** The class map is half the prepared page's resolution: a staff space is 6 map pixels. */
const W = 500;
const H = 200;

function classMap(): PaintableMap {
  return paintableMap(W, H);
}

/**
 * An arc from x0 to x1 (prepared pixels) whose ends stand at `y` and whose middle rises `rise`
 * pixels (negative: sinks), two map pixels thick; columns in `skip` are left to another class.
 */
function arc(map: ReturnType<typeof classMap>, x0: number, x1: number, y: number, rise: number, skip: readonly number[] = [], cls: number = CLASS_INDEX.tieSlur): void {
  for (let x = x0 / 2; x <= x1 / 2; x++) {
    const t = (x - x0 / 2) / ((x1 - x0) / 2);
    const row = (y - 4 * rise * t * (1 - t)) / 2;
    const paintAs = skip.includes(x * 2) ? CLASS_INDEX.stem : cls;
    map.paint(paintAs, x, row);
    map.paint(paintAs, x, row + 1);
  }
}

const staves = [straightStaff(100, SPACE, 0, 1000)];

describe('curves', () => {
  it('read a flat piece along a staff line as that line, and a flat tie in a space as a curve', () => {
    const map = classMap();
    // A stretch of the middle line (y 124, map rows 61 and 62) painted as a slur, as where a scan blurs it.
    for (let x = 200; x <= 260; x += 2) for (const row of [61, 62]) map.paint(CLASS_INDEX.tieSlur, x / 2, row);
    // A tie as flat, in the space under that line (y 130).
    arc(map, 300, 360, 130, 1);
    const curves = readCurves(map, staves, SPACE);
    expect(curves.map((c) => c.x0)).toEqual([300]);
  });

  it('read two ties in a row, over the note they share, as two curves', () => {
    const map = classMap();
    // Tied whole notes at x 200, 300 and 400: each tie rises from one head and comes down onto the next.
    arc(map, 204, 298, 110, 8);
    arc(map, 302, 396, 110, 8);
    const curves = readCurves(map, staves, SPACE).sort((a, b) => a.x0 - b.x0);
    expect(curves).toHaveLength(2);
    expect(curves[0]!.x1).toBeLessThanOrEqual(302);
    expect(curves[1]!.x0).toBeGreaterThanOrEqual(298);
  });

  it('read two long ties in a row as two curves where the second leaves the head they share flat, and as one curve with no head there', () => {
    const tiedAt = (head: boolean) => {
      const map = classMap();
      // The first tie comes down onto the head at x 300; the second leaves it almost level for a space and a half, then rises.
      arc(map, 100, 298, 110, 10);
      for (let x = 302; x < 320; x += 2) {
        const row = x < 314 ? 56 : 55;
        map.paint(CLASS_INDEX.tieSlur, x / 2, row);
        map.paint(CLASS_INDEX.tieSlur, x / 2, row + 1);
      }
      arc(map, 320, 498, 110, 10);
      if (head) for (let x = 294; x <= 306; x += 2) for (let y = 116; y <= 126; y += 2) map.paint(CLASS_INDEX.noteheadHalf, x / 2, y / 2);
      return readCurves(map, staves, SPACE).sort((a, b) => a.x0 - b.x0);
    };
    const [first, second, ...others] = tiedAt(true);
    expect(others).toHaveLength(0);
    expect(first!.x1).toBeLessThanOrEqual(302);
    expect(second!.x0).toBeGreaterThanOrEqual(298);
    expect(tiedAt(false)).toHaveLength(1);
  });

  it('read a slur into a tie at the note where one ends and the other starts as two curves', () => {
    const map = classMap();
    arc(map, 100, 298, 110, 20);
    arc(map, 302, 380, 110, 6);
    expect(readCurves(map, staves, SPACE)).toHaveLength(2);
  });

  it('read a slur under the notes that ends where a tie under them starts as two curves', () => {
    const map = classMap();
    arc(map, 100, 296, 120, -20);
    arc(map, 304, 360, 110, -8);
    expect(readCurves(map, staves, SPACE)).toHaveLength(2);
  });

  it('read a tie that touches the slur over it at its apex as its own curve, and the slur whole', () => {
    const map = classMap();
    // A slur over four notes from x 100 to 400; under its middle, a tie from 220 to 280 rises to touch it.
    arc(map, 100, 400, 110, 24);
    arc(map, 220, 280, 104, 14);
    const curves = readCurves(map, staves, SPACE).sort((a, b) => a.x1 - a.x0 - (b.x1 - b.x0));
    expect(curves).toHaveLength(2);
    const [tie, slur] = curves;
    expect([tie!.x0, tie!.x1]).toEqual([220, 282]);
    expect([slur!.x0, slur!.x1]).toEqual([100, 402]);
    expect([tie!.over, slur!.over]).toEqual([true, true]);
  });

  it('read a tie and a slur that start from one note, sharing their first stretch of ink, as two curves from that note', () => {
    const map = classMap();
    arc(map, 200, 400, 110, 24);
    arc(map, 200, 260, 110, 8);
    const curves = readCurves(map, staves, SPACE).sort((a, b) => a.x1 - b.x1);
    expect(curves.map((c) => [c.x0, c.x1])).toEqual([
      [200, 262],
      [200, 402],
    ]);
  });

  it('cut one painted stroke where a slur under the notes runs into a tie at the note they share', () => {
    const map = classMap();
    arc(map, 100, 200, 120, -14);
    arc(map, 200, 320, 120, -16);
    const curves = readCurves(map, staves, SPACE).sort((a, b) => a.x0 - b.x0);
    expect(curves.map((c) => [c.x0, c.x1, c.over])).toEqual([
      [100, 202, false],
      [200, 322, false],
    ]);
  });

  it('read one thick arc with a ragged edge as one curve', () => {
    const map = classMap();
    arc(map, 100, 300, 110, 16);
    // A speck of the same class two rows under the arc for a few columns: its edge, not a second strand.
    for (let x = 100; x < 104; x++) map.paint(CLASS_INDEX.tieSlur, x, 58);
    expect(readCurves(map, staves, SPACE)).toHaveLength(1);
  });

  it('join a short, high slur that a stem cuts at its highest point', () => {
    const map = classMap();
    arc(map, 100, 172, 120, 24, [136, 138]);
    expect(readCurves(map, staves, SPACE)).toHaveLength(1);
  });

  it('read a long tie whose flat middle the model painted as text as one curve, and a thin text line alone as none', () => {
    const map = classMap();
    // Ends painted as a tie, the middle (x 140 to 300) as text.
    arc(map, 100, 340, 170, -12);
    for (let x = 140; x <= 300; x += 2) {
      const t = (x - 100) / 240;
      const row = (170 + 48 * t * (1 - t)) / 2;
      map.paint(CLASS_INDEX.text, x / 2, row);
      map.paint(CLASS_INDEX.text, x / 2, row + 1);
    }
    // A lyric's extender line: thin text with no curve beside it.
    for (let x = 500; x <= 600; x += 2) map.paint(CLASS_INDEX.text, x / 2, 95);
    const curves = readCurves(map, staves, SPACE);
    expect(curves).toHaveLength(1);
    expect(curves[0]!.x0).toBeLessThanOrEqual(102);
    expect(curves[0]!.x1).toBeGreaterThanOrEqual(338);
  });

  it('join the pieces of one slur that stems cut, even where one cuts it at its highest point', () => {
    const map = classMap();
    // Stems cross the slur at a quarter of its length and at its middle.
    arc(map, 100, 400, 110, 24, [174, 176, 250, 252]);
    const curves = readCurves(map, staves, SPACE);
    expect(curves).toHaveLength(1);
    expect(curves[0]!.x0).toBeLessThanOrEqual(102);
    expect(curves[0]!.x1).toBeGreaterThanOrEqual(398);
  });
});
