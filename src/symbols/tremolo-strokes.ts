/**
 * Tremolo strokes across a stem, read in the page's ink (the symbol model has
 * no class for them: it paints them as beam, flag or notehead, piece by
 * piece, and the mark model is taught to call them none).
 *
 * A tremolo stroke is a short, thick, slanted bar through the stem, reaching
 * out about half a space to either side of it. Looked at beside the stem, row
 * by row, it is a band of ink joined to the stem on its left and one on its
 * right, each about half a space tall, level with each other (give or take
 * the slant). What else meets a stem is told apart so:
 *
 * - staff lines, ledger lines and slurs run on for spaces beside it: a row
 *   whose ink reaches that far is a line's, and says nothing either way;
 * - a flag hangs on one side only; a beam, a head and their neighbours stand
 *   at the stem's ends, which the reader leaves out of the stretch it asks
 *   about (assembly/tremolos.ts);
 * - a thin line (a tie's end, a hairpin) is thinner than a stroke, and a
 *   beam stack is taller.
 *
 * Where no stem stands (a whole note's tremolo), the column asked about is
 * where a stem would be, and the strokes must cross it.
 */
import type { BinaryImage } from '../preparation/binarize.js';
import { median } from '../reading/median.js';
import { staffLineY, type Staff } from '../staves/detect-staves.js';

/** Ink joined to the stem reaching at least this many spaces beside it, on one side, is a stroke's there. */
const STROKE_MIN_REACH = 0.3;
/** Ink reaching this many spaces or more beside the stem, on either side, is a line's (staff or ledger line, slur). */
const LINE_REACH = 1.5;
/** Paper gaps in a row this many spaces wide or narrower are bridged (anti-aliasing thins a stroke's slanted edge). */
const ROW_GAP = 0.1;
/** Rows within this many spaces of a staff line's middle are the line's. */
const STAFF_LINE_BAND = 0.12;
/** Rows within this many spaces of a line's row may be its frayed edge (on a scan) rather than a stroke's … */
const LINE_HALO = 0.1;
/** … and a stroke's band holds at least this many spaces of rows clear of lines and their edges (a row, at the least). */
const BAND_MIN_CLEAR = 0.05;
/** A stroke's band on one side of the stem is at least this many spaces tall … */
const BAND_MIN_HEIGHT = 0.25;
/** … and at most this many (a stroke is half a space thick, and its slant adds as much again; a beam stack is taller). */
const BAND_MAX_HEIGHT = 1.4;
/** A stroke's left and right bands stand level with each other, their middles at most this many spaces apart (the slant). */
const BAND_LEVEL = 0.9;
/** A stroke's right band's middle stands at most this many spaces lower than its left band's (strokes slant up to the right, or lie level). */
const SLANT_SLACK = 0.1;
/** Just past a stroke's end, on either side, there is paper in its rows and this many spaces above and below them (a slur crossing the stem slantwise goes on there). */
const OUTER_ROWS = 0.5;
/** The stem's ink is looked for this many spaces either side of the x asked about. */
const STEM_SEARCH = 0.25;
/** The stem's ink is followed this many spaces past the tip it was seen to end at, at most. */
const TIP_FOLLOW = 1.5;
/** The most tremolo strokes on one stem (MusicXML allows up to 8; engravers draw up to 4): more is something else. */
const MAX_STROKES = 4;

/** A stroke's band of rows on one side of the stem (row indices from the top of the stretch). */
interface Band {
  start: number;
  end: number;
  middle: number;
  /** How far its ink reaches from the stem, at the most, in pixels. */
  reach: number;
}

/** What one row of ink beside the stem is: part of a stroke band on either side, or a line's row (unknown). */
interface Row {
  left: boolean;
  right: boolean;
  line: boolean;
  /** How far the ink joined to the stem reaches on each side, in pixels. */
  leftReach: number;
  rightReach: number;
}

/**
 * The tremolo strokes crossing the stem standing at x, from its tip to `head`
 * (the end of the stretch next to its heads; prepared-page pixels, either
 * way up): the height of each one's middle, top to bottom. The stem is
 * followed on past `tip` as far as its ink goes (up to
 * {@link TIP_FOLLOW} spaces): the model often cuts a stem short where a stroke
 * crosses it. Where no stem is inked, the strokes must cross the column x
 * itself.
 */
