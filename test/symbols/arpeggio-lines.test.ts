import { describe, expect, it } from 'vitest';
import type { BinaryImage } from '../../src/preparation/binarize.js';
import { arpeggioBefore, onArpeggioLine } from '../../src/symbols/arpeggio-lines.js';

const SPACE = 12;
const TOP = 30;
/** The chord's heads' left edge, and the middles of its top and bottom heads. */
const HEADS_LEFT = 150;
const TOP_HEAD = TOP + SPACE;
const BOTTOM_HEAD = TOP + 3 * SPACE;

/** Paper with a staff's five lines, two pixels thick. */
function page(): BinaryImage {
  const ink: BinaryImage = { width: 300, height: 120, data: new Uint8Array(300 * 120) };
  for (let l = 0; l < 5; l++) fill(ink, 10, TOP + l * SPACE, 290, TOP + l * SPACE + 2);
  return ink;
}

function fill(ink: BinaryImage, x0: number, y0: number, x1: number, y1: number): void {
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) ink.data[y * ink.width + x] = 1;
}

/** An arpeggio's wiggle centred on column x from y0 to y1: a zigzag half a space wide, a space from turn to turn and back, five pixels thick. */
function wiggle(ink: BinaryImage, x: number, y0: number, y1: number): void {
  for (let y = y0; y < y1; y++) {
    const phase = ((y - y0) % SPACE) / SPACE;
    const dx = Math.round((phase < 0.5 ? phase : 1 - phase) * 2 * SPACE * 0.5 - SPACE * 0.25);
    fill(ink, x + dx - 2, y, x + dx + 3, y + 1);
  }
}

const before = (ink: BinaryImage) => arpeggioBefore(ink, HEADS_LEFT, TOP_HEAD, BOTTOM_HEAD, SPACE);

describe('arpeggio signs before a chord', () => {
  it('finds a wavy line left of the heads running their height, through the staff lines', () => {
    const ink = page();
    wiggle(ink, HEADS_LEFT - 20, TOP_HEAD - 6, BOTTOM_HEAD + 6);
    expect(before(ink)).toBe(true);
  });

  it('finds one standing left of an accidental', () => {
    const ink = page();
    wiggle(ink, HEADS_LEFT - 36, TOP_HEAD - 6, BOTTOM_HEAD + 6);
    fill(ink, HEADS_LEFT - 16, BOTTOM_HEAD - 15, HEADS_LEFT - 15, BOTTOM_HEAD + 15); // a sharp's strokes and bars
    fill(ink, HEADS_LEFT - 10, BOTTOM_HEAD - 17, HEADS_LEFT - 9, BOTTOM_HEAD + 13);
    fill(ink, HEADS_LEFT - 17, BOTTOM_HEAD - 5, HEADS_LEFT - 8, BOTTOM_HEAD - 2);
    expect(before(ink)).toBe(true);
  });

  it('takes no straight upright line for one (a stem, a barline)', () => {
    const ink = page();
    fill(ink, HEADS_LEFT - 20, TOP, HEADS_LEFT - 18, TOP + 4 * SPACE);
    expect(before(ink)).toBe(false);
  });

  it('takes no natural sign for one: one edge of its stroke stays straight where its bars join it', () => {
    const ink = page();
    // A natural two spaces and a half tall: left stroke, right stroke, and two thick bars between them.
    fill(ink, HEADS_LEFT - 22, TOP_HEAD - 4, HEADS_LEFT - 20, BOTTOM_HEAD + 4);
    fill(ink, HEADS_LEFT - 22, TOP_HEAD + 4, HEADS_LEFT - 13, TOP_HEAD + 8);
    fill(ink, HEADS_LEFT - 22, BOTTOM_HEAD - 8, HEADS_LEFT - 13, BOTTOM_HEAD - 4);
    fill(ink, HEADS_LEFT - 15, TOP_HEAD, HEADS_LEFT - 13, BOTTOM_HEAD + 8);
    expect(before(ink)).toBe(false);
  });

  it('takes no short wiggle for one where it does not reach the chord’s top head', () => {
    const ink = page();
    wiggle(ink, HEADS_LEFT - 20, BOTTOM_HEAD - SPACE, BOTTOM_HEAD + 6);
    expect(before(ink)).toBe(false);
  });

  it('looks no further left than a few spaces', () => {
    const ink = page();
    wiggle(ink, HEADS_LEFT - 5 * SPACE, TOP_HEAD - 6, BOTTOM_HEAD + 6);
    expect(before(ink)).toBe(false);
  });

  it('takes no wiggle under two spaces tall for one, before a second (a letter, a figure)', () => {
    const ink = page();
    wiggle(ink, HEADS_LEFT - 20, BOTTOM_HEAD - 10, BOTTOM_HEAD + 8);
    expect(arpeggioBefore(ink, HEADS_LEFT, BOTTOM_HEAD - SPACE / 2, BOTTOM_HEAD, SPACE)).toBe(false);
  });

  it('tells a piece of an arpeggio the model called an accidental from a real one beside it', () => {
    const ink = page();
    wiggle(ink, HEADS_LEFT - 36, TOP_HEAD - 6, BOTTOM_HEAD + 6);
    // A natural between the wavy line and the heads.
    fill(ink, HEADS_LEFT - 22, TOP_HEAD - 4, HEADS_LEFT - 20, BOTTOM_HEAD + 4);
    fill(ink, HEADS_LEFT - 22, TOP_HEAD + 4, HEADS_LEFT - 13, TOP_HEAD + 8);
    fill(ink, HEADS_LEFT - 22, BOTTOM_HEAD - 8, HEADS_LEFT - 13, BOTTOM_HEAD - 4);
    fill(ink, HEADS_LEFT - 15, TOP_HEAD, HEADS_LEFT - 13, BOTTOM_HEAD + 8);
    // A box over a stretch of the wavy line, one space and a half tall, and the natural's own box.
    expect(onArpeggioLine(ink, { x0: HEADS_LEFT - 41, x1: HEADS_LEFT - 31, y0: TOP_HEAD + 6, y1: TOP_HEAD + 24 }, SPACE)).toBe(true);
    expect(onArpeggioLine(ink, { x0: HEADS_LEFT - 22, x1: HEADS_LEFT - 13, y0: TOP_HEAD - 4, y1: BOTTOM_HEAD + 8 }, SPACE)).toBe(false);
  });
});
