/**
 * A movement's number as its glyphs draw it. The OCR reads a lone roman numeral in a large serif face
 * poorly ("II." as "IT.", "III." as "Il." or "IT]."): it has no word to guess from. The letters are
 * told apart by their shape instead. Each is one connected glyph: an I is a narrow upright; a V and an
 * X are wide, the V meeting in one point at its foot, the X standing on two.
 */
import { inkBox } from './dynamic-cells.js';
import type { TextLine, TextRegions } from './text-regions.js';

/** A glyph at least this share of the line's letter size tall is a letter; shorter, it is the period. */
const LETTER_HEIGHT = 0.6;
/** A letter narrower than this share of its height is an I. */
const NARROW_LETTER = 0.7;
/** The rows of a wide letter's foot, as a share of its height from its bottom. */
const FOOT_ROWS = 0.15;
/** A wide letter whose foot spans more than this share of its width stands on two feet: an X; else a V. */
const TWO_FEET = 0.55;
/** A period is at most this share of the letter size tall and wide. */
const PERIOD_SIZE = 0.4;

/** What the OCR makes of a roman numeral alone: its letters and the letters and marks it takes them for, at most five, and a period. */
const NUMERAL_LIKE = /^[IVXTLl1|![\]]{1,5}\.?$/;

interface Glyph {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  label: number;
}

/**
 * The roman numeral a line draws ("II."), where the OCR read it as something numeral-like; undefined
 * where its glyphs are not all letters of one (I, V, X) and at most a period after them.
 */
export function readRomanNumeral(regions: TextRegions, line: TextLine, read: string): string | undefined {
  if (!NUMERAL_LIKE.test(read.replace(/\s+/g, ''))) return undefined;
  const glyphs = lineGlyphs(regions, line).sort((a, b) => a.x0 - b.x0);
  const height = Math.max(0, ...glyphs.map((g) => g.y1 - g.y0));
  if (!glyphs.length || height < line.size * LETTER_HEIGHT) return undefined;
  let numeral = '';
  let period = false;
  for (const g of glyphs) {
    const [w, h] = [g.x1 - g.x0, g.y1 - g.y0];
    if (h >= height * LETTER_HEIGHT && !period) {
      numeral += w < h * NARROW_LETTER ? 'I' : footSpan(regions, g) > w * TWO_FEET ? 'X' : 'V';
    } else if (numeral && !period && h <= height * PERIOD_SIZE && w <= height * PERIOD_SIZE && g.y1 >= line.y1 - height * PERIOD_SIZE) {
      period = true;
    } else {
      return undefined;
    }
  }
  return numeral && numeral.length <= 5 ? `${numeral}${period ? '.' : ''}` : undefined;
}

/** The boxes of a line's glyphs, from their labelled pixels. */
function lineGlyphs(regions: TextRegions, line: TextLine): Glyph[] {
  return [...new Set(line.glyphs)].map((label) => ({ ...inkBox(regions.labels, regions.width, new Set([label]), line), label }));
}

/** How wide a glyph's ink is across its foot: from its leftmost to its rightmost pixel there. */
function footSpan(regions: TextRegions, g: Glyph): number {
  let left = Infinity;
  let right = -Infinity;
  const rows = Math.max(1, Math.round((g.y1 - g.y0) * FOOT_ROWS));
  for (let y = g.y1 - rows; y < g.y1; y++) {
    for (let x = g.x0; x < g.x1; x++) {
      if (regions.labels[y * regions.width + x] !== g.label) continue;
      left = Math.min(left, x);
      right = Math.max(right, x + 1);
    }
  }
  return right > left ? right - left : 0;
}
