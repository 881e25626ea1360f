/**
 * Page preparation: decoded page → gray → flattened paper → ink mask; skew
 * and staff size read off the page; the page turned straight and rescaled so
 * that every later stage sees staves of one size, {@link CANONICAL_STAFF_SPACE}.
 *
 * The transform back to the decoded page is kept, so that every recognised
 * element can report its box in the pixels of the page the user gave.
 */
import { OmrError } from '../errors.js';
import { toGray, type GrayImage } from '../image/gray.js';
import type { Raster } from '../image/raster.js';
import { resizeArea } from '../image/raster.js';
import { binarize, inkThreshold, type BinaryImage } from './binarize.js';
import { boldInkExcess, thinInk } from './bold-ink.js';
import { estimateShear, estimateSkew, MAX_SKEW, MAX_VECTOR_SKEW } from './deskew.js';
import { flattenBackground, paperMap } from './normalize.js';
import { shadowedPaper, unevenPaper } from './sharp-shadows.js';
import { measureStaffMetrics, type StaffMetrics } from './staff-metrics.js';
import { staffSpaceFromProfiles } from './staff-space-profile.js';
import { toSourcePoint, type PageTransform } from '../reading/page-transform.js';

/** Staff space of the prepared page, in pixels: enough for dots and thin beams, small enough to be fast. */
export const CANONICAL_STAFF_SPACE = 12;

/** Smallest lean of upright strokes undone (dx per dy). */
const MIN_SHEAR = 0.02;

export interface PreparedPage {
  /** Flattened, straightened and rescaled gray page (ink dark). */
  gray: GrayImage;
  /** Its ink mask (1 = ink). */
  ink: BinaryImage;
  /**
   * Drawn from vectors (a PDF page with no image) at about the size it is read at, not enlarged:
   * its lines are sharp and solid, as engraved.
   */
  sharp: boolean;
  /** Staff-line thickness measured on `ink`, in its pixels. */
  lineThickness: number;
  /**
   * The page as the symbol model looks at it: `gray` itself, or, on a bold scan, `gray` with its ink
   * thinned to the weight music is engraved at (bold-ink.ts). Everything that measures ink (staves,
   * systems, barlines, the page sight) reads the page's own, which thinning would break up, and the mark
   * and staccato models read marks as printed, which thinning wears away.
   */
  forSymbolModel: GrayImage;
  /** Staff metrics measured on the source page, in source pixels. */
  source: StaffMetrics;
  transform: PageTransform;
}

export interface PrepareOptions {
  /** The staff space in the page's pixels, where the page's own estimates are known to miss it ({@link tinyStaffSpace}). */
  staffSpace?: number;
}

export function preparePage(page: Raster, options: PrepareOptions = {}): PreparedPage {
  const source = toGray(page);
  const paper = paperMap(source);
  let flat = flattenBackground(source, paper);
  let threshold = inkThreshold(flat);
  let sourceInk = binarize(flat, threshold);
  const measured = measureStaffMetrics(sourceInk);
  // Not one line of ink with paper below it: a blank page, or one of specks. Its "staff space" would
  // be noise, and scaling by it could blow the page up sixteenfold before the staves are looked for.
  if (measured.confidence === 0) throw new OmrError('NO_MUSIC_DETECTED', 'This page shows no lines at all, so no music staves were found. Check that it is a page of printed music, in focus and not cropped.');
  const metrics = options.staffSpace ? withStaffSpace(measured, options.staffSpace) : plausibleMetrics(measured, flat);
  if (unevenPaper(paper)) {
    // A photo: its shadows may have sharp edges the block estimate smears; the staff size now known
    // sizes the pixel-exact one.
    flat = flattenBackground(source, paper, shadowedPaper(source, paper, metrics.staffSpace));
    threshold = inkThreshold(flat);
    sourceInk = binarize(flat, threshold);
  }
  const skew = estimateSkew(sourceInk, metrics.lineThickness, page.vector ? MAX_VECTOR_SKEW : MAX_SKEW);
  // The stems of a page drawn from vectors stand as engraved; on a scan or photo their lean is measured.
  const lean = page.vector ? 0 : estimateShear(sourceInk, skew, metrics.lineThickness, metrics.staffSpace);
  // Below a degree or so the lean is the measurement's own noise, and a scan's stems stand upright.
  const shear = Math.abs(lean) >= MIN_SHEAR ? lean : 0;
  const scale = CANONICAL_STAFF_SPACE / metrics.staffSpace;
  const gray = straighten(flat, skew, shear, scale);
  // The realised scale, after rounding to whole pixels.
  const transform: PageTransform = { sourceWidth: page.width, sourceHeight: page.height, scale: gray.width / page.width, skew, width: gray.width, height: gray.height };
  if (shear) transform.shear = shear;
  const sharp = !!page.vector && 1 / transform.scale >= ENLARGING;
  const ink = binarize(gray, threshold);
  // A sharp page's lines are as engraved, and as the source measured them; any other's are measured as prepared.
  const lineThickness = sharp ? Math.max(1, Math.round(metrics.lineThickness * transform.scale)) : measureStaffMetrics(ink).lineThickness;
  const excess = page.vector ? 0 : boldInkExcess(lineThickness, CANONICAL_STAFF_SPACE);
  return { gray, ink, sharp, lineThickness, forSymbolModel: thinInk(gray, excess), source: metrics, transform };
}

