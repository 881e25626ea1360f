/**
 * Raster images as plain data, the form decoded pages take between the
 * decoders, recognition and the thumbnail writer. Plain data so that a page
 * can be transferred to a worker without a codec.
 */
import { OmrError } from '../errors.js';

/**
 * An 8-bit image: `data` holds `height` rows of `width` pixels, top row
 * first, left to right, each pixel `channels` bytes with no row padding, so
 * its length is `width × height × channels`. Channels are gray (1), RGB (3)
 * or RGBA (4, alpha not premultiplied).
 */
export interface Raster {
  width: number;
  height: number;
  channels: 1 | 3 | 4;
  data: Uint8Array;
  /**
   * Drawn from paths and text alone, with no image on it (a PDF page as its engraver wrote it):
   * its staff lines run level and its stems upright, so preparation looks for skew only within a
   * degree, measures no lean, and trusts the lines to be solid.
   */
  vector?: boolean;
}

/** Throws `INVALID_ARGUMENT` unless the raster's sizes and data agree. */
export function assertRaster(raster: Raster): void {
  const { width, height, channels, data } = raster;
  if (!isPositiveInteger(width) || !isPositiveInteger(height)) {
    throw new OmrError('INVALID_ARGUMENT', `raster size must be positive integers, got ${width}×${height}`);
  }
  if (channels !== 1 && channels !== 3 && channels !== 4) {
    throw new OmrError('INVALID_ARGUMENT', `raster must have 1, 3 or 4 channels, got ${String(channels)}`);
  }
  if (data.length !== width * height * channels) {
    throw new OmrError('INVALID_ARGUMENT', `raster data has ${data.length} bytes, expected ${width * height * channels}`);
  }
}

/**
 * Resizes by area averaging: each output pixel is the mean of the input area
 * it covers, input pixels cut by its edges counting by the fraction covered.
 * This is the filter that keeps thin staff lines as lighter lines when
 * shrinking instead of dropping or doubling them.
 *
 * All arithmetic is on integers below 2⁵³ (coverage is measured in units of
 * 1/(input × output size) of a pixel), so results are exact and the same in
 * every JavaScript engine. Works for enlarging too, though there it is just
 * a blocky nearest-neighbour with blended seams.
 */
export function resizeArea(raster: Raster, width: number, height: number): Raster {
  assertRaster(raster);
  if (!isPositiveInteger(width) || !isPositiveInteger(height)) {
    throw new OmrError('INVALID_ARGUMENT', `target size must be positive integers, got ${width}×${height}`);
  }
  const { channels, data } = raster;
  const xs = coverage(raster.width, width);
  const ys = coverage(raster.height, height);
  // Each output pixel covers raster.width × raster.height units; sums stay below 255 × that.
  const area = raster.width * raster.height;
  const out = new Uint8Array(width * height * channels);
  const rowSums = new Float64Array(width * channels);
  const sums = new Float64Array(width * channels);
  for (let y = 0; y < height; y++) {
    sums.fill(0);
    for (let k = 0; k < ys.count[y]!; k++) {
      const sy = ys.first[y]! + k;
      const wy = ys.weights[y]![k]!;
      horizontalSums(data, sy * raster.width * channels, channels, xs, rowSums);
      for (let i = 0; i < sums.length; i++) sums[i]! += rowSums[i]! * wy;
    }
    const base = y * width * channels;
    // Round half up, exactly: the quotient of integers this small is never misrounded across an integer.
    for (let i = 0; i < sums.length; i++) out[base + i] = Math.floor((2 * sums[i]! + area) / (2 * area));
  }
  return { width, height, channels, data: out };
}

/** Which input pixels each output pixel covers along one axis, and by how much. */
interface Coverage {
  /** First input pixel under each output pixel. */
  first: Int32Array;
  /** Number of input pixels under each output pixel. */
  count: Int32Array;
  /** Overlap of each of those input pixels with the output pixel, in the units {@link coverage} describes. */
  weights: Int32Array[];
}

/**
 * Along an axis of `from` input and `to` output pixels, measured in units
 * where input pixel i spans [i·to, (i+1)·to) and output pixel j spans
 * [j·from, (j+1)·from): both tile the same length from·to, and every
 * overlap is a whole number of units.
 */
function coverage(from: number, to: number): Coverage {
  const first = new Int32Array(to);
  const count = new Int32Array(to);
  const weights: Int32Array[] = [];
  for (let j = 0; j < to; j++) {
    const start = j * from;
    const end = start + from;
    const i0 = Math.floor(start / to);
    const i1 = Math.ceil(end / to);
    first[j] = i0;
    count[j] = i1 - i0;
    const w = new Int32Array(i1 - i0);
    for (let i = i0; i < i1; i++) w[i - i0] = Math.min((i + 1) * to, end) - Math.max(i * to, start);
    weights.push(w);
  }
  return { first, count, weights };
}

/** Weighted sums of one input row into the output columns. */
function horizontalSums(data: Uint8Array, rowStart: number, channels: number, xs: Coverage, out: Float64Array): void {
  for (let x = 0; x < xs.first.length; x++) {
    const w = xs.weights[x]!;
    const i0 = xs.first[x]!;
    for (let c = 0; c < channels; c++) {
      let sum = 0;
      for (let k = 0; k < w.length; k++) sum += data[rowStart + (i0 + k) * channels + c]! * w[k]!;
      out[x * channels + c] = sum;
    }
  }
}

function isPositiveInteger(n: number): boolean {
  return Number.isSafeInteger(n) && n > 0;
}
