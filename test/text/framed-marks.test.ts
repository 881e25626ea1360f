/** Measure numbers over a system's start, framed rehearsal marks and footers (text-regions.ts), on drawn pages. */
import { describe, expect, it } from 'vitest';
import type { Staff } from '../../src/staves/detect-staves.js';
import { CLASS_INDEX } from '../../src/symbols/symbol-classes.js';
import { findTextRegions, type TextPageInput } from '../../src/text/text-regions.js';

const SPACE = 12;
const WIDTH = 1000;
const HEIGHT = 300;
const TOP = 150;

/** One staff whose top line is at TOP, from x 20 to 980, with `draw` adding ink. */
function page(draw: (fill: (x0: number, y0: number, x1: number, y1: number) => void) => void): TextPageInput {
  const staff: Staff = { xs: [20, 980], lines: [0, 1, 2, 3, 4].map((l) => [TOP + l * SPACE, TOP + l * SPACE]), x0: 20, x1: 980, space: SPACE };
  const ink = { width: WIDTH, height: HEIGHT, data: new Uint8Array(WIDTH * HEIGHT) };
  const fill = (x0: number, y0: number, x1: number, y1: number) => {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) ink.data[y * WIDTH + x] = 1;
  };
  for (const [y] of staff.lines) fill(staff.x0, y!, staff.x1, y! + 1);
  draw(fill);
  const gray = { width: WIDTH, height: HEIGHT, data: ink.data.map((v) => (v ? 0 : 255)) };
  return { gray, ink, staves: [staff], systems: [{ staves: [0] }], space: SPACE, page: 1 };
}

/** A letter-sized block of ink (about 1 × 1.7 spaces) with its top left at (x, y). */
const letter = (fill: (x0: number, y0: number, x1: number, y1: number) => void, x: number, y: number) => fill(x, y, x + 12, y + 20);
/** A frame 2.5 × 3 spaces around (x, y), two pixels thick. */
const frame = (fill: (x0: number, y0: number, x1: number, y1: number) => void, x: number, y: number) => {
  const [w, h] = [30, 36];
  fill(x, y, x + w, y + 2);
  fill(x, y + h - 2, x + w, y + h);
  fill(x, y, x + 2, y + h);
  fill(x + w - 2, y, x + w, y + h);
};

describe('framed rehearsal marks', () => {
  it('reads a letter in a box over the staff as a rehearsal mark for it, without the box', () => {
    const lines = findTextRegions(page((fill) => {
      frame(fill, 400, TOP - 50);
      letter(fill, 409, TOP - 42);
    })).lines;
    const marks = lines.filter((l) => l.kind === 'rehearsal');
    expect(marks).toHaveLength(1);
    expect(marks[0]).toMatchObject({ staff: 0, x0: 409, x1: 421, glyphs: [expect.any(Number)] });
  });

  it('leaves a letter without a frame, or in a frame far larger than it, what its place makes it', () => {
    const bare = findTextRegions(page((fill) => letter(fill, 409, TOP - 42))).lines;
    expect(bare.some((l) => l.kind === 'rehearsal')).toBe(false);
    expect(bare).toHaveLength(1);
    const loose = findTextRegions(page((fill) => {
      fill(380, TOP - 80, 460, TOP - 78);
      fill(380, TOP - 12, 460, TOP - 10);
      fill(380, TOP - 80, 382, TOP - 10);
      fill(458, TOP - 80, 460, TOP - 10);
      letter(fill, 409, TOP - 42);
    })).lines;
    expect(loose.some((l) => l.kind === 'rehearsal')).toBe(false);
  });

  it('takes a small number over the system start as its measure number, and a framed one as a rehearsal mark', () => {
    const number = findTextRegions(page((fill) => letter(fill, 24, TOP - 30))).lines;
    expect(number).toMatchObject([{ kind: 'measureNumber', staff: 0, otherwise: 'tempo' }]);
    const framed = findTextRegions(page((fill) => {
      frame(fill, 22, TOP - 50);
      letter(fill, 31, TOP - 42);
    })).lines;
    expect(framed).toMatchObject([{ kind: 'rehearsal', staff: 0 }]);
  });

  it('finds a framed letter the symbol model took for music by its frame, and no mark in an empty frame', () => {
    const drawn = page((fill) => {
      frame(fill, 400, TOP - 50);
      letter(fill, 409, TOP - 42);
      frame(fill, 600, TOP - 50);
    });
    // The model paints the letter as a notehead and a stem: no text line holds it.
    const map = { width: WIDTH / 2, height: HEIGHT / 2, data: new Uint8Array((WIDTH / 2) * (HEIGHT / 2)), confidence: new Uint8Array((WIDTH / 2) * (HEIGHT / 2)) };
    for (let y = (TOP - 42) >> 1; y < (TOP - 22) >> 1; y++) for (let x = 409 >> 1; x < 421 >> 1; x++) map.data[y * map.width + x] = CLASS_INDEX.noteheadBlack;
    const marks = findTextRegions({ ...drawn, map }).lines.filter((l) => l.kind === 'rehearsal');
    expect(marks).toHaveLength(1);
    expect(marks[0]).toMatchObject({ staff: 0, x0: 409, x1: 421, glyphs: [expect.any(Number)] });
  });

  it('takes a framed letter out of the line of a word printed beside its frame', () => {
    const lines = findTextRegions(page((fill) => {
      frame(fill, 400, TOP - 50);
      letter(fill, 409, TOP - 42);
      for (const x of [440, 454, 468, 482]) letter(fill, x, TOP - 42);
    })).lines;
    const marks = lines.filter((l) => l.kind === 'rehearsal');
    expect(marks).toMatchObject([{ staff: 0, x0: 409, x1: 421, glyphs: [expect.any(Number)] }]);
    const word = lines.filter((l) => l.kind !== 'rehearsal');
    expect(word).toHaveLength(1);
    expect(word[0]).toMatchObject({ x0: 440, x1: 494 });
    expect(word[0]!.glyphs).toHaveLength(4);
  });
});

