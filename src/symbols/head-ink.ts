/**
 * A notehead's size as the ink shows it. The class map is coarse (two page
 * pixels a cell) and its edges blur a little into whatever touches a head (a
 * slur, a beam's stem), so a grace head two thirds the size of a full one
 * can come out of it only a cell narrower, on the wrong side of the line
 * between small and full-size. Across the head's middle rows the ink tells
 * them apart plainly: a full-size black head's row of ink is about 1.2
 * spaces long, a grace or cue head's under 0.9. On a scan the model may
 * paint only part of an eroded head, and its paint comes out narrow the
 * other way: the ink tells that too.
 */
import type { BinaryImage } from '../preparation/binarize.js';

/** The head's rows measured: those within this many spaces of its middle. */
const MIDDLE_ROWS_REACH = 0.25;
/** A row's run is looked for this many pixels either side of the head's middle column. */
const CENTRE_SLACK = 1;
/** A run this many of the class map's head widths long is a staff or ledger line through the head: its row is passed over. */
const LINE_RUN_WIDTHS = 2;
/** A black head whose ink is narrower than this share of the page's black heads' (their median) is small, a grace or cue head. */
const SMALL_INK_SHARE = 0.8;
/**
 * A black head the class map measured small whose ink is at least this share of the page's black heads' is
 * full-size: on a scan the model paints part of a blurred head, and its paint comes out narrow.
 */
const FULL_INK_SHARE = 0.9;
/** The page's black heads are a measure only when there are at least this many. */
const MIN_HEADS = 8;

interface HeadBox {
  x: number;
  y: number;
  kind: string;
  small: boolean;
}

/**
 * Black heads sized by their ink where the class map measured them otherwise: full-size ones whose ink is
 * that of a small head (grace and cue notes) marked small, and small ones whose ink is full-size marked
 * full-size. Other heads are left as they are: a hollow head's middle row is two runs, not one.
 */
export function sizeHeadsByInk<H extends HeadBox>(heads: H[], ink: BinaryImage, space: number, headWidth: number): void {
  const widths = heads.map((h) => (h.kind === 'black' ? inkWidth(ink, h, space, headWidth * LINE_RUN_WIDTHS) : undefined));
  const measured = widths.filter((w): w is number => w !== undefined).sort((a, b) => a - b);
  if (measured.length < MIN_HEADS) return;
  const nominal = measured[measured.length >> 1]!;
  heads.forEach((h, i) => {
    const w = widths[i];
    if (w === undefined) return;
    if (!h.small && w < nominal * SMALL_INK_SHARE) heads[i] = { ...h, small: true };
    else if (h.small && w >= nominal * FULL_INK_SHARE) heads[i] = { ...h, small: false };
  });
}

/** The median length of the ink runs across a head's middle rows (lines through it passed over), or undefined where none is found. */
function inkWidth(ink: BinaryImage, head: HeadBox, space: number, lineRun: number): number | undefined {
  const runs: number[] = [];
  const cx = Math.round(head.x);
  for (let y = Math.round(head.y - space * MIDDLE_ROWS_REACH); y <= Math.round(head.y + space * MIDDLE_ROWS_REACH); y++) {
    if (y < 0 || y >= ink.height) continue;
    let longest = 0;
    for (let x = cx - CENTRE_SLACK; x <= cx + CENTRE_SLACK; x++) longest = Math.max(longest, runThrough(ink, x, y, lineRun));
    if (longest > 0 && longest < lineRun) runs.push(longest);
  }
  if (runs.length < 2) return undefined;
  runs.sort((a, b) => a - b);
  return runs[runs.length >> 1];
}

/** The length of the row of ink through (x, y), 0 on paper; counting stops at `limit`. */
function runThrough(ink: BinaryImage, x: number, y: number, limit: number): number {
  if (x < 0 || x >= ink.width || !ink.data[y * ink.width + x]) return 0;
  const row = y * ink.width;
  let a = x;
  let b = x;
  while (a > 0 && ink.data[row + a - 1] && b - a < limit) a--;
  while (b < ink.width - 1 && ink.data[row + b + 1] && b - a < limit) b++;
  return b - a + 1;
}
