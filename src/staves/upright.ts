/**
 * Which way up a page is, and the page turned upright before it is read.
 *
 * Staff lines run across an upright page, so a page turned a quarter shows
 * no staves until it is turned back. A page upside down still shows its
 * staves, but every staff then has its clef, key and time signature at the
 * right end: upright, a staff holds much more ink just after its start (the
 * clef) than just before its end (a barline and some space). A page is only
 * turned when most of its staves agree, so a page it cannot tell is read
 * as it came.
 */
import { OmrError } from '../errors.js';
import type { Raster } from '../image/raster.js';
import { orientRaster } from '../input/orientation.js';
import type { BinaryImage } from '../preparation/binarize.js';
import { CANONICAL_STAFF_SPACE, preparePage, tinyStaffSpace, type PreparedPage } from '../preparation/prepare-page.js';
import { staffLineY, type Staff } from './detect-staves.js';
import { findStaves } from './find-staves.js';

/** Start of the window compared at each end of a staff, in staff spaces from the end: past its barline. */
const END_WINDOW_FROM = 0.6;
/** End of that window, in staff spaces from the end: a clef and the start of a key signature. */
const END_WINDOW_TO = 4;
/** The window reaches this far above the top line and below the bottom one, in staff spaces. */
const END_WINDOW_MARGIN = 0.3;
/**
 * A page is upside down when its staves' median log ratio of start ink to end ink is below minus
 * this. Upright engraved pages of the dev set (303, four engravers) all stand above +0.1; the same
 * pages turned stand below −0.06, most below −0.4.
 */
const UPSIDE_DOWN_LOG_RATIO = 0.2;
/** …and no more than this share of its staves hold more ink at their start. */
const UPSIDE_DOWN_SHARE = 0.25;

/** Clockwise quarter turns applied to the page as decoded, in degrees. */
export type PageTurn = 0 | 90 | 180 | 270;

export interface UprightPage {
  prepared: PreparedPage;
  staves: Staff[];
  /** How far the decoded page was turned, clockwise, to stand upright. */
  turned: PageTurn;
  /**
   * The staff space, in the decoded page's pixels, of staves smaller than the page's staff-size
   * estimates see ({@link tinyStaffSpace}); absent on pages of ordinary size.
   */
  tinyStaffSpace?: number;
}

/** Exif orientations that turn a raster clockwise by each amount. */
const TURNS = { 90: 6, 180: 3, 270: 8 } as const;

/**
 * The page prepared and its staves found, turned upright first when it came turned. Throws
 * NO_MUSIC_DETECTED (or UNSUPPORTED_TABLATURE) as findStaves does when no way up shows staves.
 */
export function uprightPage(raster: Raster): UprightPage {
  const read = (turn: PageTurn, staffSpace?: number): UprightPage => {
    const prepared = preparePage(turn ? orientRaster(raster, TURNS[turn]) : raster, { staffSpace });
    const staves = findStaves(prepared.ink, prepared.gray, CANONICAL_STAFF_SPACE, prepared.sharp, prepared.lineThickness);
    return { prepared, staves, turned: turn, ...(staffSpace ? { tinyStaffSpace: staffSpace } : {}) };
  };
  let page: UprightPage | undefined;
  try {
    page = read(0);
  } catch (err) {
    if (!(err instanceof OmrError) || err.code !== 'NO_MUSIC_DETECTED') throw err;
    // No staves where the page's staff size was estimated: they may be smaller than the estimates see,
    // or the page may lie on its side.
    const tiny = tinyStaffSpace(raster);
    page = (tiny ? readOrNothing(() => read(0, tiny)) : undefined) ?? readOrNothing(() => read(90));
    if (!page) throw err;
  }
  if (!upsideDown(page.prepared.ink, page.staves, CANONICAL_STAFF_SPACE)) return page;
  return read(((page.turned + 180) % 360) as PageTurn, page.tinyStaffSpace);
}

/** The page read, or undefined where the reading found no music. */
function readOrNothing(read: () => UprightPage): UprightPage | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** Whether most staves hold their clefs at their right end: the page is upside down. */
export function upsideDown(ink: BinaryImage, staves: readonly Staff[], space: number): boolean {
  if (!staves.length) return false;
  const ratios = staves.map((staff) => Math.log((endInk(ink, staff, space, 'start') + 1) / (endInk(ink, staff, space, 'end') + 1))).sort((a, b) => a - b);
  const median = ratios[ratios.length >> 1]!;
  const startHeavy = ratios.filter((r) => r > 0).length / ratios.length;
  return median < -UPSIDE_DOWN_LOG_RATIO && startHeavy <= UPSIDE_DOWN_SHARE;
}

/** Ink pixels within a staff's height (and a margin) near one of its ends, the staff lines included. */
export function endInk(ink: BinaryImage, staff: Staff, space: number, end: 'start' | 'end'): number {
  const [from, to] = end === 'start'
    ? [staff.x0 + END_WINDOW_FROM * space, staff.x0 + END_WINDOW_TO * space]
    : [staff.x1 - END_WINDOW_TO * space, staff.x1 - END_WINDOW_FROM * space];
  const { width, height, data } = ink;
  let count = 0;
  for (let x = Math.max(0, Math.round(from)); x < Math.min(width, Math.round(to)); x++) {
    const top = Math.max(0, Math.round(staffLineY(staff, 0, x) - END_WINDOW_MARGIN * space));
    const bottom = Math.min(height - 1, Math.round(staffLineY(staff, 4, x) + END_WINDOW_MARGIN * space));
    for (let y = top; y <= bottom; y++) count += data[y * width + x]!;
  }
  return count;
}
