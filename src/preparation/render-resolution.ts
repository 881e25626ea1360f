/**
 * The resolution a PDF page is rasterised at, chosen from its staff size
 * rather than from its nominal size. Pages are prepared at a staff space of
 * {@link CANONICAL_STAFF_SPACE} pixels:
 * - a page whose staves come out smaller at its first rendering is rendered
 *   again where they come out at the canonical size, so a dense score with
 *   small staves is drawn sharp by the renderer instead of enlarged from too
 *   few pixels;
 * - a page whose staves come out more than twice as large (large staves, a
 *   huge page) is rendered again at twice the canonical size, which costs
 *   the pixels its music needs, not those its paper size asks for, and still
 *   leaves preparation an area-averaged reduction;
 * - any other page keeps its first rendering: reducing it by a little keeps
 *   the renderer's smoothing of its edges.
 */
import { toGray } from '../image/gray.js';
import type { Raster } from '../image/raster.js';
import { binarize } from './binarize.js';
import { CANONICAL_STAFF_SPACE } from './prepare-page.js';
import { measureStaffMetrics } from './staff-metrics.js';

/** Smallest staff space, as a share of the canonical one, that keeps the first rendering: preparation enlarges it by a little. */
const SMALLEST_KEPT = 0.9;
/** Largest staff space, in canonical staff spaces, that keeps the first rendering, and what larger ones are rendered at. */
const LARGEST_KEPT = 2;
/** Lowest resolution chosen: below it titles and lyrics are too small to read. */
const MIN_DPI = 72;
/** Highest resolution chosen: staves smaller than a staff space of about 4.5 px at 200 dpi are not music this reads. */
const MAX_DPI = 600;
/** Staff-line thickness above this share of the staff space: no staff was measured (a page of text, a picture). */
const MAX_LINE_SHARE = 0.3;
/**
 * Thickness, in pixels, that any staff line may show: one thinner than a pixel still covers two
 * rows once smoothed, so on small staves two rows say nothing against them.
 */
const SMOOTHED_LINE_PIXELS = 2;

/**
 * The resolution `page` should be rendered at, given it was rendered at
 * `dpi`: `dpi` itself where its staff space is within the kept range or
 * cannot be measured, else the resolution that gives small staves the
 * canonical staff space and large ones twice it.
 */
export function staffSizedDpi(page: Raster, dpi: number): number {
  const metrics = measureStaffMetrics(binarize(toGray(page)));
  if (metrics.confidence === 0 || metrics.lineThickness > Math.max(SMOOTHED_LINE_PIXELS, metrics.staffSpace * MAX_LINE_SHARE)) return dpi;
  const space = metrics.staffSpace / CANONICAL_STAFF_SPACE;
  const wanted = space < SMALLEST_KEPT ? 1 : space > LARGEST_KEPT ? LARGEST_KEPT : space;
  if (wanted === space) return dpi;
  return Math.round(Math.min(MAX_DPI, Math.max(MIN_DPI, (dpi * wanted) / space)));
}