/**
 * Staff lines are thin next to the space between them. When the run-length
 * estimate says otherwise, the light lines of a noisy scan fell apart in
 * binarisation and beams were measured instead: the staff space is then
 * read from the gray levels (staff-space-profile.ts), and the thickness
 * capped to what a staff line can be.
 */
function plausibleMetrics(metrics: StaffMetrics, flat: GrayImage): StaffMetrics {
  if (metrics.lineThickness <= metrics.staffSpace * 0.3) return metrics;
  const staffSpace = staffSpaceFromProfiles(flat);
  return staffSpace ? withStaffSpace(metrics, staffSpace) : metrics;
}

/** The metrics with another staff space, and the thickness capped to what a staff line of that space can be. */
function withStaffSpace(metrics: StaffMetrics, staffSpace: number): StaffMetrics {
  return { ...metrics, staffSpace, lineThickness: Math.max(1, Math.min(metrics.lineThickness, Math.round(staffSpace * 0.2))) };
}

/**
 * Smallest staff space, in pixels, that the run-length and profile estimates see. Below it a staff
 * line and the paper above it blur into one gray band, and both estimates fall on something else.
 */
const SMALLEST_ESTIMATED_SPACE = 5;
/** Periods looked for, in pixels, on a page with staves under that size: from one over this up. */
const TINY_MIN_SPACE = 2;
/**
 * Width, in pixels, of the strips whose rows are profiled there: narrow, so that a line tilted by 7°
 * drifts less than a pixel across one and a space of three or four pixels still shows.
 */
const TINY_STRIP = 8;

/**
 * The staff space of a page whose staves are smaller than the usual estimates see (a whole page of a
 * score photographed from afar), from the period of its rows' darkness; undefined when that period is
 * not below {@link SMALLEST_ESTIMATED_SPACE}. Worth asking only once staves were looked for and not found.
 */
export function tinyStaffSpace(page: Raster): number | undefined {
  const source = toGray(page);
  const space = staffSpaceFromProfiles(flattenBackground(source, paperMap(source)), TINY_MIN_SPACE, TINY_STRIP);
  return space !== undefined && space < SMALLEST_ESTIMATED_SPACE ? space : undefined;
}

/**
 * Carries a label image (one class index per pixel) of the decoded page into
 * the prepared page, by nearest neighbour so class indices never blend: the
 * training labels then line up with exactly what recognition sees.
 */
export function transformLabels(labels: GrayImage, t: PageTransform): GrayImage {
  const out = new Uint8Array(t.width * t.height);
  for (let y = 0; y < t.height; y++) {
    for (let x = 0; x < t.width; x++) {
      const [sx, sy] = toSourcePoint(t, x + 0.5, y + 0.5);
      const ix = Math.floor(sx);
      const iy = Math.floor(sy);
      if (ix >= 0 && iy >= 0 && ix < labels.width && iy < labels.height) out[y * t.width + x] = labels.data[iy * labels.width + ix]!;
    }
  }
  return { width: t.width, height: t.height, data: out };
}

/** Source pixels per output pixel below which the page is sampled bicubically (see straighten). */
const ENLARGING = 0.85;

/**
 * Rotates by −skew, shears upright and scales in one resampling. Strong reductions are area
 * averaged first, since bilinear sampling alone would drop thin lines. Enlargements (a photo
 * or scan whose staff space is under 10 px) are sampled bicubically: bilinear sampling blurs
 * each source pixel across as many output pixels as the scale, and on a 5 px staff the ledger
 * lines, chord heads and beams of a page run together; the cubic keeps their edges.
 */
