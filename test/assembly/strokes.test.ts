import { describe, expect, it } from 'vitest';
import { buildStrokes, type Stroke } from '../../src/assembly/strokes.js';
import type { SymbolsSeen } from '../../src/reading/page-reading.js';
import type { Head, Stem } from '../../src/symbols/read-symbols.js';
import type { ClassMap } from '../../src/symbols/segment.js';
import { CLASS_INDEX } from '../../src/symbols/symbol-classes.js';
import { sightOf } from '../support/page-sight.js';

const SPACE = 12;

function symbols(heads: Head[], stems: Stem[]): SymbolsSeen {
  return { heads, stems, flags: [], rests: [], dots: [], accidentals: [], clefs: [], time: [], barlines: [], tuplets: [], repeatDots: [], curves: [], articulations: [], hairpins: [], voltas: [], graceSlashes: [], octaveLines: [], braces: [] };
}

/** Strokes of the symbols over a class map (blank: no beams anywhere). */
function strokes(seen: SymbolsSeen, map?: ClassMap) {
  return buildStrokes(seen, sightOf({ map, space: SPACE }), SPACE);
}

const head = (x: number, y: number, position: number): Head => ({ x0: x - 7, x1: x + 7, y0: y - 6, y1: y + 6, x, y, staff: 0, confidence: 1, kind: 'black', position, small: false });
const stem = (x: number, y0: number, y1: number): Stem => ({ x, x0: x - 1, x1: x + 1, y0, y1, staff: 0, confidence: 1 });
const chords = (items: ReturnType<typeof buildStrokes>) => items.filter((i): i is Stroke => i.kind === 'chord').sort((a, b) => Number(a.up) - Number(b.up));