export function strokesAcrossStem(ink: BinaryImage, staves: readonly Staff[], x: number, tip: number, head: number, space: number): number[] {
  const way = tip < head ? -1 : 1;
  const end = followStem(ink, x, Math.round(tip), way, space);
  const y0 = Math.max(0, Math.floor(Math.min(end, head)));
  const y1 = Math.min(ink.height - 1, Math.ceil(Math.max(end, head)));
  if (y1 - y0 < space * BAND_MIN_HEIGHT) return [];
  const stem = stemEdges(ink, x, y0, y1, space);
  const rows: Row[] = [];
  const staffLines = staffLinesAt(staves, x);
  for (let y = y0; y <= y1; y++) {
    // A staff line's rows are a line's, however a scan broke it up.
    const onStaffLine = staffLines.some((ly) => Math.abs(y - ly) <= space * STAFF_LINE_BAND);
    rows.push(onStaffLine ? { left: false, right: false, line: true, leftReach: 0, rightReach: 0 } : rowBeside(ink, y, stem, space));
  }
  const left = bands(rows, 'left', space);
  const right = bands(rows, 'right', space);
  // Each left band pairs with the nearest right band level with it, once.
  const used = new Set<number>();
  const strokes: number[] = [];
  for (const band of left) {
    let best = -1;
    let bestGap = space * BAND_LEVEL;
    right.forEach((other, k) => {
      // Engravers slant a stroke up to the right (or draw it level): its right band stands no lower than its left.
      if (used.has(k) || other.middle - band.middle > space * SLANT_SLACK) return;
      const gap = Math.abs(other.middle - band.middle);
      if (gap <= bestGap) [best, bestGap] = [k, gap];
    });
    if (best < 0) continue;
    const pair = right[best]!;
    // A stroke ends: just past its end there is paper. A slur crossing the stem slantwise goes on, a row or two further along.
    const top = Math.min(band.start, pair.start) - space * OUTER_ROWS;
    const bottom = Math.max(band.end, pair.end) + space * OUTER_ROWS;
    const gap = Math.max(1, Math.round(space * ROW_GAP)) + 1;
    if (inkBeyond(ink, rows, y0, stem.left - band.reach - gap, top, bottom) || inkBeyond(ink, rows, y0, stem.right + pair.reach + gap, top, bottom)) continue;
    used.add(best);
    strokes.push(y0 + (band.middle + pair.middle) / 2);
  }
  // More than an engraver draws is not a tremolo (a stack of something else).
  return strokes.length > MAX_STROKES ? [] : strokes;
}

/**
 * The stem's left and right ink columns (inclusive): the columns most rows'
 * ink runs through x start and end at. With no ink at x in most rows there is
 * no stem, and both are x.
 */
function stemEdges(ink: BinaryImage, x: number, y0: number, y1: number, space: number): { left: number; right: number } {
  const lefts: number[] = [];
  const rights: number[] = [];
  const reach = Math.max(1, Math.round(space * STEM_SEARCH));
  const cx = Math.round(x);
  for (let y = y0; y <= y1; y++) {
    const at = nearestInk(ink, cx, y, reach);
    if (at === undefined) continue;
    let l = at;
    while (l > 0 && ink.data[y * ink.width + l - 1]) l--;
    let r = at;
    while (r < ink.width - 1 && ink.data[y * ink.width + r + 1]) r++;
    lefts.push(l);
    rights.push(r);
  }
  if (lefts.length * 2 < y1 - y0 + 1) return { left: cx, right: cx };
  return { left: median(lefts)!, right: median(rights)! };
}

/** How far the stem's ink goes on from `tip`, going `way` (-1: up): the last row with ink in the stem's column. */
function followStem(ink: BinaryImage, x: number, tip: number, way: 1 | -1, space: number): number {
  const reach = Math.max(1, Math.round(space * STEM_SEARCH));
  let end = tip;
  for (let y = tip + way, n = 0; n < space * TIP_FOLLOW && y >= 0 && y < ink.height; y += way, n++) {
    if (nearestInk(ink, Math.round(x), y, reach) === undefined) break;
    end = y;
  }
  return end;
}

