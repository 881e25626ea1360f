import { describe, expect, it } from 'vitest';
import { attachArticulations } from '../../src/assembly/marks.js';
import type { Stroke } from '../../src/assembly/strokes.js';
import { hairpinStaff, markCandidates, readHairpins } from '../../src/symbols/marks.js';
import type { BinaryImage } from '../../src/preparation/binarize.js';
import { readSymbols } from '../../src/symbols/read-symbols.js';
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

/** A blank page of ink at the prepared resolution (twice the class map's). */
function blankInk(): BinaryImage {
  return { width: W * 2, height: H * 2, data: new Uint8Array(W * H * 4) };
}

/** A straight stroke of ink from (x0, y0) to (x1, y1), `thickness` prepared pixels thick. */
function inkLine(ink: BinaryImage, x0: number, y0: number, x1: number, y1: number, thickness = 2): void {
  for (let x = x0; x <= x1; x++) {
    const y = Math.round(y0 + ((y1 - y0) * (x - x0)) / Math.max(1, x1 - x0));
    for (let t = 0; t < thickness; t++) ink.data[(y + t) * ink.width + x] = 1;
  }
}

/** A box of ink, in prepared pixels. */
function inkBox(ink: BinaryImage, x0: number, y0: number, x1: number, y1: number): void {
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) ink.data[y * ink.width + x] = 1;
}