describe('buildStrokes', () => {
  it("gives a lone grace note whose stem went unseen the flags hanging over its head", () => {
    const grace = { ...head(100, 130, 2), small: true };
    const flag = (count: number, y0: number) => ({ x0: 106, x1: 114, y0, y1: y0 + 18, staff: 0, confidence: 1, count });
    const [item] = chords(strokes({ ...symbols([grace], []), flags: [flag(2, 100)] }));
    expect([item!.grace, item!.hooks]).toEqual([true, 2]);
    // A flag far over it (another note's), or any flag by a full-size head, is not its own.
    expect(chords(strokes({ ...symbols([grace], []), flags: [flag(2, 60)] }))[0]!.hooks).toBe(0);
    expect(chords(strokes({ ...symbols([head(100, 130, 2)], []), flags: [flag(2, 100)] }))[0]!.hooks).toBe(0);
  });

  it('reads a lone small head with a slash over it, its stem seen or not, as an acciaccatura: an eighth, stem up', () => {
    const grace = { ...head(100, 130, 2), small: true };
    const slash = { x: 106, y: 116, x0: 96, y0: 112, x1: 107, y1: 120, staff: 0, confidence: 1 };
    for (const stems of [[stem(107, 100, 130)], []]) {
      const [item] = chords(strokes({ ...symbols([grace], stems), graceSlashes: [slash] }));
      expect([item!.grace, item!.slash, item!.up, item!.hooks]).toEqual([true, true, true, 1]);
    }
    // Without the slash, or on a full-size head, no acciaccatura.
    expect(chords(strokes(symbols([grace], [stem(107, 100, 130)])))[0]!.slash).toBeUndefined();
    expect(chords(strokes({ ...symbols([head(100, 130, 2)], [stem(107, 100, 130)]), graceSlashes: [slash] }))[0]!.slash).toBeUndefined();
  });

  it('joins a down-stem to its head over the staff though a ledger line took the stem’s first pixels', () => {
    // Head box y 94–106 (centre 100); the stem begins 9 px (0.75 spaces) below the centre, 3 px past the box.
    const h = head(100, 100, -7);
    const [item] = chords(strokes(symbols([h], [stem(94, 109, 150)])));
    expect([item!.stem !== undefined, item!.up]).toEqual([true, false]);
    // A stem starting a whole space past the head's edge is another note's.
    expect(chords(strokes(symbols([h], [stem(94, 118, 160)])))[0]!.stem).toBeUndefined();
  });

  it('gives a head with an up-stem on its right and a down-stem on its left to both voices', () => {
    const h = head(100, 130, 2);
    const items = chords(strokes(symbols([h], [stem(107, 88, 130), stem(93, 130, 172)])));
    expect(items).toHaveLength(2);
    expect(items.map((c) => [c.up, c.heads])).toEqual([[false, [h]], [true, [h]]]);
  });

  it('keeps a lower voice’s down-stem starting at its own head from taking the head a third above it', () => {
    const upper = head(100, 130, 2);
    const lower = head(100, 142, 4);
    const items = chords(strokes(symbols([upper, lower], [stem(107, 88, 130), stem(93, 142, 184)])));
    expect(items.map((c) => [c.up, c.heads])).toEqual([[false, [lower]], [true, [upper]]]);
  });

  it('counts one beam, not two, on a stem whose single beam climbs steeply past its tip', () => {
    // Class map at half resolution: a beam half a space thick rising 2 rows a column, through the tip
    // of the up-stem at x 100 (map column 50), y 88 (map row 44); down a column it is √5 times as deep.
    const width = 120;
    const map: ClassMap = { width, height: 100, data: new Uint8Array(width * 100), confidence: new Uint8Array(width * 100) };
    const depth = 3 * Math.hypot(1, 2);
    for (let x = 35; x <= 65; x++) for (let y = Math.round(44 - depth - 2 * (x - 50)); y < Math.round(44 - 2 * (x - 50)); y++) map.data[y * width + x] = CLASS_INDEX.beam;
    const [stroke] = chords(strokes(symbols([head(93, 130, 2)], [stem(100, 88, 130)]), map));
    expect(stroke).toMatchObject({ up: true, beams: 1 });
  });

  it('counts two beams on a blurred stack 1.6 spaces deep, and three on one 2 spaces deep', () => {
    // Level beams ending at an up-stem's tip (x 100, y 88): a stack of `rows` map rows (two pixels each).
    const beamsFor = (rows: number) => {
      const width = 120;
      const map: ClassMap = { width, height: 100, data: new Uint8Array(width * 100), confidence: new Uint8Array(width * 100) };
      for (let x = 35; x <= 65; x++) for (let y = 44 - rows; y < 44; y++) map.data[y * width + x] = CLASS_INDEX.beam;
      return chords(strokes(symbols([head(93, 130, 2)], [stem(100, 88, 130)]), map))[0]?.beams;
    };
    expect(beamsFor(4)).toBe(1); // 8 px: one beam
    expect(beamsFor(8)).toBe(2); // 16 px: two beams
    expect(beamsFor(10)).toBe(2); // 20 px, 1.67 spaces: two beams widened by blur
    expect(beamsFor(12)).toBe(3); // 24 px, 2 spaces: three beams
  });

  it('counts a stretch of beam the model painted as a brace as beam', () => {
    // One level beam at an up-stem's tip (x 100, y 88), most of it called braceBracket around the stem.
    const width = 120;
    const map: ClassMap = { width, height: 100, data: new Uint8Array(width * 100), confidence: new Uint8Array(width * 100) };
    for (let x = 35; x <= 65; x++) for (let y = 40; y < 44; y++) map.data[y * width + x] = y < 43 && x >= 40 && x <= 60 ? CLASS_INDEX.braceBracket : CLASS_INDEX.beam;
    const [stroke] = chords(strokes(symbols([head(93, 130, 2)], [stem(100, 88, 130)]), map));
    expect(stroke).toMatchObject({ up: true, beams: 1 });
  });

  it('leaves the dot after a unison’s second head to that head, not to the first', () => {
    // Two voices on one G, side by side: a half note (up-stem) and a dotted quarter (down-stem).
    const first = head(100, 130, 2);
    const second = head(114, 130, 2);
    const s = symbols([first, second], [stem(107, 88, 130), stem(108, 130, 172)]);
    s.dots = [{ x: 124, y: 128, x0: 122, x1: 126, y0: 126, y1: 130, staff: 0, confidence: 1 }];
    const items = chords(strokes(s));
    expect(items.map((c) => [c.up, c.heads[0]!.x, c.dots])).toEqual([[false, 114, 1], [true, 100, 0]]);
  });

  it('splits a quarter and a half in unison, read as one stem between them, into two voices’ notes', () => {
    // A quarter's head, then a half's at the same pitch, one stem seen between them (running down).
    const quarter = head(100, 130, 2);
    const half: Head = { ...head(114, 130, 2), kind: 'half' };
    const items = chords(strokes(symbols([quarter, half], [stem(107, 130, 172)])));
    expect(items.map((c) => [c.up, c.heads])).toEqual([[false, [half]], [true, [quarter]]]);
  });

  it('keeps a half head in a chord of black heads, at another pitch, in that chord', () => {
    // More likely a black head the model misread than a note of its own.
    const low = head(100, 142, 4);
    const high: Head = { ...head(100, 130, 2), kind: 'half' };
    const items = chords(strokes(symbols([low, high], [stem(107, 88, 142)])));
    expect(items).toHaveLength(1);
    expect(items[0]!.heads).toHaveLength(2);
  });

  it('gives black heads that show no stem the stem a beam below their left edge says they have', () => {
    // A chord (x 100, heads y 118–142) whose stem the class map lost; one level beam 2.5 spaces
    // below its lowest head, spanning the head's left edge (map columns 40–60, rows 86–88).
    const width = 120;
    const map: ClassMap = { width, height: 120, data: new Uint8Array(width * 120), confidence: new Uint8Array(width * 120) };
    for (let x = 40; x <= 60; x++) for (let y = 86; y < 89; y++) map.data[y * width + x] = CLASS_INDEX.beam;
    const heads = [head(100, 118, 0), head(100, 130, 2), head(100, 142, 4)];
    const [stroke] = chords(strokes(symbols(heads, []), map));
    expect(stroke).toMatchObject({ up: false, beams: 1, hooks: 1 });
    expect(stroke!.stem).toMatchObject({ y0: 118, y1: 178 });
    // Without the beam, or with half heads, no stem is made up.
    expect(chords(strokes(symbols(heads, [])))[0]).toMatchObject({ stem: undefined, hooks: 0 });
    const halves = heads.map((h): Head => ({ ...h, kind: 'half' }));
    expect(chords(strokes(symbols(halves, []), map))[0]).toMatchObject({ stem: undefined, hooks: 0 });
  });

  it('gives a piece of stem left among a chord’s heads, and the heads it took, to the chord’s stem', () => {
    // A down-stemmed chord (heads y 118–142, stem x 93 to y 184) and a sliver of stem on the heads'
    // right (x 107, y 112–136) that took the upper two heads; an octave above (y 70) on a stem of its
    // own keeps it.
    const heads = [head(100, 118, 0), head(100, 130, 2), head(100, 142, 4)];
    const octave = head(100, 70, -8);
    const items = chords(strokes(symbols([...heads, octave], [stem(107, 112, 136), stem(93, 142, 184), stem(107, 28, 70)])));
    expect(items.map((c) => c.heads.map((h) => h.position))).toEqual([[4, 2, 0], [-8]]);
    expect(items[0]!.stem!.x).toBe(93);
  });

  it('marks the strokes of a beam whose stems go down and up (a kneed beam), not two groups side by side', () => {
    // A down-stem (head y 100, tip y 150 at x 93) and an up-stem (head y 160, tip y 110 at x 147). With
    // a beam from tip to tip they are one kneed group; with a level beam at each tip and none between, not.
    const width = 120;
    const blank = (): ClassMap => ({ width, height: 120, data: new Uint8Array(width * 120), confidence: new Uint8Array(width * 120) });
    const read = (map: ClassMap) => chords(strokes(symbols([head(100, 100, 0), head(140, 160, 10)], [stem(93, 100, 150), stem(147, 110, 160)]), map));
    const kneed = blank();
    for (let x = 44; x <= 76; x++) for (let y = Math.round(75 - (x - 46) * (20 / 28)) - 2; y <= Math.round(75 - (x - 46) * (20 / 28)) + 1; y++) kneed.data[y * width + x] = CLASS_INDEX.beam;
    expect(read(kneed).map((s) => [s.up, s.beams > 0, s.kneed])).toEqual([[false, true, true], [true, true, true]]);
    const apart = blank();
    for (let x = 40; x <= 50; x++) for (let y = 74; y < 77; y++) apart.data[y * width + x] = CLASS_INDEX.beam;
    for (let x = 70; x <= 80; x++) for (let y = 53; y < 56; y++) apart.data[y * width + x] = CLASS_INDEX.beam;
    expect(read(apart).map((s) => [s.up, s.beams > 0, s.kneed ?? false])).toEqual([[false, true, false], [true, true, false]]);
  });

  it("joins two notes sixteen spaces apart that one beam joins (a beam over rests), and not two beams with a gap between", () => {
    const width = 170;
    const blank = (): ClassMap => ({ width, height: 120, data: new Uint8Array(width * 120), confidence: new Uint8Array(width * 120) });
    // Down-stems at x 100 and 292 (tips at y 150): the class map is at half resolution.
    const read = (map: ClassMap) => chords(strokes(symbols([head(107, 100, 0), head(299, 100, 0)], [stem(100, 100, 150), stem(292, 100, 150)]), map));
    const beam = (map: ClassMap, x0: number, x1: number) => {
      for (let x = x0; x <= x1; x++) for (let y = 73; y < 76; y++) map.data[y * width + x] = CLASS_INDEX.beam;
    };
    const one = blank();
    beam(one, 49, 147);
    const [a, b] = read(one);
    expect(a!.beamGroup).toBeDefined();
    expect(b!.beamGroup).toBe(a!.beamGroup);
    const two = blank();
    beam(two, 49, 80);
    beam(two, 116, 147);
    expect(read(two).map((s) => s.beamGroup)).toEqual([undefined, undefined]);
  });

  it('reads two half notes one beam joins as a two-note tremolo, and two black heads so joined as a beam group', () => {
    const width = 170;
    const map: ClassMap = { width, height: 120, data: new Uint8Array(width * 120), confidence: new Uint8Array(width * 120) };
    for (let x = 49; x <= 147; x++) for (let y = 73; y < 76; y++) map.data[y * width + x] = CLASS_INDEX.beam;
    const read = (kind: Head['kind']) => chords(strokes(symbols([{ ...head(107, 100, 0), kind }, { ...head(299, 100, 0), kind }], [stem(100, 100, 150), stem(292, 100, 150)]), map));
    expect(read('half').map((s) => [s.tremoloPair, s.tremolo, s.beamGroup])).toEqual([
      ['start', 1, undefined],
      ['stop', 1, undefined],
    ]);
    const [a, b] = read('black');
    expect([a!.tremoloPair, b!.tremoloPair, a!.beamGroup === b!.beamGroup, a!.beamGroup !== undefined]).toEqual([undefined, undefined, true, true]);
  });

  it('takes the beam under a chord whose only stem pixels stay among its heads', () => {
    // The stem seen only between the heads, on their left (a down-stem); the beam 2.5 spaces below.
    const width = 120;
    const map: ClassMap = { width, height: 120, data: new Uint8Array(width * 120), confidence: new Uint8Array(width * 120) };
    for (let x = 40; x <= 60; x++) for (let y = 86; y < 89; y++) map.data[y * width + x] = CLASS_INDEX.beam;
    const heads = [head(100, 118, 0), head(100, 130, 2), head(100, 142, 4)];
    const [stroke] = chords(strokes(symbols(heads, [stem(93, 120, 140)]), map));
    expect(stroke).toMatchObject({ up: false, beams: 1 });
    expect(stroke!.stem).toMatchObject({ y1: 178 });
  });

  describe('tremolo strokes', () => {
    /** Ink of an up-stem at x 107 from y 88 to 130, a stroke across it at y 100 (1.3 spaces wide, half a space thick, slanted). */
    function strokeInk(withStroke = true) {
      const ink = { width: 200, height: 200, data: new Uint8Array(200 * 200) };
      const dot = (x: number, y: number) => (ink.data[y * ink.width + x] = 1);
      for (let y = 88; y < 130; y++) [106, 107].forEach((x) => dot(x, y));
      if (withStroke) {
        for (let dx = -8; dx <= 8; dx++) for (let dy = 0; dy < 6; dy++) dot(107 + dx, Math.round(97 - dx / 3) + dy);
      }
      return ink;
    }
    const half = (x: number, y: number, position: number): Head => ({ ...head(x, y, position), kind: 'half' });
    /** The stroke as the model may paint it: a black head astride the stem. */
    const strokeHead: Head = { ...head(107, 100, -3), x0: 100, x1: 114 };

    it('reads a stroke across a half note’s stem as a tremolo, and the head the model painted on it as no note', () => {
      const h = half(100, 130, 2);
      const items = buildStrokes(symbols([h, strokeHead], [stem(107, 88, 130)]), sightOf({ ink: strokeInk(), space: SPACE }), SPACE);
      const found = chords(items);
      expect(found).toHaveLength(1);
      expect(found[0]!.heads).toEqual([h]);
      expect(found[0]!.tremolo).toBe(1);
    });

    it('reads no tremolo on a bare stem', () => {
      const h = half(100, 130, 2);
      const found = chords(buildStrokes(symbols([h], [stem(107, 88, 130)]), sightOf({ ink: strokeInk(false), space: SPACE }), SPACE));
      expect(found).toHaveLength(1);
      expect(found[0]!.tremolo).toBeUndefined();
    });

    /** Ink of a slanted stroke, 1.3 spaces wide and half a space thick, centred at (x, y), and nothing else. */
    function lone(x: number, y: number) {
      const ink = { width: 200, height: 200, data: new Uint8Array(200 * 200) };
      for (let dx = -8; dx <= 8; dx++) for (let dy = 0; dy < 6; dy++) ink.data[(Math.round(y - 3 - dx / 3) + dy) * ink.width + x + dx] = 1;
      return ink;
    }
    const whole = (x: number, y: number, position: number): Head => ({ ...head(x, y, position), kind: 'whole' });

    it('reads a stroke over a whole note under the middle line, where its stem would stand, as a tremolo', () => {
      const found = chords(buildStrokes(symbols([whole(100, 130, 6)], []), sightOf({ ink: lone(100, 110), space: SPACE }), SPACE));
      expect(found.map((c) => c.tremolo)).toEqual([1]);
    });

    it('takes no ledger line between a whole note and the staff for a tremolo stroke, but reads a stroke beside one', () => {
      // A whole note over the staff (position -5): its ledger lines at positions -4 (y 106) and -2 (y 118), where a stem would go.
      const withLedgers = <I extends { width: number; data: Uint8Array }>(ink: I): I => {
        for (const y of [106, 118]) for (let x = 88; x <= 112; x++) for (let dy = -1; dy <= 1; dy++) ink.data[(y + dy) * ink.width + x] = 1;
        return ink;
      };
      const read = (ink: { width: number; height: number; data: Uint8Array }) => chords(buildStrokes(symbols([whole(100, 100, -5)], []), sightOf({ ink, space: SPACE }), SPACE)).map((c) => c.tremolo);
      expect(read(withLedgers({ width: 200, height: 200, data: new Uint8Array(200 * 200) }))).toEqual([undefined]);
      expect(read(withLedgers(lone(100, 130)))).toEqual([1]);
    });

    it('takes no rest over a whole note for a tremolo stroke', () => {
      const seen = symbols([whole(100, 130, 6)], []);
      seen.rests = [{ x0: 92, x1: 108, y0: 107, y1: 113, staff: 0, confidence: 1, kind: 'half' }];
      const found = chords(buildStrokes(seen, sightOf({ ink: lone(100, 110), space: SPACE }), SPACE));
      expect(found.map((c) => c.tremolo)).toEqual([undefined]);
    });
  });

  describe('arpeggios', () => {
    /** Ink of a wiggle two spaces left of x 100, from y 100 to 160 (a space from turn to turn and back). */
    function wiggleInk() {
      const ink = { width: 200, height: 200, data: new Uint8Array(200 * 200) };
      for (let y = 100; y < 160; y++) {
        const phase = ((y - 100) % SPACE) / SPACE;
        const dx = Math.round((phase < 0.5 ? phase : 1 - phase) * SPACE - SPACE * 0.25);
        for (let x = 74 + dx; x < 79 + dx; x++) ink.data[y * ink.width + x] = 1;
      }
      return ink;
    }

    it('marks a chord with a wavy line before it', () => {
      const chord = [head(100, 106, 0), head(100, 130, 4), head(100, 154, 8)];
      const found = chords(buildStrokes(symbols(chord, [stem(107, 70, 154)]), sightOf({ ink: wiggleInk(), space: SPACE }), SPACE));
      expect(found.map((c) => [c.heads.length, c.arpeggio])).toEqual([[3, true]]);
    });

    it('rolls no single note, whatever stands before it', () => {
      const found = chords(buildStrokes(symbols([head(100, 130, 4)], [stem(107, 88, 130)]), sightOf({ ink: wiggleInk(), space: SPACE }), SPACE));
      expect(found.map((c) => c.arpeggio)).toEqual([undefined]);
    });
  });
});
