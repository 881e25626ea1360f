/**
 * Numbers printed on the staff, read digit by digit with the digit model
 * (digits.ts), where the music reader asks for them (through the page sight,
 * reading/page-reading.ts): a time signature's two numbers or its C / ¢
 * sign, and the count over a multi-measure rest. What the numbers mean (a
 * metre no one writes, a count too large) is the reader's question.
 */
import type { GrayImage } from '../image/gray.js';
import type { PrintedTime } from '../reading/page-reading.js';
import { staffLineY, type Staff } from '../staves/detect-staves.js';
import { localSpace } from '../staves/staff-geometry.js';
import { digitCells, readNumbers, signatureHalves } from './digits.js';
import type { RestSymbol, TimeGlyph } from './read-symbols.js';

/** Most digits in each number of a time signature. */
const TIME_DIGITS = 2;
/** Most digits of a multi-measure rest's count. */
const REST_COUNT_DIGITS = 3;
/** A C glyph at least this many spaces tall is a ¢: its stroke reaches beyond the C. */
const CUT_GLYPH_HEIGHT = 2.7;
/** … as does an upright column of ink through its middle at least this many spaces long. */
const CUT_STROKE_LENGTH = 2.4;

export async function readPrintedTime(glyphs: readonly TimeGlyph[], staff: Staff, gray: GrayImage, lineThickness: number): Promise<PrintedTime | undefined> {
  const x0 = Math.min(...glyphs.map((g) => g.x0));
  const x1 = Math.max(...glyphs.map((g) => g.x1));
  const space = localSpace(staff, (x0 + x1) / 2) || staff.space;
  const common = glyphs.find((g) => g.common);
  if (common) return { symbol: isCut(common, gray, space) ? 'cut' : 'common' };
  const lines = [0, 1, 2, 3, 4].map((l) => staffLineY(staff, l, (x0 + x1) / 2));
  const [top, bottom] = signatureHalves(lines, x0, x1, space, lineThickness).map((region) => digitCells(gray, region, lines, lineThickness));
  if (!top!.length || !bottom!.length || top!.length > TIME_DIGITS || bottom!.length > TIME_DIGITS) return undefined;
  // A guessed digit gives no numbers (readNumbers is undefined then).
  const [beats, beatType] = (await readNumbers([top!, bottom!])) ?? [];
  return beats !== undefined && beatType !== undefined ? { beats, beatType } : undefined;
}

/**
 * ¢ is a C with a vertical stroke through its middle that reaches beyond it:
 * a column of ink in the glyph's middle longer than the C is tall (two
 * spaces). The model labels the C and may leave the stroke's ends out, so
 * the page's own pixels decide.
 */
function isCut(glyph: TimeGlyph, gray: GrayImage, space: number): boolean {
  if (glyph.y1 - glyph.y0 > space * CUT_GLYPH_HEIGHT) return true;
  const width = glyph.x1 - glyph.x0;
  const ya = Math.max(0, Math.floor(glyph.y0 - space));
  const yb = Math.min(gray.height - 1, Math.ceil(glyph.y1 + space));
  let longest = 0;
  for (let x = Math.round(glyph.x0 + width * 0.3); x <= Math.round(glyph.x1 - width * 0.3); x++) {
    if (x < 0 || x >= gray.width) continue;
    let run = 0;
    for (let y = ya; y <= yb; y++) {
      run = gray.data[y * gray.width + x]! < 128 ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
  }
  return longest >= space * CUT_STROKE_LENGTH;
}

/** A multi-measure rest's count is read within this many spaces either side of the rest's centre … */
const NUMBER_HALF_WIDTH = 3;
/** … from this many spaces above the staff … */
const NUMBER_TOP = 3.6;
/** … down to this many. */
const NUMBER_BOTTOM = 0.4;

/** The number printed over a multi-measure rest's H-bar, between 0.4 and 3.6 spaces above the staff. */
export async function readNumberOver(rest: RestSymbol, staff: Staff, gray: GrayImage, lineThickness: number): Promise<number | undefined> {
  const x = (rest.x0 + rest.x1) / 2;
  const top = staffLineY(staff, 0, x);
  const space = staff.space;
  const cells = digitCells(gray, { x0: x - space * NUMBER_HALF_WIDTH, x1: x + space * NUMBER_HALF_WIDTH, y0: top - space * NUMBER_TOP, y1: top - space * NUMBER_BOTTOM }, [], lineThickness);
  if (!cells.length || cells.length > REST_COUNT_DIGITS) return undefined;
  const [n] = (await readNumbers([cells])) ?? [];
  return n;
}