function straighten(image: GrayImage, skew: number, shear: number, scale: number): GrayImage {
  let src = image;
  if (scale < 0.75) {
    const w = Math.max(1, Math.round(image.width * scale));
    const h = Math.max(1, Math.round(image.height * scale));
    const r = resizeArea({ width: image.width, height: image.height, channels: 1, data: image.data }, w, h);
    src = { width: r.width, height: r.height, data: r.data };
    scale = w / image.width;
  }
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  if (Math.abs(skew) < 0.01 && !shear && src.width === width && src.height === height) return src;
  if (Math.abs(skew) < 0.01 && !shear) return rescale(src, width, height);
  const a = (skew * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const k = src.width / width; // source pixels per output pixel
  const out = new Uint8Array(width * height);
  const sw = src.width;
  const sh = src.height;
  const data = src.data;
  // The cubic weights of each sample, in two buffers kept for the whole page (not two arrays a pixel).
  const wx = new Float64Array(4);
  const wy = new Float64Array(4);
  for (let y = 0; y < height; y++) {
    const cy = y + 0.5 - height / 2;
    for (let x = 0; x < width; x++) {
      const cx = x + 0.5 - width / 2 + shear * cy;
      // Inverse map: output (straight) → source (skewed): lean again, then rotate by +skew.
      const sx = (cx * cos - cy * sin) * k + sw / 2 - 0.5;
      const sy = (cx * sin + cy * cos) * k + sh / 2 - 0.5;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 >= sw - 1 || y0 >= sh - 1) {
        out[y * width + x] = 255;
        continue;
      }
      const fx = sx - x0;
      const fy = sy - y0;
      if (k < ENLARGING && x0 >= 1 && y0 >= 1 && x0 < sw - 2 && y0 < sh - 2) {
        cubicWeights(fx, wx);
        cubicWeights(fy, wy);
        out[y * width + x] = cubicSample(data, sw, x0, y0, wx, 0, wy);
        continue;
      }
      out[y * width + x] = bilinearSample(data, sw, x0, y0, fx, fy);
    }
  }
  return { width, height, data: out };
}

/**
 * {@link straighten} of a page that needs neither turning nor shearing, only scaling (a PDF's, most
 * scans'): each output column samples the same source columns on every row, and each row the same
 * source rows, so where and how to sample is worked out once a column and once a row. An enlarging
 * cubic is separable: each source row's horizontal sums are worked out once (not once for each of
 * the four output rows that use it) and then weighted down the column, in the very order of
 * {@link cubicSample}'s operations, so the pixels are those the general loop gives, bit for bit.
 */
export function rescale(src: GrayImage, width: number, height: number): GrayImage {
  const { width: sw, height: sh, data } = src;
  const k = sw / width;
  const cubicSampled = k < ENLARGING;
  const along = (count: number, sourceCount: number) => {
    const first = new Int32Array(count);
    const fraction = new Float64Array(count);
    const weights = new Float64Array(4 * count);
    for (let n = 0; n < count; n++) {
      const at = (n + 0.5 - count / 2) * k + sourceCount / 2 - 0.5;
      first[n] = Math.floor(at);
      fraction[n] = at - first[n]!;
      if (cubicSampled) cubicWeights(fraction[n]!, weights.subarray(4 * n, 4 * n + 4));
    }
    return { first, fraction, weights };
  };
  const columns = along(width, sw);
  const rows = along(height, sh);
  // The columns whose four source columns lie on the page (x0 grows with x): one run of them.
  let cubicStart = 0;
  while (cubicStart < width && columns.first[cubicStart]! < 1) cubicStart++;
  let cubicEnd = cubicStart;
  while (cubicEnd < width && columns.first[cubicEnd]! < sw - 2) cubicEnd++;
  const horizontal = cubicSampled ? new HorizontalSums(data, sw, columns.first, columns.weights, cubicStart, cubicEnd) : undefined;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const y0 = rows.first[y]!;
    const fy = rows.fraction[y]!;
    const line = y * width;
    const edge = (x: number) => {
      const x0 = columns.first[x]!;
      out[line + x] = x0 < 0 || y0 < 0 || x0 >= sw - 1 || y0 >= sh - 1 ? 255 : bilinearSample(data, sw, x0, y0, columns.fraction[x]!, fy);
    };
    if (!horizontal || y0 < 1 || y0 >= sh - 2) {
      for (let x = 0; x < width; x++) edge(x);
      continue;
    }
    for (let x = 0; x < cubicStart; x++) edge(x);
    const h0 = horizontal.row(y0 - 1);
    const h1 = horizontal.row(y0);
    const h2 = horizontal.row(y0 + 1);
    const h3 = horizontal.row(y0 + 2);
    const wy0 = rows.weights[4 * y]!;
    const wy1 = rows.weights[4 * y + 1]!;
    const wy2 = rows.weights[4 * y + 2]!;
    const wy3 = rows.weights[4 * y + 3]!;
    for (let x = cubicStart; x < cubicEnd; x++) {
      let v = 0;
      v += wy0 * h0[x]!;
      v += wy1 * h1[x]!;
      v += wy2 * h2[x]!;
      v += wy3 * h3[x]!;
      out[line + x] = Math.max(0, Math.min(255, Math.round(v)));
    }
    for (let x = cubicEnd; x < width; x++) edge(x);
  }
  return { width, height, data: out };
}