/** A stroke, stem down, its head in the top space (the stem reaches down to 198). */
const downStroke: Stroke = { kind: 'chord', staff: 0, heads: [{ x0: 93, x1: 107, y0: 150, y1: 162, x: 100, y: 156, staff: 0, confidence: 1, kind: 'black', position: 0, small: false }], up: false, hooks: 0, beams: 0, grace: false, dots: 0, x: 100, x0: 93, x1: 107, y0: 150, y1: 198, confidence: 1 };
/** A stroke, stem up, its head at 126. */
const upStroke: Stroke = { ...downStroke, heads: [{ ...downStroke.heads[0]!, y0: 120, y1: 132, y: 126, position: 4 }], up: true, y0: 84, y1: 132 };

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

  it('take small components painted as dynamics as lettering candidates, where a "tr" in a text font is painted; not words', () => {
    const map = classMap();
    box(map, CLASS_INDEX.articulation, 100, 80, 104, 84); // a staccato
    box(map, CLASS_INDEX.text, 200, 60, 206, 72); // a "t", painted as text
    box(map, CLASS_INDEX.dynamics, 208, 64, 216, 72); // an "r" in bold, painted as dynamics
    box(map, CLASS_INDEX.text, 300, 200, 330, 212); // a word under the staff
    box(map, CLASS_INDEX.dynamics, 400, 200, 460, 212); // five spaces of dynamics: not a mark
    const found = markCandidates(map, staves, SPACE).sort((a, b) => a.x - b.x);
    expect(found.map((m) => [Math.round(m.x), m.lettering ?? false])).toEqual([
      [102, false],
      [212, true],
    ]);
  });

  it('take a lone mark-sized component painted as text as a bowing candidate, but no letter of a word, no word, and nothing on a slur', () => {
    const map = classMap();
    box(map, CLASS_INDEX.text, 100, 60, 116, 72); // a down-bow over the staff, painted as text
    for (const x of [200, 210, 220, 230]) box(map, CLASS_INDEX.text, x, 200, x + 8, 210); // "arco": letters side by side
    box(map, CLASS_INDEX.text, 300, 200, 330, 212); // a word painted as one piece, two and a half spaces wide
    line(map, CLASS_INDEX.tieSlur, 380, 60, 440, 50); // a slur …
    box(map, CLASS_INDEX.text, 440, 44, 452, 54); // … whose end is painted as text
    const found = markCandidates(map, staves, SPACE);
    expect(found.map((m) => [Math.round(m.x), Math.round(m.y), m.lettered ?? false])).toEqual([[108, 66, true]]);
  });

  it('tell a candidate touching ink painted as a slur (a slur\'s end, painted alone as a mark) from one clear of it', () => {
    const map = classMap();
    line(map, CLASS_INDEX.tieSlur, 100, 60, 160, 50); // a slur …
    box(map, CLASS_INDEX.articulation, 160, 46, 168, 52); // … whose end is painted as a mark
    box(map, CLASS_INDEX.articulation, 300, 46, 312, 54); // a trill, clear of it
    const found = markCandidates(map, staves, SPACE).sort((a, b) => a.x - b.x);
    expect(found.map((m) => m.onSlur ?? false)).toEqual([true, false]);
  });

  it("read a candidate touching a slur from the island (a mark of any kind) or the solid core (a dot on the slur) of ink in its paint, and drop it where the ink is the slur's own end", () => {
    const map = classMap();
    const ink = blankInk();
    line(map, CLASS_INDEX.tieSlur, 100, 60, 160, 50); // a slur whose end is painted as a mark: its ink runs on into the slur
    box(map, CLASS_INDEX.articulation, 160, 46, 168, 52);
    inkLine(ink, 100, 60, 168, 48);
    line(map, CLASS_INDEX.tieSlur, 300, 60, 360, 50); // another slur, with a staccato dot beside its end, painted with it
    box(map, CLASS_INDEX.articulation, 360, 44, 376, 52);
    inkLine(ink, 300, 60, 362, 50);
    inkBox(ink, 370, 44, 374, 48);
    line(map, CLASS_INDEX.tieSlur, 500, 60, 560, 50); // a third, with a dot on its end that a speck joins to it
    box(map, CLASS_INDEX.articulation, 560, 42, 576, 52);
    inkLine(ink, 500, 60, 562, 50);
    inkBox(ink, 566, 42, 572, 48);
    inkLine(ink, 562, 49, 566, 46, 1);
    const found = markCandidates(map, staves, SPACE, ink).sort((a, b) => a.x - b.x);
    // The island is clear of the slur's ink, any mark; the core is inside the dot (566–572, 42–48), joined to the slur.
    expect(found.map((m) => [m.x, m.y, m.onSlur])).toEqual([[372, 46, undefined], [568, 46, true]]);
    // Without the ink to look at, both stay candidates.
    expect(markCandidates(map, staves, SPACE)).toHaveLength(3);
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
    const mark = (kind: 'staccato' | 'accent', x: number, y: number) => ({ kind, x0: x - 3, x1: x + 3, y0: y - 3, y1: y + 3, x, y, staff: 0, confidence: 1, probability: 1 });
    const found = attachArticulations([mark('staccato', 100, 140), mark('accent', 101, 150), mark('staccato', 130, 140)], [a, b], SPACE);
    expect(found.get(a)).toEqual(['staccato', 'accent']);
    expect(found.has(b)).toBe(false);
  });

  it('reach further for a bowing mark or a trill over the staff than for an articulation', () => {
    // Over the top line, four spaces above the head: too far for a staccato, not for an up-bow or a trill.
    const far = (kind: 'staccato' | 'up-bow' | 'trill-mark') => ({ kind, x0: 96, x1: 104, y0: 94, y1: 100, x: 100, y: 97, staff: 0, confidence: 1, probability: 1 });
    expect(attachArticulations([far('staccato')], [downStroke], SPACE).has(downStroke)).toBe(false);
    expect(attachArticulations([far('up-bow'), far('trill-mark')], [downStroke], SPACE).get(downStroke)).toEqual(['up-bow', 'trill-mark']);
  });

  it("give a trill between two staves to the note of the staff under it, nearer the staff over it though it stands", () => {
    // Staff 0's down-stroke (head at 156, stem to 198); staff 1's up-stroke 140 lower (stem from 224 to its head at 266).
    const lower: Stroke = { ...upStroke, staff: 1, heads: [{ ...upStroke.heads[0]!, staff: 1, y0: 260, y1: 272, y: 266 }], y0: 224, y1: 272 };
    const between = (kind: 'staccato' | 'trill-mark') => ({ kind, x0: 94, x1: 106, y0: 204, y1: 214, x: 100, y: 209, staff: 0, confidence: 1, probability: 1 });
    const trill = attachArticulations([between('trill-mark')], [downStroke, lower], SPACE);
    expect([trill.get(lower), trill.has(downStroke)]).toEqual([['trill-mark'], false]);
    // An articulation there is its own staff's note's, under it.
    const staccato = attachArticulations([between('staccato')], [downStroke, lower], SPACE);
    expect([staccato.get(downStroke), staccato.has(lower)]).toEqual([['staccato'], false]);
  });

  it('write an ornament the mark model is sure of, and leave out one it is not', () => {
    const trill = (probability: number) => ({ kind: 'trill-mark' as const, x0: 94, x1: 106, y0: 92, y1: 102, x: 100, y: 97, staff: 0, confidence: probability, probability });
    expect(attachArticulations([trill(0.99)], [downStroke], SPACE).get(downStroke)).toEqual(['trill-mark']);
    expect(attachArticulations([trill(0.6)], [downStroke], SPACE).has(downStroke)).toBe(false);
    // A staccato as unsure is kept: the floor is the ornaments' own.
    expect(attachArticulations([{ ...trill(0.6), kind: 'staccato', y0: 138, y1: 144, y: 141 }], [upStroke], SPACE).get(upStroke)).toEqual(['staccato']);
  });

  it('read a hairpin from the ink, whatever classes the model paints its pieces as, staff line and paper among them', () => {
    const map = classMap();
    const ink = blankInk();
    // A crescendo under the staff, eight spaces long, a space and a half open at its right end.
    inkLine(ink, 200, 180, 296, 171);
    inkLine(ink, 200, 180, 296, 189);
    // The model calls its first third text, its middle staff line, and leaves its last third as paper.
    line(map, CLASS_INDEX.text, 200, 180, 232, 177);
    line(map, CLASS_INDEX.text, 200, 180, 232, 183);
    line(map, CLASS_INDEX.staffLine, 232, 177, 264, 174);
    line(map, CLASS_INDEX.staffLine, 232, 183, 264, 186);
    const hairpins = readHairpins(map, staves, SPACE, ink);
    expect(hairpins.map((h) => [h.kind, h.staff, Math.round(h.x0 / 10), Math.round(h.x1 / 10)])).toEqual([['crescendo', 0, 20, 30]]);
    // Inside a staff's band no hairpin is read: there the lines are the staff's.
    const inStaff = blankInk();
    inkLine(inStaff, 200, 118, 296, 112);
    inkLine(inStaff, 200, 118, 296, 124);
    expect(readHairpins(map, staves, SPACE, inStaff).filter((h) => h.y0 < 150)).toEqual([]);
  });

  it('read a hairpin whose line the model paints as a ledger line in part, where no notehead stands by it', () => {
    const paintedAsLedger = (head: boolean) => {
      const map = classMap();
      const ink = blankInk();
      // A diminuendo under the staff, eight spaces long, a space and a half open at its left end; the model
      // calls the first half of its upper line a ledger line.
      inkLine(ink, 200, 171, 296, 180);
      inkLine(ink, 200, 189, 296, 180);
      line(map, CLASS_INDEX.ledgerLine, 200, 171, 248, 175);
      if (head) box(map, CLASS_INDEX.noteheadBlack, 220, 160, 232, 168);
      return readHairpins(map, staves, SPACE, ink).map((h) => [h.kind, Math.round(h.x0 / 10), Math.round(h.x1 / 10)]);
    };
    expect(paintedAsLedger(false)).toEqual([['diminuendo', 20, 30]]);
    // Beside a head, a ledger line is one: the ink left is no hairpin.
    expect(paintedAsLedger(true)).toEqual([]);
  });

  it('follow a hairpin across a barline that cuts it, to where its lines end, but not past a barline where it ends', () => {
    const map = classMap();
    const ink = blankInk();
    // A crescendo under the staff from x 200 to 340, a space and a half open at its end, crossed at x 300
    // by a barline (ink and class map) that cuts its lines: past it, they run on for 40 px.
    inkLine(ink, 200, 180, 340, 170);
    inkLine(ink, 200, 180, 340, 190);
    inkBox(ink, 300, 90, 303, 240);
    box(map, CLASS_INDEX.barline, 300, 90, 304, 240);
    // A diminuendo further on, ending at a barline at x 602.
    inkLine(ink, 420, 171, 598, 180);
    inkLine(ink, 420, 189, 598, 180);
    inkBox(ink, 602, 90, 605, 240);
    box(map, CLASS_INDEX.barline, 602, 90, 606, 240);
    const hairpins = readHairpins(map, staves, SPACE, ink).sort((a, b) => a.x0 - b.x0);
    expect(hairpins.map((h) => [h.kind, Math.round(h.x0 / 10), Math.round(h.x1 / 10)])).toEqual([
      ['crescendo', 20, 34],
      ['diminuendo', 42, 60],
    ]);
  });

  it('follow a long crescendo back across the barline that cuts it short of its point, and read it once', () => {
    // A wide page: a crescendo over two long measures, from x 40 to 1960, two spaces open, crossed at x 700 by a
    // barline. The part before it is 55 spaces long and under 0.7 spaces open at the barline; the part after it
    // looks like a whole hairpin, its point unseen.
    const wide = { width: 2000, height: 400, data: new Uint8Array(2000 * 400) };
    const map = paintableMap(1000, 200);
    inkLine(wide, 40, 180, 1960, 168);
    inkLine(wide, 40, 180, 1960, 192);
    inkBox(wide, 700, 90, 703, 240);
    box(map, CLASS_INDEX.barline, 700, 90, 704, 240);
    const long = [straightStaff(100, SPACE, 0, 2000)];
    expect(readHairpins(map, long, SPACE, wide).map((h) => [h.kind, Math.round(h.x0 / 40), Math.round(h.x1 / 40)])).toEqual([['crescendo', 1, 49]]);
    // Where the part before the barline is open enough to read alone, it is a piece of the same hairpin.
    const map2 = classMap();
    const ink = blankInk();
    inkLine(ink, 40, 180, 780, 171);
    inkLine(ink, 40, 180, 780, 189);
    inkBox(ink, 440, 90, 443, 240);
    box(map2, CLASS_INDEX.barline, 440, 90, 444, 240);
    expect(readHairpins(map2, staves, SPACE, ink).map((h) => [h.kind, Math.round(h.x0 / 20), Math.round(h.x1 / 20)])).toEqual([['crescendo', 2, 39]]);
  });

  it('read no hairpin in a word and its extender line, nor in the end of a beam the staff cuts off', () => {
    const map = classMap();
    const ink = blankInk();
    // "so" (a space tall, a space and a half wide) and its extender along the baseline, five spaces long:
    // the model paints it all as a slur at times.
    inkBox(ink, 200, 168, 202, 180);
    inkBox(ink, 200, 168, 210, 170);
    inkBox(ink, 208, 168, 210, 180);
    inkBox(ink, 212, 168, 220, 170);
    inkBox(ink, 212, 168, 214, 180);
    inkBox(ink, 218, 168, 220, 180);
    inkLine(ink, 200, 178, 280, 178);
    box(map, CLASS_INDEX.tieSlur, 200, 168, 220, 180);
    line(map, CLASS_INDEX.tieSlur, 200, 178, 280, 178);
    // A beam rising from inside the staff to two spaces over it: six spaces long, half a space thick.
    for (let x = 400; x <= 472; x++) inkBox(ink, x, Math.round(110 - (x - 400) / 3), x + 1, Math.round(116 - (x - 400) / 3));
    expect(readHairpins(map, staves, SPACE, ink)).toEqual([]);
    // Read from the class map alone, without the ink, the word is no hairpin either.
    expect(readHairpins(map, staves, SPACE)).toEqual([]);
  });

  it('give a hairpin between two staves to the upper one, unless it hugs the lower one’s top line', () => {
    const two = [straightStaff(100, SPACE, 0, 800), straightStaff(220, SPACE, 0, 800)];
    // The gap runs from 148 to 220: a hairpin two thirds of the way down is still the upper staff's.
    expect(hairpinStaff(two, 400, 196, SPACE)).toBe(0);
    // One a space over the lower staff's top line is drawn above that staff.
    expect(hairpinStaff(two, 400, 208, SPACE)).toBe(1);
    // Over the top staff: that staff's.
    expect(hairpinStaff(two, 400, 80, SPACE)).toBe(0);
    // Two staves ten spaces apart (a piano's hands): three spaces over the left hand, the right hand's
    // still; in the last quarter of a wider gap (between systems), the lower staff's.
    const wide = [straightStaff(100, SPACE, 0, 800), straightStaff(268, SPACE, 0, 800)];
    expect(hairpinStaff(wide, 400, 232, SPACE)).toBe(0);
    const systems = [straightStaff(100, SPACE, 0, 800), straightStaff(340, SPACE, 0, 800)];
    expect(hairpinStaff(systems, 400, 310, SPACE)).toBe(1);
  });

  it('read a hairpin the model painted as a slur and as text as a hairpin, and as no slur', () => {
    const map = classMap();
    const ink = blankInk();
    inkLine(ink, 200, 189, 296, 180);
    inkLine(ink, 200, 171, 296, 180);
    line(map, CLASS_INDEX.tieSlur, 200, 189, 250, 184);
    line(map, CLASS_INDEX.text, 250, 184, 296, 180);
    line(map, CLASS_INDEX.tieSlur, 200, 171, 250, 176);
    line(map, CLASS_INDEX.text, 250, 176, 296, 180);
    const { hairpins, curves } = readSymbols(map, staves, SPACE, ink);
    expect(hairpins.map((h) => h.kind)).toEqual(['diminuendo']);
    expect(curves).toEqual([]);
  });
});