/** Whether column x holds ink in rows [top, bottom] of the stretch (indices from y0), a line's rows left out. */
function inkBeyond(ink: BinaryImage, rows: readonly Row[], y0: number, x: number, top: number, bottom: number): boolean {
  if (x < 0 || x >= ink.width) return false;
  for (let i = Math.max(0, Math.floor(top)); i <= Math.min(rows.length - 1, Math.ceil(bottom)); i++) {
    if (!rows[i]!.line && ink.data[(y0 + i) * ink.width + x]) return true;
  }
  return false;
}

/** The heights of the staff lines at x, of the staves that reach it. */
function staffLinesAt(staves: readonly Staff[], x: number): number[] {
  return staves.filter((staff) => x >= staff.x0 && x <= staff.x1).flatMap((staff) => [0, 1, 2, 3, 4].map((line) => staffLineY(staff, line, x)));
}

function nearestInk(ink: BinaryImage, x: number, y: number, reach: number): number | undefined {
  for (let d = 0; d <= reach; d++) {
    for (const px of d ? [x - d, x + d] : [x]) {
      if (px >= 0 && px < ink.width && ink.data[y * ink.width + px]) return px;
    }
  }
  return undefined;
}

/** How far the ink joined to the stem reaches beside it in row y, each side, bridging hairline gaps. */
function rowBeside(ink: BinaryImage, y: number, stem: { left: number; right: number }, space: number): Row {
  const gap = Math.max(1, Math.round(space * ROW_GAP));
  const lineReach = Math.ceil(space * LINE_REACH);
  const at = (px: number) => px >= 0 && px < ink.width && ink.data[y * ink.width + px] === 1;
  // The stem itself must be inked in this row for anything to be joined to it (where there is no stem,
  // the column asked about must be).
  let touching = false;
  for (let px = stem.left - gap; px <= stem.right + gap; px++) touching ||= at(px);
  if (!touching) return { left: false, right: false, line: false, leftReach: 0, rightReach: 0 };
  const reachFrom = (start: number, step: 1 | -1): number => {
    let last = start;
    let paper = 0;
    for (let px = start + step, n = 0; n <= lineReach + gap; px += step, n++) {
      if (at(px)) {
        last = px;
        paper = 0;
      } else if (++paper > gap) break;
    }
    return Math.abs(last - start);
  };
  const left = reachFrom(stem.left, -1);
  const right = reachFrom(stem.right, 1);
  if (left >= lineReach || right >= lineReach) return { left: false, right: false, line: true, leftReach: left, rightReach: right };
  const min = space * STROKE_MIN_REACH;
  return { left: left >= min, right: right >= min, line: false, leftReach: left, rightReach: right };
}

/** The stroke bands on one side: runs of rows reaching out there (a line's rows neither end nor start one), of a stroke's height. */
function bands(rows: readonly Row[], side: 'left' | 'right', space: number): Band[] {
  const found: Band[] = [];
  let start = -1;
  let end = -1;
  let reach = 0;
  let clear = 0;
  const close = () => {
    if (start >= 0) {
      const height = end - start + 1;
      if (height >= space * BAND_MIN_HEIGHT && clear >= space * BAND_MIN_CLEAR && height <= space * BAND_MAX_HEIGHT) found.push({ start, end, middle: (start + end) / 2, reach });
    }
    start = -1;
    reach = 0;
    clear = 0;
  };
  // Rows right against a line's count towards no band's height: on a scan a staff line is ragged, and
  // its frayed edge reaches out beside the stem on both sides.
  const halo = Math.max(1, Math.round(space * LINE_HALO));
  const nearLine = (i: number) => rows.slice(Math.max(0, i - halo), i + halo + 1).some((r) => r.line);
  rows.forEach((row, i) => {
    if (row[side]) {
      if (start < 0) start = i;
      end = i;
      reach = Math.max(reach, side === 'left' ? row.leftReach : row.rightReach);
      if (!nearLine(i)) clear++;
    } else if (!row.line) close();
  });
  close();
  return found;
}
