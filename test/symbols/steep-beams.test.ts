import { describe, expect, it } from 'vitest';
import { repaintSteepBeams } from '../../src/symbols/steep-beams.js';
import { CLASS_INDEX } from '../../src/symbols/symbol-classes.js';

const SPACE = 12; // prepared pixels; the class map is at half that resolution (6 pixels a space)

function blankMap(width = 200, height = 150) {
  return { width, height, data: new Uint8Array(width * height), confidence: new Uint8Array(width * height).fill(255) };
}
type ClassMap = ReturnType<typeof blankMap>;

/** Paints `cls` in every column from x0 to x1 between the rows `top(x)` and `top(x) + depth`. */
function paintBand(map: ClassMap, x0: number, x1: number, top: (x: number) => number, depth: (x: number) => number, cls: number) {
  for (let x = x0; x <= x1; x++) for (let y = Math.round(top(x)); y < Math.round(top(x) + depth(x)); y++) map.data[y * map.width + x] = cls;
}
function paintStem(map: ClassMap, x: number, y0: number, y1: number) {
  for (let y = y0; y <= y1; y++) map.data[y * map.width + x] = CLASS_INDEX.stem;
}
const count = (map: ClassMap, cls: number) => map.data.reduce((n, c) => n + (c === cls ? 1 : 0), 0);

describe('repaintSteepBeams', () => {
  it('repaints a straight, steep, beam-thick band called a slur, hung on a stem, as beam', () => {
    const map = blankMap();
    // Rising two map pixels per column over five spaces; half a space thick across, so 3·√5 rows down a column.
    paintBand(map, 50, 80, (x) => 120 - 0.8 * (x - 50), () => 3 * Math.hypot(1, 0.8), CLASS_INDEX.tieSlur);
    paintStem(map, 81, 96, 130);
    repaintSteepBeams(map, SPACE);
    expect(count(map, CLASS_INDEX.tieSlur)).toBe(0);
    expect(count(map, CLASS_INDEX.beam)).toBeGreaterThan(100);
  });

  it('repaints such a band whose edge a head crossing it has notched, as a falling double beam painted as whole notes', () => {
    const map = blankMap();
    // Two beams falling 0.8 map pixels a column over eight spaces, painted as whole noteheads. Where
    // they leave the first stem only a sliver of the lower beam is painted so (the rest given to the
    // stem's classes), and a head sits on the lower edge for a space near the far end, leaving only
    // the upper beam there.
    const secant = Math.hypot(1, 0.8);
    const top = (x: number) => 40 + 0.8 * (x - 40) + (x < 46 ? 5 * secant : 0);
    const depth = (x: number) => (x < 46 ? 2 : x >= 78 && x < 86 ? 3 : 7.5) * secant;
    paintBand(map, 40, 88, top, depth, CLASS_INDEX.noteheadWhole);
    paintStem(map, 39, 40, 80);
    repaintSteepBeams(map, SPACE);
    expect(count(map, CLASS_INDEX.noteheadWhole)).toBe(0);
  });

  it('makes a band painted mostly beam, partly slur and dynamics, all beam, and takes the head specks inside it, not the head beside it', () => {
    const map = blankMap();
    const secant = Math.hypot(1, 0.8);
    const top = (x: number) => 120 - 0.8 * (x - 50);
    paintBand(map, 50, 80, top, () => 3 * secant, CLASS_INDEX.beam);
    paintBand(map, 50, 60, top, () => 3 * secant, CLASS_INDEX.tieSlur);
    paintBand(map, 76, 80, top, () => 3 * secant, CLASS_INDEX.dynamics);
    // A speck called a head inside the band, and a head touching its upper edge.
    paintBand(map, 70, 71, (x) => top(x) + 1, () => 2, CLASS_INDEX.noteheadBlack);
    paintBand(map, 60, 65, (x) => top(x) - 6, () => 6, CLASS_INDEX.noteheadBlack);
    paintStem(map, 81, 96, 130);
    const head = count(map, CLASS_INDEX.noteheadBlack) - 4;
    repaintSteepBeams(map, SPACE);
    expect(count(map, CLASS_INDEX.tieSlur) + count(map, CLASS_INDEX.dynamics)).toBe(0);
    expect(map.data[Math.round(top(70) + 1) * map.width + 70]).toBe(CLASS_INDEX.beam);
    // The head keeps all but the sliver that reaches into the band (and a pixel over its edge).
    const kept = count(map, CLASS_INDEX.noteheadBlack);
    expect(kept).toBeGreaterThan(head * 0.7);
    expect(kept).toBeLessThan(head);
  });

  it('leaves a curved slur, a level band, a short band and a band on no stem as they are', () => {
    const cases: [string, (map: ClassMap) => void][] = [
      // A heavy slur climbing as steeply, but bowed by a space.
      ['arc', (map) => paintBand(map, 40, 100, (x) => 120 - 0.8 * (x - 40) - 6 * (1 - ((x - 70) / 30) ** 2), () => 3 * Math.hypot(1, 0.8), CLASS_INDEX.tieSlur)],
      // A tuplet bracket's span painted over paper beside a level beam.
      ['level', (map) => paintBand(map, 40, 100, () => 100, () => 3, CLASS_INDEX.tuplet)],
      // A tilted half head and its dot: two spaces and a half.
      ['short', (map) => paintBand(map, 40, 54, (x) => 100 - 0.5 * (x - 40), () => 5, CLASS_INDEX.noteheadHalf)],
    ];
    for (const [name, paint] of cases) {
      const map = blankMap();
      paint(map);
      paintStem(map, 39, 60, 130);
      const before = map.data.slice();
      repaintSteepBeams(map, SPACE);
      expect(map.data, name).toEqual(before);
    }
    const unhung = blankMap();
    paintBand(unhung, 50, 80, (x) => 120 - 0.8 * (x - 50), () => 3 * Math.hypot(1, 0.8), CLASS_INDEX.tieSlur);
    const before = unhung.data.slice();
    repaintSteepBeams(unhung, SPACE);
    expect(unhung.data).toEqual(before);
  });
});
