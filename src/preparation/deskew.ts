/**
 * Skew estimation. Staff lines are the longest straight things on a music
 * page: when the page is turned by the right angle, the row profile of its
 * ink has the sharpest peaks. The angle is found coarse-to-fine on a reduced
 * page, shearing rows instead of rotating (identical for the small angles a
 * scanner or a careful photo gives).
 */
import type { BinaryImage } from './binarize.js';

/** Largest skew looked for, in degrees. */
export const MAX_SKEW = 15;

/**
 * Largest skew looked for on a page drawn from vectors, in degrees: its staff lines are drawn
 * level, so only the measurement's own wobble (a few hundredths) is left to find.
 */
export const MAX_VECTOR_SKEW = 1;

/**
 * The angle in degrees by which the page content is rotated clockwise (y down); rotate by its
 * negative to straighten. Angles up to `span` either way are looked for.
 */
export function estimateSkew(image: BinaryImage, lineThickness: number, span = MAX_SKEW): number {
  // Only thin strokes vote: staff lines are thin, while the thick edge of a photographed page, a
  // shadow or a filled box is long and straight too and would win otherwise.
  const thin = thinStrokes(image, Math.max(3, Math.ceil(2 * lineThickness)));
  const { width, height } = image;
  let count = 0;
  for (let i = 0; i < thin.length; i++) count += thin[i]!;
  // About 200k sampled points keeps this fast on any page size.
  const keepEvery = Math.max(1, Math.floor(count / 200_000));
  const xs = new Float64Array(Math.ceil(count / keepEvery));
  const ys = new Float64Array(xs.length);
  let k = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0, i = y * width; x < width; x++, i++) {
      if (thin[i] && k++ % keepEvery === 0) {
        xs[(k - 1) / keepEvery] = x - width / 2;
        ys[(k - 1) / keepEvery] = y;
      }
    }
  }
  if (xs.length < 100) return 0;
  const rows = new Float64Array(height * 2 + 1);
  const sharpness = (degrees: number) => {
    const t = Math.tan((degrees * Math.PI) / 180);
    rows.fill(0);
    for (let i = 0; i < xs.length; i++) {
      const r = Math.round(ys[i]! - xs[i]! * t + height / 2);
      if (r >= 0 && r < rows.length) rows[r]!++;
    }
    return sumOfSquares(rows);
  };
  return Math.round(sharpest(sharpness, span, [0.5, 0.1, 0.02]) * 100) / 100;
}

/** Σ v²: large when the counts gather in a few bins (sharp peaks), small when they spread. */
function sumOfSquares(bins: Float64Array): number {
  let s = 0;
  for (let i = 0; i < bins.length; i++) s += bins[i]! * bins[i]!;
  return s;
}

/**
 * The value in [−span, span] where `score` peaks, coarse to fine: every
 * `steps[0]` over the whole span, then each finer step within five of it
 * around the best so far.
 */
function sharpest(score: (value: number) => number, span: number, steps: readonly number[]): number {
  let best = 0;
  steps.forEach((step, k) => {
    const reach = k === 0 ? span : step * 5;
    let bestScore = -1;
    let bestValue = best;
    for (let v = best - reach; v <= best + reach + 1e-9; v += step) {
      const s = score(v);
      if (s > bestScore) {
        bestScore = s;
        bestValue = v;
      }
    }
    best = bestValue;
  });
  return best;
}

/**
 * Ink pixels whose vertical run is at most `maxRun` long. The page is read row by row (each column's
 * open run remembered), as memory lies, rather than column by column.
 */
