/**
 * Paper flattening for photos with sharp shadows (a phone's or a hand's
 * shadow across the page, the page's own edge against the table).
 *
 * normalize.ts estimates the paper from blocks and smooths the estimate, so
 * it follows soft light but not an edge: beside a sharp shadow the dark side
 * is divided by the bright side's paper and stays dark, and a band of the
 * page turns to solid ink. Here the paper is estimated pixel by pixel as the
 * gray morphological closing of the page, a maximum then a minimum over a
 * square a few staff spaces wide: every dark mark narrower than the square
 * (stems, heads, beams, letters) is lifted to the paper around it, while a
 * shadow, wider than the square, keeps its exact outline. Where it is darker
 * than the block estimate (inside a shadow's edge) it takes over, so the
 * shadow is flattened edge and all, and elsewhere nothing changes.
 *
 * It costs four passes over the page (at half resolution), so it runs only
 * where the block estimate found the paper's brightness uneven (see
 * {@link unevenPaper}).
 */
import type { GrayImage } from '../image/gray.js';
import type { PaperMap } from './normalize.js';

/** Half the closing's square, in staff spaces: wider than a cluster of heads or a stack of beams. */
const CLOSING_RADIUS_SPACES = 2;

/**
 * The paper's brightness at each pixel, as the page's closing: what the page
 * would be with every mark narrower than a few staff spaces lifted away.
 * Where that is darker than a third of the page's paper it is not paper in
 * shadow but the table around the page, too dark to hold anything readable:
 * there it gives way to the block estimate (255 here), which keeps the table
 * one solid dark area rather than a field of noise beside the staves.
 */
export function shadowedPaper(image: GrayImage, map: PaperMap, staffSpace: number): Uint8Array {
  const { width, height } = image;
  // The closing runs at half resolution (a quarter of the work): a 2 × 2 maximum first, so no mark
  // thins away, and a shadow's outline is still placed within a pixel or two.
  const half = maxPool2(image);
  const w = half.width;
  const h = half.height;
  const radius = Math.max(2, Math.round((CLOSING_RADIUS_SPACES * staffSpace) / 2));
  let closed = slide(half.data, w, h, radius, true, true);
  closed = slide(closed, w, h, radius, false, true);
  closed = slide(closed, w, h, radius, true, false);
  closed = slide(closed, w, h, radius, false, false);
  const floor = SHADOW_FLOOR * quantile(map.levels, 0.95);
  const paper = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = (y >> 1) * w;
    for (let x = 0; x < width; x++) {
      const v = closed[row + (x >> 1)]!;
      paper[y * width + x] = v < floor ? 255 : v;
    }
  }
  return paper;
}

/** The image at half size, each pixel the brightest of its 2 × 2 block. */
function maxPool2(image: GrayImage): GrayImage {
  const { width, height, data } = image;
  const w = Math.ceil(width / 2);
  const h = Math.ceil(height / 2);
  const out = new Uint8Array(w * h);
  for (let y = 0; y < height; y++) {
    const row = (y >> 1) * w;
    for (let x = 0; x < width; x++) {
      const v = data[y * width + x]!;
      const i = row + (x >> 1);
      if (v > out[i]!) out[i] = v;
    }
  }
  return { width: w, height: h, data: out };
}

/** The darkest shadow read through, as a share of the page's brightest paper. */
const SHADOW_FLOOR = 0.35;

/**
 * Whether the paper's brightness varies much across the page, judged from
 * its block map: a clean PDF or a flat scan holds within a few levels, a
 * photo with a shadow or the table around it does not.
 */
export function unevenPaper(map: PaperMap): boolean {
  return quantile(map.levels, 0.95) - quantile(map.levels, 0.05) > UNEVEN_LEVELS;
}

/** Spread of the block paper levels (5th to 95th percentile) beyond which the page counts as unevenly lit. */
const UNEVEN_LEVELS = 40;

function quantile(values: ArrayLike<number>, q: number): number {
  const sorted = Array.from(values).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0;
}

/**
 * The maximum (or minimum) of each pixel's row or column neighbourhood of
 * `radius`, by van Herk and Gil–Werman's method: prefix and suffix extremes
 * within blocks of the window's length, so each pixel costs three
 * comparisons whatever the radius.
 */
function slide(src: Uint8Array, width: number, height: number, radius: number, horizontal: boolean, max: boolean): Uint8Array {
  const out = new Uint8Array(src.length);
  const length = horizontal ? width : height;
  const lines = horizontal ? height : width;
  const step = horizontal ? 1 : width;
  const window = 2 * radius + 1;
  // The line padded by `radius` on each side with the neutral value, so windows at the ends clip.
  const neutral = max ? 0 : 255;
  const pick = max ? (a: number, b: number) => (a > b ? a : b) : (a: number, b: number) => (a < b ? a : b);
  const padded = new Uint8Array(length + 2 * radius);
  const prefix = new Uint8Array(padded.length);
  const suffix = new Uint8Array(padded.length);
  for (let line = 0; line < lines; line++) {
    const start = horizontal ? line * width : line;
    padded.fill(neutral);
    for (let k = 0, i = start; k < length; k++, i += step) padded[k + radius] = src[i]!;
    for (let k = 0; k < padded.length; k++) prefix[k] = k % window === 0 ? padded[k]! : pick(prefix[k - 1]!, padded[k]!);
    for (let k = padded.length - 1; k >= 0; k--) suffix[k] = k === padded.length - 1 || (k + 1) % window === 0 ? padded[k]! : pick(suffix[k + 1]!, padded[k]!);
    // The window of output k is padded[k … k + 2·radius]: the suffix of its first block and the prefix of its last.
    for (let k = 0, i = start; k < length; k++, i += step) out[i] = pick(suffix[k]!, prefix[k + window - 1]!);
  }
  return out;
}
