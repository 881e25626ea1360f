/** A movement's roman number read from its glyphs' shapes, where the OCR misreads it. */
import { describe, expect, it } from 'vitest';
import { readRomanNumeral } from '../../src/text/roman-numerals.js';
import type { TextLine, TextRegions } from '../../src/text/text-regions.js';

const HEIGHT = 44;
const TOP = 10;

/** Draws letters side by side on a labelled page, one label per glyph, and the line that holds them. */
function drawn(letters: string): { regions: TextRegions; line: TextLine } {
  const width = 400;
  const labels = new Int32Array(width * 80);
  const set = (x: number, y: number, label: number) => {
    labels[Math.round(y) * width + Math.round(x)] = label;
  };
  const stroke = (x0: number, y0: number, x1: number, y1: number, label: number) => {
    for (let t = 0; t <= 200; t++) for (let w = -2; w <= 2; w++) set(x0 + ((x1 - x0) * t) / 200 + w, y0 + ((y1 - y0) * t) / 200, label);
  };
  let x = 20;
  const glyphs: number[] = [];
  [...letters].forEach((letter, i) => {
    const label = i + 1;
    glyphs.push(label);
    const bottom = TOP + HEIGHT - 1;
    if (letter === 'I') {
      // An upright with serifs: about half as wide as tall.
      for (let y = TOP; y <= bottom; y++) for (let dx = 7; dx <= 13; dx++) set(x + dx, y, label);
      for (let dx = 0; dx <= 20; dx++) for (const y of [TOP, TOP + 1, bottom - 1, bottom]) set(x + dx, y, label);
      x += 26;
    } else if (letter === 'V') {
      stroke(x + 2, TOP, x + 22, bottom, label);
      stroke(x + 42, TOP, x + 22, bottom, label);
      x += 50;
    } else if (letter === 'X') {
      stroke(x + 2, TOP, x + 42, bottom, label);
      stroke(x + 42, TOP, x + 2, bottom, label);
      x += 50;
    } else {
      for (let y = bottom - 7; y <= bottom; y++) for (let dx = 0; dx <= 7; dx++) set(x + dx, y, label);
      x += 12;
    }
  });
  const line: TextLine = { kind: 'title', size: HEIGHT, glyphs, spans: [[20, x]], x0: 18, y0: TOP - 1, x1: x + 2, y1: TOP + HEIGHT + 1 };
  return { regions: { lines: [line], labels, width }, line };
}

describe('readRomanNumeral', () => {
  it.each(['I.', 'II.', 'III.', 'IV.', 'V.', 'VI.', 'IX.', 'XII.', 'III'])('reads %s from its glyphs, whatever the OCR took it for', (numeral) => {
    const { regions, line } = drawn(numeral);
    expect(readRomanNumeral(regions, line, 'IT].')).toBe(numeral);
  });

  it('leaves alone a line the OCR read as words', () => {
    const { regions, line } = drawn('II.');
    expect(readRomanNumeral(regions, line, 'Allegro')).toBeUndefined();
  });

  it('refuses glyphs that are not a numeral and its period', () => {
    // A period first, or two periods: no numeral.
    expect(readRomanNumeral(drawn('.I').regions, drawn('.I').line, 'I')).toBeUndefined();
    expect(readRomanNumeral(drawn('I..').regions, drawn('I..').line, 'I.')).toBeUndefined();
  });
});