function thinStrokes(image: BinaryImage, maxRun: number): Uint8Array {
  const { width, height, data } = image;
  const out = new Uint8Array(data.length);
  const runStart = new Int32Array(width).fill(-1);
  const close = (x: number, end: number) => {
    if (end - runStart[x]! <= maxRun) for (let y = runStart[x]!; y < end; y++) out[y * width + x] = 1;
    runStart[x] = -1;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0, i = y * width; x < width; x++, i++) {
      if (data[i]) {
        if (runStart[x]! < 0) runStart[x] = y;
      } else if (runStart[x]! >= 0) close(x, y);
    }
  }
  for (let x = 0; x < width; x++) if (runStart[x]! >= 0) close(x, height);
  return out;
}

/** Ink pixels in runs of ink at most `maxRun` long along rows. */
function shortRows(image: BinaryImage, maxRun: number): Uint8Array {
  const { width, height, data } = image;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    const first = y * width;
    let x = 0;
    while (x < width) {
      if (!data[first + x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < width && data[first + x]) x++;
      if (x - start <= maxRun) out.fill(1, first + start, first + x);
    }
  }
  return out;
}

/** Largest lean of upright strokes looked for, as dx per dy (about 14°). */
export const MAX_SHEAR = 0.25;

/**
 * Lean of the page's upright strokes (stems and barlines) once it is turned
 * by `skew`, as dx per dy (positive: leaning right going down). A photo
 * taken at an angle shows its page in perspective: straightened so the
 * staff lines run level, its barlines still lean, and every stage after
 * expects them upright. As for the skew, the shear that gives the column
 * profile of tall, thin strokes its sharpest peaks is the one to undo.
 */
export function estimateShear(image: BinaryImage, skew: number, lineThickness: number, staffSpace: number): number {
  const upright = uprightStrokes(image, Math.max(3, Math.ceil(2 * lineThickness)), Math.max(4, Math.round(staffSpace * 0.8)));
  const { width, height } = image;
  let count = 0;
  for (let i = 0; i < upright.length; i++) count += upright[i]!;
  if (count < 200) return 0;
  const keepEvery = Math.max(1, Math.floor(count / 200_000));
  const a = (skew * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const us = new Float64Array(Math.ceil(count / keepEvery));
  const vs = new Float64Array(us.length);
  let k = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0, i = y * width; x < width; x++, i++) {
      if (!upright[i] || k++ % keepEvery !== 0) continue;
      // Into the straightened frame (rotated by −skew about the centre), as the prepared page will be.
      const cx = x - width / 2;
      const cy = y - height / 2;
      us[(k - 1) / keepEvery] = cx * cos + cy * sin;
      vs[(k - 1) / keepEvery] = -cx * sin + cy * cos;
    }
  }
  const offset = width + height;
  const columns = new Float64Array(2 * offset + 1);
  const sharpness = (shear: number) => {
    columns.fill(0);
    for (let i = 0; i < us.length; i++) {
      const c = Math.round(us[i]! - shear * vs[i]! + offset);
      if (c >= 0 && c < columns.length) columns[c]!++;
    }
    return sumOfSquares(columns);
  };
  return Math.round(sharpest(sharpness, MAX_SHEAR, [0.01, 0.002]) * 1000) / 1000;
}

/** Ink pixels of strokes at most `maxWidth` wide and at least `minHeight` tall: stems, barlines. */
function uprightStrokes(image: BinaryImage, maxWidth: number, minHeight: number): Uint8Array {
  const { width, height, data } = image;
  const thin = shortRows(image, maxWidth);
  const out = new Uint8Array(data.length);
  for (let x = 0; x < width; x++) {
    // A leaning stroke steps sideways as it goes down: a pixel beside counts as continuing it.
    const on = (yy: number) => thin[yy * width + x] || (x > 0 && thin[yy * width + x - 1]) || (x + 1 < width && thin[yy * width + x + 1]);
    let y = 0;
    while (y < height) {
      if (!thin[y * width + x]) {
        y++;
        continue;
      }
      const start = y;
      while (y < height && on(y)) y++;
      if (y - start >= minHeight) for (let yy = start; yy < y; yy++) if (thin[yy * width + x]) out[yy * width + x] = 1;
    }
  }
  return out;
}
