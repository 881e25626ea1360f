import { describe, expect, it } from 'vitest';
import { attachArticulations } from '../../src/assembly/marks.js';
import type { Stroke } from '../../src/assembly/strokes.js';
import { markCandidates, readHairpins } from '../../src/symbols/marks.js';
import { readCurves } from '../../src/symbols/curves.js';
import { CLASS_INDEX } from '../../src/symbols/symbol-classes.js';
import { straightStaff } from '../support/straight-staff.js';
import { paintableMap, type PaintableMap } from '../support/class-map.js';

const SPACE = 12;
/** The class map is half the prepared page's resolution: a staff space is 6 map pixels. */
const W = 400;
const H = 200;

function classMap(): PaintableMap {
  return paintableMap(W, H);
}

/** Fills a box given in prepared pixels. */
function box(map: ReturnType<typeof classMap>, cls: number, x0: number, y0: number, x1: number, y1: number): void {
  for (let y = y0 / 2; y < y1 / 2; y++) for (let x = x0 / 2; x < x1 / 2; x++) map.paint(cls, x, y);
}

/** A straight line from (x0, y0) to (x1, y1) in prepared pixels, one map pixel thick. */
function line(map: ReturnType<typeof classMap>, cls: number, x0: number, y0: number, x1: number, y1: number): void {
  for (let x = x0 / 2; x <= x1 / 2; x++) map.paint(cls, x, (y0 + ((y1 - y0) * (x - x0 / 2)) / Math.max(1, (x1 - x0) / 2)) / 2);
}

const staves = [straightStaff(100, SPACE, 0, 800)];

describe('articulation and hairpin shapes', () => {
  it('take each small component of the articulation class as a candidate mark, centred on its box, and nothing larger than a mark', () => {
    const map = classMap();
    const A = CLASS_INDEX.articulation;
    box(map, A, 100, 80, 104, 84); // a dot, a third of a space
    line(map, A, 300, 76, 314, 80); // an accent: two strokes meeting at a point
    line(map, A, 300, 84, 314, 80);
    for (let x = 400; x <= 428; x += 2) map.paint(A, x / 2, (70 - 10 * Math.sin(((x - 400) / 28) * Math.PI)) / 2); // a fermata's arc
    box(map, A, 500, 60, 560, 64); // five spaces long: a line, not a mark
    box(map, A, 600, 40, 606, 80); // over three spaces tall: not one mark
    const found = markCandidates(map, staves, SPACE).sort((a, b) => a.x - b.x);
    expect(found.map((m) => Math.round(m.x / 10))).toEqual([10, 31, 42]);
    expect(found.every((m) => m.staff === 0 && m.x0 <= m.x && m.x <= m.x1 && m.y0 <= m.y && m.y <= m.y1)).toBe(true);
  });

  it('read a closed wedge and an open pair of lines as hairpins, and keep them out of the slurs', () => {
    const map = classMap();
    const S = CLASS_INDEX.tieSlur;
    // A crescendo painted as a slur: from a point at the left to a space and a half open at the right.
    line(map, S, 100, 170, 196, 161);
    line(map, S, 100, 170, 196, 179);
    // A diminuendo painted as dynamics whose tip the model left open.
    line(map, CLASS_INDEX.dynamics, 300, 158, 396, 166);
    line(map, CLASS_INDEX.dynamics, 300, 176, 396, 168);
    const hairpins = readHairpins(map, staves, SPACE).sort((a, b) => a.x0 - b.x0);
    expect(hairpins.map((h) => h.kind)).toEqual(['crescendo', 'diminuendo']);
    expect(readCurves(map, staves, SPACE)).toEqual([]);
  });

  it('put each articulation on the stroke whose heads it stands over or under', () => {
    const stroke = (x: number): Stroke => ({ kind: 'chord', staff: 0, heads: [{ x0: x - 7, x1: x + 7, y0: 120, y1: 132, x, y: 126, staff: 0, confidence: 1, kind: 'black', position: 4, small: false }], up: true, hooks: 0, beams: 0, grace: false, dots: 0, x, x0: x - 7, x1: x + 7, y0: 84, y1: 132, confidence: 1 });
    const [a, b] = [stroke(100), stroke(160)];
    const mark = (kind: 'staccato' | 'accent', x: number, y: number) => ({ kind, x0: x - 3, x1: x + 3, y0: y - 3, y1: y + 3, x, y, staff: 0, confidence: 1 });
    const found = attachArticulations([mark('staccato', 100, 140), mark('accent', 101, 150), mark('staccato', 130, 140)], [a, b], SPACE);
    expect(found.get(a)).toEqual(['staccato', 'accent']);
    expect(found.has(b)).toBe(false);
  });

  it('reach further for a bowing mark over the staff than for an articulation, and leave ornaments unwritten', () => {
    const stroke: Stroke = { kind: 'chord', staff: 0, heads: [{ x0: 93, x1: 107, y0: 150, y1: 162, x: 100, y: 156, staff: 0, confidence: 1, kind: 'black', position: 0, small: false }], up: false, hooks: 0, beams: 0, grace: false, dots: 0, x: 100, x0: 93, x1: 107, y0: 150, y1: 198, confidence: 1 };
    // Over the top line, four spaces above the head: too far for a staccato, not for an up-bow. A trill
    // the mark model names is not written (on the tuned pages every one it named was wrong).
    const far = (kind: 'staccato' | 'up-bow' | 'trill-mark') => ({ kind, x0: 96, x1: 104, y0: 94, y1: 100, x: 100, y: 97, staff: 0, confidence: 1 });
    expect(attachArticulations([far('staccato')], [stroke], SPACE).has(stroke)).toBe(false);
    expect(attachArticulations([far('up-bow'), far('trill-mark')], [stroke], SPACE).get(stroke)).toEqual(['up-bow']);
  });
});