describe('words beside a frame', () => {
  it('keeps a word of small letters after a tall frame one line once the frame has left it', () => {
    const lines = findTextRegions(page((fill) => {
      frame(fill, 400, TOP - 50);
      letter(fill, 409, TOP - 42);
      // Letters of 1.2 spaces, under half the frame's height.
      for (const x of [440, 454, 468, 482, 496]) fill(x, TOP - 40, x + 12, TOP - 26);
    })).lines;
    const word = lines.filter((l) => l.kind !== 'rehearsal');
    expect(word).toHaveLength(1);
    expect(word[0]).toMatchObject({ x0: 440, x1: 508 });
    expect(word[0]!.glyphs).toHaveLength(5);
  });
});

describe('footers', () => {
  /** Four letters starting at x, their tops at y. */
  const word = (fill: (x0: number, y0: number, x1: number, y1: number) => void, x: number, y: number) => [0, 1, 2, 3].forEach((k) => letter(fill, x + k * 14, y));
  const bottomLine = TOP + 4 * SPACE;
  const kinds = (x: number, y: number) => findTextRegions(page((fill) => word(fill, x, y))).lines.map((l) => l.kind);

  it('takes a line centred under the lowest staff, well clear of it, for a footer: no direction', () => {
    expect(kinds(473, bottomLine + 5 * SPACE)).toEqual(['other']);
  });

  it('leaves words nearer the staff, or off the middle, what their place makes them', () => {
    expect(kinds(473, bottomLine + 2 * SPACE)).not.toContain('other');
    expect(kinds(200, bottomLine + 5 * SPACE)).not.toContain('other');
  });
});

describe('the title block on a drawn page', () => {
  /** A title of letters 3 spaces tall with a capital 5.5 spaces tall among them (a "Q" and its tail), centred over the staff. */
  const title = (fill: (x0: number, y0: number, x1: number, y1: number) => void) => {
    for (let k = 0; k < 6; k++) fill(400 + k * 30, 5, 424 + k * 30, 41);
    fill(580, 5, 610, 71);
  };

  it('keeps a title capital taller than any glyph among the staves in its line', () => {
    const input = { ...page(title), page: 0 };
    const lines = findTextRegions(input).lines.filter((l) => l.kind === 'title');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.glyphs).toHaveLength(7);
    expect(lines[0]!.x1).toBe(610);
  });

  it('picks the title by its tall letters: a line mostly of small letters over a heading in capitals', () => {
    const input = page((fill) => {
      // Four small letters and two tall ones (1.7 and 2.3 spaces tall), then under them a lone capital 2 spaces tall.
      for (let k = 0; k < 4; k++) fill(400 + k * 30, 10, 424 + k * 30, 30);
      fill(520, 2, 544, 30);
      fill(550, 2, 574, 30);
      fill(480, 36, 500, 60);
    });
    const lines = findTextRegions({ ...input, page: 0 }).lines;
    expect(lines.find((l) => l.kind === 'title')).toMatchObject({ x0: 400, y0: 2 });
    expect(lines.find((l) => l.kind === 'subtitle')).toMatchObject({ x0: 480, y0: 36 });
  });
});
