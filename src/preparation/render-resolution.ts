/**
 * The resolution a PDF page is rasterised at, chosen from its staff size
 * rather than from its nominal size: pages are prepared at a staff space of
 * {@link CANONICAL_STAFF_SPACE} pixels, so a page whose staves come out far
 * from that at its first rendering is rendered again where they come out at
 * it. A dense score with small staves is then drawn sharp by the renderer
 * instead of enlarged from too few pixels, and a page of large staves (or a
 * huge page) costs the pixels its music needs, not those its paper size
 * asks for.
 */
import { toGray } from '../image/gray.js';
import type { Raster } from '../image/raster.js';
import { binarize } from './binarize.js';
import { CANONICAL_STAFF_SPACE } from './prepare-page.js';
import { measureStaffMetrics } from './staff-metrics.js';

/** Staff space off the canonical one by no more than this share keeps the first rendering: preparation rescales it anyway. */
const KEEP_WITHIN = 0.1;
/** Lowest resolution chosen: below it titles and lyrics are too small to read. */
const MIN_DPI = 72;
/** Highest resolution chosen: staves smaller than a staff space of about 4.5 px at 200 dpi are not music this reads. */
const MAX_DPI = 600;
/** Staff-line thickness above this share of the staff space: no staff was measured (a page of text, a picture). */
const MAX_LINE_SHARE = 0.3;

/**
 * The resolution page should be rendered at, given it was rendered at
 * `dpi`: `dpi` itself where its staff space is close to the canonical one
 * or cannot be measured, else the resolution that gives the canonical one.
 */
export function staffSizedDpi(page: Raster, dpi: number): number {
  const metrics = measureStaffMetrics(binarize(toGray(page)));
  if (metrics.confidence === 0 || metrics.lineThickness > metrics.staffSpace * MAX_LINE_SHARE) return dpi;
  const ratio = CANONICAL_STAFF_SPACE / metrics.staffSpace;
  if (Math.abs(ratio - 1) <= KEEP_WITHIN) return dpi;
  return Math.round(Math.min(MAX_DPI, Math.max(MIN_DPI, dpi * ratio)));
}