/**
 * The horizontal half of an enlarging cubic: for a source row, each output column's weighted sum of
 * its four source pixels, as {@link cubicSample} forms it. The four rows an output row needs are
 * kept; output rows go down the page, so each source row is summed once.
 */
class HorizontalSums {
  private readonly sums: Float64Array[];
  private readonly held = new Int32Array(4).fill(-1);

  constructor(
    private readonly data: Uint8Array,
    private readonly sw: number,
    private readonly first: Int32Array,
    private readonly weights: Float64Array,
    private readonly start: number,
    private readonly end: number,
  ) {
    this.sums = Array.from({ length: 4 }, () => new Float64Array(first.length));
  }

  /** The sums of source row `r` (1 ≤ r) in columns [start, end), those whose four source pixels lie on the page. */
  row(r: number): Float64Array {
    const slot = r & 3;
    const sums = this.sums[slot]!;
    if (this.held[slot] === r) return sums;
    this.held[slot] = r;
    const { data, first, weights } = this;
    const before = r * this.sw - 1;
    for (let x = this.start; x < this.end; x++) {
      const i = before + first[x]!;
      const w = 4 * x;
      sums[x] = weights[w]! * data[i]! + weights[w + 1]! * data[i + 1]! + weights[w + 2]! * data[i + 2]! + weights[w + 3]! * data[i + 3]!;
    }
    return sums;
  }
}

/**
 * The Catmull-Rom sample of `data` (rows `sw` wide) at source pixel (x0, y0) plus fractions whose
 * weights are `wx` from index `at` and `wy`, clamped to a byte.
 */
function cubicSample(data: Uint8Array, sw: number, x0: number, y0: number, wx: Float64Array, at: number, wy: Float64Array): number {
  let v = 0;
  for (let j = 0; j < 4; j++) {
    const row = (y0 - 1 + j) * sw + x0 - 1;
    v += wy[j]! * (wx[at]! * data[row]! + wx[at + 1]! * data[row + 1]! + wx[at + 2]! * data[row + 2]! + wx[at + 3]! * data[row + 3]!);
  }
  return Math.max(0, Math.min(255, Math.round(v)));
}

/** The bilinear sample of `data` (rows `sw` wide) at source pixel (x0, y0) plus fractions (fx, fy). */
function bilinearSample(data: Uint8Array, sw: number, x0: number, y0: number, fx: number, fy: number): number {
  const i = y0 * sw + x0;
  const top = data[i]! + (data[i + 1]! - data[i]!) * fx;
  const bottom = data[i + sw]! + (data[i + sw + 1]! - data[i + sw]!) * fx;
  return Math.round(top + (bottom - top) * fy);
}

/** Catmull-Rom weights of the four samples around a point at fraction t past the second. */
export function cubic(t: number): [number, number, number, number] {
  const w = cubicWeights(t, new Float64Array(4));
  return [w[0]!, w[1]!, w[2]!, w[3]!];
}

/** {@link cubic}, written into `w`. */
function cubicWeights(t: number, w: Float64Array): Float64Array {
  const t2 = t * t;
  const t3 = t2 * t;
  w[0] = (-t3 + 2 * t2 - t) / 2;
  w[1] = (3 * t3 - 5 * t2 + 2) / 2;
  w[2] = (-3 * t3 + 4 * t2 + t) / 2;
  w[3] = (t3 - t2) / 2;
  return w;
}
