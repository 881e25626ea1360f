import { describe, expect, it } from 'vitest';
import { readSymbols } from '../../src/symbols/read-symbols.js';
import { CLASS_INDEX } from '../../src/symbols/symbol-classes.js';
import { straightStaff } from '../support/straight-staff.js';

const SPACE = 12;
const staff = straightStaff(100, SPACE, 0, 400);

/** A class map (half the page's resolution) of a 400×300 page with the given stem pixels. */
function mapWithStem(pieces: { x: number; y0: number; y1: number }[]) {
  const width = 200;
  const height = 150;
  const data = new Uint8Array(width * height);
  for (const { x, y0, y1 } of pieces) for (let y = y0; y <= y1; y++) data[y * width + x] = CLASS_INDEX.stem;
  return { width, height, data, confidence: new Uint8Array(width * height).fill(255) };
}

/** Paints class `cls` over map columns [x0, x1) and rows [y0, y1). */
function paint(map: ReturnType<typeof mapWithStem>, cls: number, x0: number, x1: number, y0: number, y1: number): void {
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) map.data[y * map.width + x] = cls;
}

describe('readSymbols', () => {
  it('joins a stem cut into pieces by ledger lines whatever their sub-pixel columns', () => {
    // One stem (map rows 55–90) cut twice; the middle piece stands one map pixel to the right.
    const map = mapWithStem([
      { x: 100, y0: 55, y1: 60 },
      { x: 101, y0: 62, y1: 75 },
      { x: 100, y0: 77, y1: 90 },
    ]);
    const { stems } = readSymbols(map, [staff], SPACE);
    expect(stems).toHaveLength(1);
    expect(stems[0]).toMatchObject({ y0: 110, y1: 182 });
  });

  it('keeps a stem too short for a stem where it ends in a beam, and drops it elsewhere', () => {
    // A space long (map rows 70–75): a steep beam came down close to its head.
    const map = mapWithStem([{ x: 100, y0: 70, y1: 75 }, { x: 150, y0: 70, y1: 75 }]);
    for (let x = 96; x <= 104; x++) for (let y = 66; y < 70; y++) map.data[y * map.width + x] = CLASS_INDEX.beam;
    const { stems } = readSymbols(map, [staff], SPACE);
    expect(stems.map((s) => s.x)).toEqual([201]);
  });

  it('keeps a stem blurred wide where it meets its heads, and drops two stems side by side that touch', () => {
    // Map rows 60–90. Left: a stem two map pixels wide, five wide over its top four rows (0.83 spaces).
    // Right: two stems two pixels apart, joined along their common stretch (rows 70–90).
    const map = mapWithStem([]);
    paint(map, CLASS_INDEX.stem, 60, 62, 60, 91);
    paint(map, CLASS_INDEX.stem, 58, 63, 60, 64);
    paint(map, CLASS_INDEX.stem, 140, 142, 60, 91);
    paint(map, CLASS_INDEX.stem, 142, 145, 70, 91);
    const { stems } = readSymbols(map, [staff], SPACE);
    expect(stems).toHaveLength(1);
    expect(stems[0]!.x).toBeCloseTo(121.7, 0);
  });

  it('joins a brace that fell apart into parts one above the other, and keeps separate braces apart', () => {
    const map = mapWithStem([]);
    // Inclusive bounds, as a brace's parts are measured.
    const brace = (x0: number, x1: number, y0: number, y1: number) => paint(map, CLASS_INDEX.braceBracket, x0, x1 + 1, y0, y1 + 1);
    // A grand staff's brace broken twice (map rows 10–80, gaps of two spaces less a little); a brace
    // curves, so its middle part stands further left …
    brace(13, 21, 10, 35);
    brace(8, 16, 40, 55);
    brace(13, 21, 60, 80);
    // … and the next one, more than three spaces below, unbroken; a bracket's bar (narrower than a space) is none.
    brace(13, 21, 100, 113);
    brace(8, 16, 114, 127);
    brace(13, 21, 128, 140);
    brace(60, 63, 10, 80);
    const { braces } = readSymbols(map, [staff], SPACE);
    expect(braces.map((b) => [b.y0, b.y1])).toEqual([[20, 162], [200, 282]]);
  });

  it('takes a straight stretch of a bracket, with its hook, for no brace however wide the hook makes it', () => {
    const map = mapWithStem([]);
    // A bracket's bar over two staves (map rows 10–80), the top hook reaching right: the model labelled
    // only this stretch of a longer bracket, so it would otherwise join two staves into one instrument.
    paint(map, CLASS_INDEX.braceBracket, 10, 13, 10, 81);
    paint(map, CLASS_INDEX.braceBracket, 10, 22, 8, 11);
    expect(readSymbols(map, [staff], SPACE).braces).toEqual([]);
  });

  it('reads a grand staff barline the model called a stem on the staves and a barline in the gap', () => {
    // Two staves (tops 20 and 200 on the page); the line runs from the upper top line to the lower bottom line.
    const upper = straightStaff(20, SPACE, 0, 400);
    const lower = straightStaff(200, SPACE, 0, 400);
    const map = mapWithStem([{ x: 50, y0: 10, y1: 40 }, { x: 50, y0: 95, y1: 124 }, { x: 150, y0: 10, y1: 124 }]);
    for (let y = 41; y < 95; y++) map.data[y * map.width + 50] = CLASS_INDEX.barline;
    const { barlines, stems } = readSymbols(map, [upper, lower], SPACE);
    expect(barlines.map((b) => [b.x0, b.staves])).toEqual([[100, [0, 1]]]);
    // The stem-labelled stretches of the barline are no stems; a long stem with no barline in it stays one.
    expect(stems.map((s) => s.x0)).toEqual([300]);
  });

  it('reads a double flat no wider than a flat as a flat, and a wide one as a double flat', () => {
    const map = mapWithStem([]);
    // Map pixels are two page pixels: 6 map columns are one space, 10 are 1.7 spaces; both three spaces tall.
    for (const [x0, w] of [[40, 6], [120, 10]] as const) for (let y = 50; y < 68; y++) for (let x = x0; x < x0 + w; x++) map.data[y * map.width + x] = CLASS_INDEX.doubleFlat;
    const { accidentals } = readSymbols(map, [staff], SPACE);
    expect(accidentals.map((a) => [a.x0, a.kind])).toEqual([[80, 'flat'], [240, 'flat-flat']]);
  });

  it('takes no head from a speck of head class a fifth of a head, and keeps a cue-sized head', () => {
    const map = mapWithStem([]);
    paint(map, CLASS_INDEX.noteheadBlack, 100, 107, 60, 66); // a head: 7 × 6 map pixels
    paint(map, CLASS_INDEX.noteheadBlack, 130, 135, 60, 64); // a cue head: 5 × 4
    paint(map, CLASS_INDEX.noteheadBlack, 160, 163, 61, 64); // a speck: 3 × 3
    const { heads } = readSymbols(map, [staff], SPACE);
    expect(heads.map((h) => h.x0)).toEqual([200, 260]);
  });

  it('places a head by its body, not by a thin stem foot painted as head above it', () => {
    // A head on the staff's second line (y 112, position 2): map rows 53–58, with a stem's foot one map
    // pixel wide painted as head over the four rows above it. The run's middle (y 108) would stand nearer
    // the space above; the body's weight stands on the line.
    const map = mapWithStem([]);
    paint(map, CLASS_INDEX.noteheadBlack, 100, 106, 53, 59);
    paint(map, CLASS_INDEX.noteheadBlack, 105, 106, 49, 53);
    const { heads } = readSymbols(map, [staff], SPACE);
    expect(heads.map((h) => h.position)).toEqual([2]);
  });

  it('puts a blurred head below the staff on the ledger line running through its middle', () => {
    // The staff's top line at y 100, so the first ledger line below is at 160 (position 10). A head
    // centred at 156 (position 9.3, nearer the space above) with that ledger line running through it …
    const map = mapWithStem([]);
    paint(map, CLASS_INDEX.ledgerLine, 94, 114, 79, 81);
    paint(map, CLASS_INDEX.noteheadBlack, 100, 108, 75, 81);
    // … and the same head with no ledger line, which stays in the space.
    paint(map, CLASS_INDEX.noteheadBlack, 150, 158, 75, 81);
    const { heads } = readSymbols(map, [staff], SPACE);
    expect(heads.map((h) => [h.x0, h.position])).toEqual([[200, 10], [300, 9]]);
  });

  it('reads a quarter’s head and a half’s side by side at one pitch, touching, as a black head and a half head', () => {
    const map = mapWithStem([]);
    // One component, page x 200–232 on the second line: mostly black on the left, hollow on the right.
    paint(map, CLASS_INDEX.noteheadBlack, 100, 109, 53, 59);
    paint(map, CLASS_INDEX.noteheadHalf, 109, 116, 53, 59);
    const { heads } = readSymbols(map, [staff], SPACE);
    expect(heads.map((h) => [h.kind, h.position])).toEqual([['black', 2], ['half', 2]]);
  });

  it('takes no rest from the edge of a whole note the model called a whole rest', () => {
    const map = mapWithStem([]);
    // A whole note in the top space (page y 106–118) whose lower edge reads as a whole rest …
    paint(map, CLASS_INDEX.noteheadWhole, 100, 109, 53, 57);
    paint(map, CLASS_INDEX.restWhole, 101, 107, 56, 58);
    // … and a whole rest of its own further on.
    paint(map, CLASS_INDEX.restWhole, 150, 156, 53, 55);
    const { heads, rests } = readSymbols(map, [staff], SPACE);
    expect(heads).toHaveLength(1);
    expect(rests.map((r) => r.x0)).toEqual([300]);
  });

  it("reads an eighth rest the model painted in two pieces across a staff line as one rest, and a piece alone as none", () => {
    const map = mapWithStem([]);
    // Staff lines at page y 100, 112 … (map rows 50, 56 …). Each piece is under a space tall (map rows
    // 53–57 and 59–63), a staff line's row painted between them: 1.67 spaces together.
    paint(map, CLASS_INDEX.rest8, 100, 106, 53, 58);
    paint(map, CLASS_INDEX.rest8, 102, 105, 59, 63);
    // A piece of the same size alone, further on.
    paint(map, CLASS_INDEX.rest8, 150, 156, 53, 58);
    const { rests } = readSymbols(map, [staff], SPACE);
    expect(rests.map((r) => [r.x0, r.kind])).toEqual([[200, 'eighth']]);
  });

  it('joins the two halves of a whole note whose middle the model called a rest into one head', () => {
    const map = mapWithStem([]);
    paint(map, CLASS_INDEX.noteheadWhole, 100, 103, 53, 58);
    paint(map, CLASS_INDEX.restWhole, 103, 106, 54, 57);
    paint(map, CLASS_INDEX.noteheadWhole, 106, 109, 53, 58);
    const { heads, rests } = readSymbols(map, [staff], SPACE);
    expect(heads.map((h) => [h.x0, h.x1, h.kind])).toEqual([[200, 218, 'whole']]);
    expect(rests).toEqual([]);
  });

  it('reads a sliver of head pixels just right of a whole note at its position as its dot', () => {
    const map = mapWithStem([]);
    // A dotted whole note in the top space (page y 106–118), its dot blurred into the model's head reading.
    paint(map, CLASS_INDEX.noteheadWhole, 100, 110, 53, 59);
    paint(map, CLASS_INDEX.noteheadWhole, 112, 115, 54, 58);
    // Two whole notes a little further apart are two notes.
    paint(map, CLASS_INDEX.noteheadWhole, 150, 160, 53, 59);
    paint(map, CLASS_INDEX.noteheadWhole, 163, 173, 53, 59);
    const { heads, dots } = readSymbols(map, [staff], SPACE);
    expect(heads.map((h) => h.x0)).toEqual([200, 300, 326]);
    expect(dots.map((d) => Math.round(d.x))).toEqual([227]);
  });

  it('takes a sliver called a natural, touching a flat at its height, for part of the flat', () => {
    const map = mapWithStem([]);
    // A flat (map columns 100–105) whose right edge the model called a natural; a natural of its own further on.
    // (The two do not touch at class-map resolution: a column apart.)
    paint(map, CLASS_INDEX.flat, 100, 105, 44, 62);
    paint(map, CLASS_INDEX.natural, 106, 109, 50, 64);
    paint(map, CLASS_INDEX.natural, 150, 154, 45, 62);
    const { accidentals } = readSymbols(map, [staff], SPACE);
    expect(accidentals.map((a) => [a.kind, a.x0]).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([['flat', 200], ['natural', 300]]);
  });

  it('reads a head blurred to 1.7 spaces tall as one head, and a stack two spaces tall as a third', () => {
    const map = mapWithStem([]);
    paint(map, CLASS_INDEX.noteheadHalf, 50, 57, 50, 60); // 20 px
    paint(map, CLASS_INDEX.noteheadHalf, 150, 157, 50, 62); // 24 px
    const { heads } = readSymbols(map, [staff], SPACE);
    expect(heads.map((h) => [h.x0, h.position])).toEqual([[100, 2], [300, 1], [300, 3]]);
  });

  it('counts the sharps of a widely spaced key signature by their strokes', () => {
    const map = mapWithStem([]);
    // Five sharps 1.3 spaces apart (eight map columns each), merged into one component by a bar
    // across them: by width alone (1.05 spaces a sharp) they would be six.
    for (let k = 0; k < 5; k++) {
      const x = 40 + k * 8;
      paint(map, CLASS_INDEX.sharp, x + 1, x + 2, 45, 60); // two upright strokes, 2.5 spaces tall …
      paint(map, CLASS_INDEX.sharp, x + 4, x + 5, 44, 59);
      paint(map, CLASS_INDEX.sharp, x, x + 6, 50, 52); // … and a crossbar
    }
    paint(map, CLASS_INDEX.sharp, 40, 80, 53, 54);
    const { accidentals } = readSymbols(map, [staff], SPACE);
    expect(accidentals.filter((a) => a.kind === 'sharp')).toHaveLength(5);
  });
  it("reads a sharp whose bars the model painted as beam, its strokes in pieces, as one sharp, and two whole sharps close together as two", () => {
    const map = mapWithStem([]);
    // Each stroke in two pieces (map rows 44–48 and 51–59, 2.5 spaces in all), the bars between them painted as beam.
    for (const x of [41, 44]) {
      paint(map, CLASS_INDEX.sharp, x, x + 1, 44, 49);
      paint(map, CLASS_INDEX.sharp, x, x + 1, 51, 60);
    }
    paint(map, CLASS_INDEX.beam, 40, 46, 49, 51);
    // Two whole sharps, each 2.5 spaces tall, a third of a space apart (a chord's accidentals side by side).
    for (const x of [100, 108]) {
      paint(map, CLASS_INDEX.sharp, x + 1, x + 2, 44, 59);
      paint(map, CLASS_INDEX.sharp, x + 4, x + 5, 44, 59);
      paint(map, CLASS_INDEX.sharp, x, x + 6, 48, 50);
    }
    const { accidentals } = readSymbols(map, [staff], SPACE);
    expect(accidentals.filter((a) => a.kind === 'sharp').map((a) => a.x0)).toEqual([82, 200, 216]);
  });
});

